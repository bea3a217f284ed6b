import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

/** The 403 screen of docs/product/tickets-and-inbox.md#screens-and-routes: "Oops! Acesso Negado!" with a way back to /tickets. */
export function AccessDenied() {
  const { t } = useTranslation('insights');
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title={t('denied.title')}
      subTitle={t('denied.text')}
      extra={
        <Button type="primary" onClick={() => navigate('/tickets')}>
          {t('denied.back')}
        </Button>
      }
    />
  );
}
