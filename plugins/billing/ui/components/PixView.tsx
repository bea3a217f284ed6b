import { CopyOutlined } from '@ant-design/icons';
import {
  sessionUserChanged,
  subscribeSocketEvent,
  toast,
  useAppDispatch,
  useSession,
  useTranslation,
} from '@balcao/plugin-sdk/ui';
import { Button, Flex, QRCode, Result, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { billingApi, useChargeStatusQuery } from '../api';
import { brl, invoiceDate } from '../format';
import type { Checkout, PaymentEvent } from '../types';

/** After a confirmed payment the app goes to / (docs/product/administration.md "Constants"): 4 seconds. */
export const REDIRECT_AFTER_PAYMENT_MS = 4_000;
/** How long "copied" shows after copying the code: 1 second. */
export const COPIED_MS = 1_000;
/** The charge is also read every few seconds: a socket that dropped meanwhile misses no payment. */
const POLL_MS = 5_000;

/**
 * The Pix view: the QR code and the copy-paste code of the charge; once `company-{id}-payment` says
 * CONCLUIDA (or the charge reads CONCLUIDA), the renewal toast, the session's new due date, and / after
 * 4 seconds — no new login.
 */
export function PixView({ checkout, demoPayments }: { checkout: Checkout; demoPayments: boolean }) {
  const { t } = useTranslation('billing');
  const user = useSession();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [copied, setCopied] = useState(false);
  const [paidUntil, setPaidUntil] = useState<string | null>(null);
  const { data: status } = useChargeStatusQuery(checkout.txid, { pollingInterval: paidUntil ? 0 : POLL_MS });

  useEffect(() => {
    if (!user) return;
    return subscribeSocketEvent<PaymentEvent>(`company-${user.companyId}-payment`, (event) => {
      if (event.action === 'CONCLUIDA' && event.invoiceId === checkout.invoiceId) setPaidUntil(event.company.dueDate);
    });
  }, [user, checkout.invoiceId]);
  useEffect(() => {
    if (status?.status === 'CONCLUIDA' && !paidUntil) setPaidUntil(status.dueDate);
  }, [status, paidUntil]);
  useEffect(() => {
    if (!paidUntil || !user) return;
    toast.success(t('checkout.renewed', { date: invoiceDate(paidUntil).slice(0, 8) }));
    // the server confirmed the payment: its verdict on the session is now "paid up"
    dispatch(sessionUserChanged({ id: user.id, changes: { company: { ...user.company, dueDate: paidUntil }, expired: false } }));
    dispatch(billingApi.util.invalidateTags(['Subscription', { type: 'Invoice', id: 'LIST' }]));
    const timer = setTimeout(() => navigate('/'), REDIRECT_AFTER_PAYMENT_MS);
    return () => clearTimeout(timer);
    // once per payment (paidUntil only): the session's own change must not start another timer
  }, [paidUntil]);

  const copy = async () => {
    await navigator.clipboard?.writeText(checkout.qrcode.qrcode).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), COPIED_MS);
  };

  if (paidUntil) return <Result status="success" title={t('checkout.confirmed')} />;
  return (
    <Flex vertical align="center" gap={12}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('checkout.pixTitle')}
      </Typography.Title>
      <Typography.Text type="secondary">{t('checkout.pixHelp')}</Typography.Text>
      <QRCode value={checkout.qrcode.qrcode} size={220} />
      <Typography.Text strong data-testid="pix-amount">
        {t('checkout.amount')}: {brl(checkout.valor.original)}
      </Typography.Text>
      <Typography.Paragraph code copyable={false} style={{ wordBreak: 'break-all', maxWidth: '100%', margin: 0 }}>
        {checkout.qrcode.qrcode}
      </Typography.Paragraph>
      <Button icon={<CopyOutlined />} onClick={copy}>
        {copied ? t('checkout.copied') : t('checkout.copy')}
      </Button>
      <Typography.Text type="secondary">{t('checkout.waiting')}</Typography.Text>
      {demoPayments && (
        <a href={`/billing-demo-pix/${checkout.txid}`} target="_blank" rel="noopener noreferrer" data-testid="demo-pay-link">
          {t('checkout.demo')}
        </a>
      )}
    </Flex>
  );
}
