import Flex from 'antd/es/flex';
import theme from 'antd/es/theme';

/** A whole-page placeholder while the session is being restored or a page's code loads (light: no antd Skeleton). */
export function PageSkeleton() {
  const { token } = theme.useToken();
  const bar = (width: string) => (
    <div style={{ height: 14, width, borderRadius: 4, background: token.colorFillSecondary, marginBottom: 14 }} />
  );
  return (
    <Flex
      justify="center"
      align="center"
      aria-busy="true"
      data-testid="page-skeleton"
      style={{ minHeight: '100%', padding: 24, background: token.colorBgLayout, boxSizing: 'border-box' }}
    >
      <div style={{ width: '100%', maxWidth: 420 }}>
        {bar('40%')}
        {bar('100%')}
        {bar('100%')}
        {bar('70%')}
      </div>
    </Flex>
  );
}
