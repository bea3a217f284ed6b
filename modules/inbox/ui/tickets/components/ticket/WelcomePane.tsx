import { MessageOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Result } from 'antd';

/** What the right side shows with no ticket open (docs/product/tickets-and-inbox.md#screens-and-routes welcome message). */
export function WelcomePane() {
  const { t } = useTranslation('inbox');
  return (
    <Result
      icon={<MessageOutlined />}
      title={t('tickets.welcome.title')}
      subTitle={t('tickets.welcome.text')}
      style={{ height: '100%', display: 'flex', flexDirection: 'column', justifyContent: 'center' }}
    />
  );
}
