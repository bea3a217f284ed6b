import { showError, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Button, Card, Descriptions, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useSubscriptionQuery } from '../api';
import { AdminOnly } from '../components/AdminOnly';
import { CheckoutDialog } from '../components/CheckoutDialog';
import { brl, invoiceDate } from '../format';

/**
 * /subscription, titled Assinatura (docs/product/administration.md "Invoices and subscription"): the
 * licence period as text, the billing e-mail and 'Assine Agora!', which opens the checkout. An invoice's
 * pay link (`?invoiceId=`) opens the checkout for that invoice at once.
 */
export function SubscriptionPage() {
  return (
    <AdminOnly>
      <SubscriptionPageContent />
    </AdminOnly>
  );
}

function SubscriptionPageContent() {
  const { t } = useTranslation('billing');
  const [params] = useSearchParams();
  const invoiceId = Number(params.get('invoiceId')) || null;
  const { data, isLoading, error } = useSubscriptionQuery();
  const [open, setOpen] = useState(invoiceId !== null);

  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  const licence = (days: number, dueDate: string) => {
    if (days < 0) return t('subscription.licenceExpired', { date: invoiceDate(dueDate).slice(0, 8) });
    if (days === 0) return t('subscription.licenceToday');
    return t('subscription.licenceDays', { count: days });
  };

  return (
    <Card title={t('subscription.title')} style={{ maxWidth: 720 }}>
      {isLoading || !data ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : (
        <>
          <Typography.Title level={5} data-testid="licence-text">
            {licence(data.daysLeft, data.dueDate)}
          </Typography.Title>
          <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('subscription.billingEmail')}>{data.billingEmail || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('subscription.plan')}>
              {data.plan.name} · {brl(data.plan.amount)}
            </Descriptions.Item>
          </Descriptions>
          {data.payable ? (
            <Button type="primary" onClick={() => setOpen(true)}>
              {t('subscription.subscribe')}
            </Button>
          ) : (
            <Alert type="info" showIcon message={t('subscription.notPayable')} />
          )}
          {data.payable && (
            <CheckoutDialog open={open} invoiceId={invoiceId} demoPayments={data.demoPayments} onClose={() => setOpen(false)} />
          )}
        </>
      )}
    </Card>
  );
}
