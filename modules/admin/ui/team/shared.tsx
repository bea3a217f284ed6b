import { StopOutlined } from '@ant-design/icons';
import { usePagedSearch as usePagedSearchFrom, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

/** docs/product/tickets-and-inbox.md#validation: user searches start at 3 characters. */
export const MIN_SEARCH_CHARS = 3;

/** The Users page's search (from 3 characters) and paging: the SDK's paged list. */
export const usePagedSearch = () => usePagedSearchFrom(MIN_SEARCH_CHARS);

export { InfiniteScroll, useNarrowScreen } from '@balcao/plugin-sdk/ui';

/** What a profile user sees on an admin page (docs/product/administration.md#users and Settings are denied to them). */
export function AccessDenied() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      icon={<StopOutlined />}
      title={t('team.denied.title')}
      subTitle={t('team.denied.description')}
      extra={
        <Button type="primary" onClick={() => navigate('/tickets')}>
          {t('team.denied.back')}
        </Button>
      }
    />
  );
}
