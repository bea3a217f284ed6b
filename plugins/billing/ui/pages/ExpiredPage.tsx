import { formatDate, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Flex, Result } from 'antd';
import { InvoicesPage } from './InvoicesPage';
import { SubscriptionPage } from './SubscriptionPage';

/**
 * /financeiro-aberto, the pay screen of a company whose subscription expired
 * (docs/product/administration.md#expired-subscription): for admins the subscription with its checkout
 * (an invoice's pay link, `?invoiceId=`, opens it for that invoice) and the invoices; profile users are
 * told to contact support, since paying is the admins'.
 */
export function ExpiredPage() {
  const { t } = useTranslation('billing');
  const user = useSession();
  const dueDate = user ? formatDate(user.company.dueDate) : '';
  if (user && user.profile !== 'admin' && !user.super) {
    return <Result status="warning" title={t('expired.title')} subTitle={t('expired.userText', { date: dueDate })} />;
  }
  return (
    <Flex vertical gap={16}>
      <Result status="warning" title={t('expired.title')} subTitle={t('expired.adminText', { date: dueDate })} />
      <SubscriptionPage />
      <InvoicesPage />
    </Flex>
  );
}
