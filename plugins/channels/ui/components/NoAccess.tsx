import { StopOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

/** The no-access screen of Connections (docs/product/roles-and-permissions.md#roles-in-the-inbox: a profile user without allowConnections). */
export function NoAccess() {
  const { t } = useTranslation('channels');
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      icon={<StopOutlined />}
      title={t('denied.title')}
      subTitle={t('denied.description')}
      extra={
        <Button type="primary" onClick={() => navigate('/tickets')}>
          {t('denied.back')}
        </Button>
      }
    />
  );
}
