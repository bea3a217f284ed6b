import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Typography } from 'antd';
import { useViewer } from '../../hooks/useViewer';
import { useVisitorTyping } from './webchat-typing';

/** "Ana está digitando…" under the conversation of a webchat ticket while its visitor types. */
export function VisitorTypingLine({ ticket }: { ticket: { id: number; channel: string } }) {
  const { t } = useTranslation('inbox');
  const viewer = useViewer();
  const typing = useVisitorTyping(viewer.user.companyId, ticket);
  if (!typing) return null;
  return (
    <Typography.Text type="secondary" italic role="status" style={{ padding: '0 16px 4px' }} data-testid="visitor-typing">
      {typing.name ? t('tickets.view.typingNamed', { name: typing.name }) : t('tickets.view.typing')}
    </Typography.Text>
  );
}
