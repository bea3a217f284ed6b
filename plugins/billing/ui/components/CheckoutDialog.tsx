import { MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Descriptions, Flex, Form, Input, Modal, Radio, Skeleton, Space, Steps, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { CUSTOM_PLAN, customPlanPrice } from '../../shared/pricing';
import { useInvoicesQuery, usePublicPlansQuery, useSubscribeMutation } from '../api';
import { brl } from '../format';
import type { Checkout, Plan } from '../types';
import { PixView } from './PixView';

interface Payer {
  firstName: string;
  zipcode: string;
}

type Choice = { kind: 'plan'; plan: Plan } | { kind: 'custom'; users: number; connections: number };

/** The custom plan's counts moved by one step, never below the minimum (docs/product/administration.md). */
const step = (value: number, delta: number) => Math.max(CUSTOM_PLAN.baseUsers, Math.min(CUSTOM_PLAN.maxCount, value + delta));

/**
 * The checkout (docs/product/administration.md "Checkout"): Dados (full name, CPF/CNPJ), Personalizar (a
 * plan or the custom plan, or the invoice being paid), Revisar, then the Pix view. The price shown here
 * is for the eyes only: the server computes what is charged.
 */
export function CheckoutDialog({
  open,
  invoiceId,
  demoPayments,
  onClose,
}: {
  open: boolean;
  invoiceId: number | null;
  demoPayments: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation('billing');
  const [form] = Form.useForm<Payer>();
  const [current, setCurrent] = useState(0);
  const [payer, setPayer] = useState<Payer | null>(null);
  const [choice, setChoice] = useState<Choice | null>(null);
  const [checkout, setCheckout] = useState<Checkout | null>(null);
  const plans = usePublicPlansQuery(undefined, { skip: !open || invoiceId !== null });
  const invoices = useInvoicesQuery(
    { searchParam: invoiceId ? String(invoiceId) : '', pageNumber: 1 },
    { skip: !open || invoiceId === null },
  );
  const invoice = invoices.data?.invoices.find((row) => row.id === invoiceId) ?? null;
  const [subscribe, { isLoading: paying }] = useSubscribeMutation();

  useEffect(() => {
    if (!open) {
      setCurrent(0);
      setCheckout(null);
    }
  }, [open]);
  useEffect(() => {
    if (!choice && plans.data?.[0]) setChoice({ kind: 'plan', plan: plans.data[0] });
  }, [choice, plans.data]);

  const price =
    invoice !== null
      ? Number(invoice.value)
      : choice?.kind === 'custom'
        ? (customPlanPrice(choice.users, choice.connections) ?? 0)
        : Number(choice?.plan.amount ?? 0);

  const pay = async () => {
    if (!payer) return;
    try {
      const body =
        invoiceId !== null
          ? { ...payer, invoiceId }
          : choice?.kind === 'custom'
            ? { ...payer, plan: JSON.stringify({ id: 'custom' }), users: choice.users, connections: choice.connections, price }
            : { ...payer, plan: JSON.stringify(choice?.plan ?? null), price };
      const answer = await subscribe(body).unwrap();
      toast.success(t('checkout.success'));
      setCheckout(answer);
    } catch (failure) {
      showError(failure);
    }
  };

  const dataStep = (
    <Form
      form={form}
      layout="vertical"
      onFinish={(values) => {
        setPayer(values);
        setCurrent(1);
      }}
    >
      <Form.Item
        name="firstName"
        label={t('checkout.firstName')}
        rules={[{ required: true, whitespace: true, message: t('checkout.nameRequired') }]}
      >
        <Input autoComplete="name" />
      </Form.Item>
      <Form.Item
        name="zipcode"
        label={t('checkout.zipcode')}
        rules={[
          { required: true, message: t('checkout.documentRequired') },
          {
            validator: async (_rule, value: string | undefined) => {
              const digits = (value ?? '').replace(/\D/g, '');
              if (value && digits.length !== 11 && digits.length !== 14) throw new Error(t('checkout.documentInvalid'));
            },
          },
        ]}
      >
        <Input inputMode="numeric" />
      </Form.Item>
    </Form>
  );

  const counter = (label: string, value: number, onChange: (next: number) => void) => (
    <Flex align="center" gap={8}>
      <span style={{ minWidth: 100 }}>{label}</span>
      <Button
        icon={<MinusOutlined />}
        aria-label={`${label} -`}
        onClick={() => onChange(step(value, -1))}
        disabled={value <= CUSTOM_PLAN.baseUsers}
      />
      <span data-testid={`count-${label}`}>{value}</span>
      <Button icon={<PlusOutlined />} aria-label={`${label} +`} onClick={() => onChange(step(value, 1))} />
    </Flex>
  );

  const planStep =
    invoiceId !== null ? (
      invoice ? (
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t('checkout.invoice')}>
            #{invoice.id} {invoice.detail}
          </Descriptions.Item>
          <Descriptions.Item label={t('checkout.users')}>{invoice.users}</Descriptions.Item>
          <Descriptions.Item label={t('checkout.connections')}>{invoice.connections}</Descriptions.Item>
          <Descriptions.Item label={t('checkout.total')}>{brl(invoice.value)}</Descriptions.Item>
        </Descriptions>
      ) : (
        <Skeleton active />
      )
    ) : plans.isLoading ? (
      <Skeleton active />
    ) : (
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text strong>{t('checkout.choosePlan')}</Typography.Text>
        <Radio.Group
          value={choice?.kind === 'plan' ? choice.plan.id : 'custom'}
          onChange={(event) => {
            const plan = plans.data?.find((row) => row.id === event.target.value);
            setChoice(
              plan
                ? { kind: 'plan', plan }
                : { kind: 'custom', users: CUSTOM_PLAN.baseUsers, connections: CUSTOM_PLAN.baseConnections },
            );
          }}
        >
          <Space direction="vertical">
            {(plans.data ?? []).map((plan) => (
              <Radio key={plan.id} value={plan.id}>
                {plan.name} — {plan.users} {t('checkout.users')}, {plan.connections} {t('checkout.connections')} ·{' '}
                {t('checkout.perMonth', { price: brl(plan.amount) })}
              </Radio>
            ))}
            <Radio value="custom">{t('checkout.custom')}</Radio>
          </Space>
        </Radio.Group>
        {choice?.kind === 'custom' && (
          <Card size="small">
            <Space direction="vertical">
              {counter(t('checkout.users'), choice.users, (users) => setChoice({ ...choice, users }))}
              {counter(t('checkout.connections'), choice.connections, (connections) => setChoice({ ...choice, connections }))}
              <Typography.Text strong data-testid="custom-price">
                {t('checkout.perMonth', { price: brl(price) })}
              </Typography.Text>
            </Space>
          </Card>
        )}
      </Space>
    );

  const reviewStep = (
    <Descriptions column={1} bordered size="small" title={t('checkout.review')}>
      <Descriptions.Item label={t('checkout.firstName')}>{payer?.firstName}</Descriptions.Item>
      <Descriptions.Item label={t('checkout.zipcode')}>{payer?.zipcode}</Descriptions.Item>
      <Descriptions.Item label={t('checkout.steps.plan')}>
        {invoice
          ? `#${invoice.id} ${invoice.detail}`
          : choice?.kind === 'custom'
            ? `${t('checkout.custom')} (${choice.users} ${t('checkout.users')}, ${choice.connections} ${t('checkout.connections')})`
            : choice?.plan.name}
      </Descriptions.Item>
      <Descriptions.Item label={t('checkout.total')}>
        <span data-testid="review-total">{brl(price)}</span>
      </Descriptions.Item>
    </Descriptions>
  );

  const footer = checkout
    ? null
    : [
        current > 0 && (
          <Button key="back" onClick={() => setCurrent(current - 1)}>
            {t('checkout.back')}
          </Button>
        ),
        current < 2 && (
          <Button
            key="next"
            type="primary"
            onClick={() => (current === 0 ? form.submit() : setCurrent(2))}
            disabled={current === 1 && !invoice && !choice}
          >
            {t('checkout.next')}
          </Button>
        ),
        current === 2 && (
          <Button key="pay" type="primary" loading={paying} onClick={pay}>
            {t('checkout.pay')}
          </Button>
        ),
      ];

  return (
    <Modal open={open} title={t('checkout.title')} onCancel={onClose} footer={footer} width={640} destroyOnHidden>
      {checkout ? (
        <PixView checkout={checkout} demoPayments={demoPayments} />
      ) : (
        <>
          <Steps
            current={current}
            size="small"
            responsive
            style={{ marginBottom: 24 }}
            items={[
              { title: t('checkout.steps.data') },
              { title: t('checkout.steps.plan') },
              { title: t('checkout.steps.review') },
            ]}
          />
          <div style={{ display: current === 0 ? 'block' : 'none' }}>{dataStep}</div>
          {current === 1 && planStep}
          {current === 2 && reviewStep}
        </>
      )}
    </Modal>
  );
}
