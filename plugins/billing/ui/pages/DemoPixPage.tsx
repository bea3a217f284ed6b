import { showError, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Result, Typography } from 'antd';
import { useParams } from 'react-router';
import { useChargeStatusQuery, useDemoPayMutation } from '../api';

/**
 * The demo's bank app (docs/billing.md "Demo"): pays a charge at the stand-in Pix gateway, which posts
 * the webhook; the checkout's tab then sees the payment as it would in production.
 */
export function DemoPixPage() {
  const { t } = useTranslation('billing');
  const txid = useParams().txid ?? '';
  const { data, error } = useChargeStatusQuery(txid, { skip: !txid });
  const [pay, { isLoading, data: paid }] = useDemoPayMutation();
  const status = paid?.status ?? data?.status;
  return (
    <Card title={t('demoPix.title')} style={{ maxWidth: 560 }}>
      {status === 'CONCLUIDA' ? (
        <Result status="success" title={t('demoPix.paid')} />
      ) : (
        <>
          <Typography.Paragraph>{t('demoPix.text')}</Typography.Paragraph>
          {status && <Typography.Paragraph type="secondary">{t('demoPix.status', { status })}</Typography.Paragraph>}
          <Button
            type="primary"
            loading={isLoading}
            disabled={!data || Boolean(error)}
            onClick={async () => {
              try {
                await pay(txid).unwrap();
              } catch (failure) {
                showError(failure);
              }
            }}
          >
            {t('demoPix.pay')}
          </Button>
        </>
      )}
    </Card>
  );
}
