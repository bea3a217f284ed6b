import { formatDate } from '@balcao/plugin-sdk/ui';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { PublicLayout } from './public/PublicLayout';

/** /financeiro-aberto: reached after a login refused for an expired subscription (docs/product/tickets-and-inbox.md#states-and-transitions). */
export default function SubscriptionExpiredPage() {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const state = useLocation().state as { dueDate?: string | null } | null;
  const dueDate = typeof state?.dueDate === 'string' ? formatDate(state.dueDate) : null;
  return (
    <PublicLayout>
      <Result
        status="warning"
        title={t('expired.title')}
        subTitle={dueDate ? t('expired.textWithDate', { date: dueDate }) : t('expired.text')}
        extra={
          <Button type="primary" onClick={() => navigate('/login')}>
            {t('expired.backToLogin')}
          </Button>
        }
      />
    </PublicLayout>
  );
}
