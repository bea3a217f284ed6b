import { CopyOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import {
  formatDate,
  showError,
  subscribeSocketEvent,
  toast,
  useNarrowScreen,
  usePlan,
  useSession,
  useTranslation,
} from '@balcao/plugin-sdk/ui';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Drawer,
  Empty,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Result,
  Skeleton,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type ReactNode, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { WEBHOOK_EVENTS } from '../../shared/events';
import {
  useCreateWebhookMutation,
  useDeleteWebhookMutation,
  useRedeliverWebhookMutation,
  useRotateWebhookSecretMutation,
  useTestWebhookMutation,
  useUpdateWebhookMutation,
  useWebhookDeliveriesQuery,
  useWebhooksQuery,
  type Webhook,
  type WebhookDelivery,
  type WebhookInput,
} from '../api';

/** The redirect after the plan-gate toast, as the message API's page does it: one second. */
const PLAN_REDIRECT_MS = 1_000;
/** How often an open delivery log looks for new attempts. */
const LOG_REFRESH_MS = 3_000;

/** A plan without useExternalApi: a toast, then / after a second. The server refuses anyway. */
function PlanGuard({ children }: { children: ReactNode }): ReactNode {
  const { t } = useTranslation('webhooks');
  const navigate = useNavigate();
  const plan = usePlan();
  const denied = plan !== undefined && !plan.useExternalApi;
  useEffect(() => {
    if (!denied) return;
    toast.error(t('planDenied'), 'top-center');
    const timer = setTimeout(() => navigate('/'), PLAN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [denied, navigate, t]);
  return denied ? null : children;
}

/** The webhooks page (/webhooks, docs/api.md "Webhooks"): a company admin's endpoints and their logs. */
export function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const session = useSession();
  const isAdmin = session?.profile === 'admin' || session?.super === true;
  return (
    <PlanGuard>
      <Flex vertical gap={16} style={{ padding: 16, maxWidth: 1200 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('title')}
        </Typography.Title>
        {isAdmin ? <Endpoints /> : <Result status="403" subTitle={t('adminsOnly')} />}
      </Flex>
    </PlanGuard>
  );
}

function Endpoints() {
  const { t } = useTranslation('webhooks');
  const session = useSession();
  const webhooks = useWebhooksQuery();
  const [remove] = useDeleteWebhookMutation();
  const [rotate] = useRotateWebhookSecretMutation();
  const [sendTest] = useTestWebhookMutation();
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [logOf, setLogOf] = useState<Webhook | null>(null);
  const { refetch } = webhooks;

  useEffect(() => {
    if (webhooks.error) showError(webhooks.error);
  }, [webhooks.error]);

  // an endpoint switched off after a day of failures (by a worker): told at once, the list refreshed
  useEffect(() => {
    if (!session) return;
    return subscribeSocketEvent<{ action: string; webhook?: { name: string } }>(
      `company-${session.companyId}-webhook`,
      (event) => {
        if (event.action === 'disabled') toast.warning(t('disabledToast', { name: event.webhook?.name ?? '' }));
        void refetch();
      },
    );
  }, [session, refetch, t]);

  const disabled = (webhooks.data ?? []).filter((webhook) => !webhook.active && webhook.disabledAt);

  const columns: ColumnsType<Webhook> = [
    { key: 'name', title: t('name'), dataIndex: 'name' },
    {
      key: 'url',
      title: t('url'),
      responsive: ['md'],
      render: (_value, webhook) => (
        <Typography.Text ellipsis style={{ maxWidth: 280 }} title={webhook.url}>
          {webhook.url}
        </Typography.Text>
      ),
    },
    {
      key: 'events',
      title: t('events'),
      responsive: ['lg'],
      render: (_value, webhook) => (
        <Flex wrap gap={4}>
          {webhook.events.map((event) => (
            <Tag key={event}>{t(`eventNames.${event}`, { defaultValue: event })}</Tag>
          ))}
        </Flex>
      ),
    },
    {
      key: 'status',
      title: t('status'),
      render: (_value, webhook) =>
        webhook.active ? (
          <Tag color={webhook.failingSince ? 'orange' : 'green'}>{webhook.failingSince ? t('failing') : t('active')}</Tag>
        ) : (
          <Tag color={webhook.disabledAt ? 'red' : 'default'}>{webhook.disabledAt ? t('disabled') : t('inactive')}</Tag>
        ),
    },
    {
      key: 'actions',
      title: '',
      render: (_value, webhook) => (
        <Flex wrap gap={4}>
          <Button size="small" onClick={() => setLogOf(webhook)}>
            {t('log')}
          </Button>
          <Button
            size="small"
            icon={<SendOutlined />}
            disabled={!webhook.active}
            onClick={async () => {
              try {
                await sendTest(webhook.id).unwrap();
                toast.success(t('testQueued'));
              } catch (error) {
                showError(error);
              }
            }}
          >
            {t('test')}
          </Button>
          <Button size="small" onClick={() => setEditing(webhook)}>
            {t('edit')}
          </Button>
          <Popconfirm
            title={t('rotateConfirm')}
            okText={t('rotate')}
            cancelText={t('cancel')}
            onConfirm={async () => {
              try {
                setSecret((await rotate(webhook.id).unwrap()).secret);
              } catch (error) {
                showError(error);
              }
            }}
          >
            <Button size="small">{t('rotate')}</Button>
          </Popconfirm>
          <Popconfirm
            title={t('deleteConfirm')}
            okText={t('delete')}
            cancelText={t('cancel')}
            onConfirm={async () => {
              try {
                await remove(webhook.id).unwrap();
                toast.success(t('deleted'));
              } catch (error) {
                showError(error);
              }
            }}
          >
            <Button size="small" danger>
              {t('delete')}
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <Card
      size="small"
      title={t('endpoints')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('create')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      {disabled.map((webhook) => (
        <Alert
          key={webhook.id}
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          message={t('disabledNotice', { name: webhook.name, date: formatDate(webhook.disabledAt ?? '') })}
        />
      ))}
      {webhooks.isLoading ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : (
        <Table<Webhook>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={webhooks.data ?? []}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: <Empty description={t('empty')} /> }}
        />
      )}
      <EndpointDialog
        editing={editing}
        onClose={() => setEditing(null)}
        onCreated={(created) => {
          setEditing(null);
          setSecret(created);
        }}
      />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
      <DeliveryLog webhook={logOf} onClose={() => setLogOf(null)} />
    </Card>
  );
}

function SecretDialog({ secret, onClose }: { secret: string | null; onClose(): void }) {
  const { t } = useTranslation('webhooks');
  return (
    <Modal
      open={secret !== null}
      title={t('secretTitle')}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('done')}
        </Button>
      }
    >
      <Alert type="warning" showIcon message={t('secretWarning')} style={{ marginBottom: 12 }} />
      <Flex gap={8}>
        <Input readOnly value={secret ?? ''} aria-label={t('secretTitle')} data-testid="webhook-secret" />
        <Button
          icon={<CopyOutlined />}
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(secret ?? '');
              toast.success(t('copied'));
            } catch (error) {
              showError(error);
            }
          }}
        >
          {t('copy')}
        </Button>
      </Flex>
    </Modal>
  );
}

function EndpointDialog({
  editing,
  onClose,
  onCreated,
}: {
  editing: Webhook | 'new' | null;
  onClose(): void;
  onCreated(secret: string): void;
}) {
  const { t } = useTranslation('webhooks');
  const [form] = Form.useForm<WebhookInput>();
  const [create, creating] = useCreateWebhookMutation();
  const [update, updating] = useUpdateWebhookMutation();
  const existing = editing !== null && editing !== 'new' ? editing : null;

  useEffect(() => {
    if (editing === null) return;
    form.resetFields();
    if (existing)
      form.setFieldsValue({ name: existing.name, url: existing.url, events: existing.events, active: existing.active });
    else form.setFieldsValue({ events: [], active: true });
  }, [editing, existing, form]);

  const submit = async (values: WebhookInput) => {
    try {
      if (existing) {
        await update({ id: existing.id, body: values }).unwrap();
        toast.success(t('saved'));
        onClose();
      } else {
        onCreated((await create(values).unwrap()).secret);
      }
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Modal
      open={editing !== null}
      title={existing ? t('editTitle') : t('createTitle')}
      onCancel={onClose}
      okText={t('save')}
      cancelText={t('cancel')}
      confirmLoading={creating.isLoading || updating.isLoading}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="name"
          label={t('name')}
          rules={[{ required: true, whitespace: true, message: t('nameRequired') }, { max: 120 }]}
        >
          <Input maxLength={120} />
        </Form.Item>
        <Form.Item
          name="url"
          label={t('url')}
          extra={t('urlHelp')}
          rules={[{ required: true, pattern: /^https?:\/\/\S+$/i, message: t('urlRequired') }, { max: 2000 }]}
        >
          <Input placeholder="https://" inputMode="url" />
        </Form.Item>
        <Form.Item
          name="events"
          label={t('events')}
          rules={[{ required: true, type: 'array', min: 1, message: t('eventsRequired') }]}
        >
          <Checkbox.Group>
            <Flex vertical gap={4}>
              {WEBHOOK_EVENTS.map((event) => (
                <Checkbox key={event} value={event}>
                  {t(`eventNames.${event}`)}{' '}
                  <Typography.Text type="secondary" code>
                    {event}
                  </Typography.Text>
                </Checkbox>
              ))}
            </Flex>
          </Checkbox.Group>
        </Form.Item>
        {existing ? (
          <Form.Item name="active" label={t('activeLabel')} valuePropName="checked">
            <Switch />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}

function DeliveryLog({ webhook, onClose }: { webhook: Webhook | null; onClose(): void }) {
  const { t } = useTranslation('webhooks');
  const narrow = useNarrowScreen();
  const [pageNumber, setPageNumber] = useState(1);
  const [redeliver] = useRedeliverWebhookMutation();
  const log = useWebhookDeliveriesQuery(webhook ? { id: webhook.id, pageNumber } : { id: 0, pageNumber }, {
    skip: webhook === null,
    pollingInterval: webhook ? LOG_REFRESH_MS : 0,
  });

  useEffect(() => {
    if (webhook) setPageNumber(1);
  }, [webhook]);
  useEffect(() => {
    if (log.error) showError(log.error);
  }, [log.error]);

  const statusTag = (delivery: WebhookDelivery) => {
    const color = delivery.status === 'delivered' ? 'green' : delivery.status === 'failed' ? 'red' : 'gold';
    return <Tag color={color}>{t(`deliveryStatus.${delivery.status}`)}</Tag>;
  };

  const columns: ColumnsType<WebhookDelivery> = [
    { key: 'occurredAt', title: t('when'), render: (_value, delivery) => formatDate(delivery.occurredAt) },
    { key: 'event', title: t('event'), render: (_value, delivery) => <Typography.Text code>{delivery.event}</Typography.Text> },
    { key: 'status', title: t('status'), render: (_value, delivery) => statusTag(delivery) },
    {
      key: 'response',
      title: t('response'),
      render: (_value, delivery) =>
        delivery.responseStatus !== null
          ? String(delivery.responseStatus)
          : delivery.error
            ? t(`deliveryErrors.${delivery.error}`, { defaultValue: delivery.error })
            : '—',
    },
    {
      key: 'duration',
      title: t('duration'),
      responsive: ['md'],
      render: (_value, delivery) => (delivery.durationMs === null ? '—' : t('durationMs', { value: delivery.durationMs })),
    },
    { key: 'attempts', title: t('attempts'), dataIndex: 'attempts', responsive: ['sm'] },
    {
      key: 'next',
      title: t('nextRetry'),
      responsive: ['md'],
      render: (_value, delivery) => (delivery.nextAttemptAt ? formatDate(delivery.nextAttemptAt) : '—'),
    },
    {
      key: 'actions',
      title: '',
      render: (_value, delivery) => (
        <Button
          size="small"
          onClick={async () => {
            if (!webhook) return;
            try {
              await redeliver({ id: webhook.id, deliveryId: delivery.id }).unwrap();
              toast.success(t('redelivered'));
            } catch (error) {
              showError(error);
            }
          }}
        >
          {t('redeliver')}
        </Button>
      ),
    },
  ];

  return (
    <Drawer
      open={webhook !== null}
      onClose={onClose}
      width={narrow ? '100%' : 860}
      title={t('logTitle', { name: webhook?.name ?? '' })}
    >
      {log.isLoading ? (
        <Skeleton active paragraph={{ rows: 5 }} />
      ) : (
        <Table<WebhookDelivery>
          rowKey="id"
          size="small"
          data-testid="webhook-deliveries"
          columns={columns}
          dataSource={log.data?.deliveries ?? []}
          scroll={{ x: true }}
          pagination={{
            current: pageNumber,
            pageSize: 20,
            total: log.data?.count ?? 0,
            onChange: setPageNumber,
            showSizeChanger: false,
          }}
          locale={{ emptyText: <Empty description={t('logEmpty')} /> }}
        />
      )}
    </Drawer>
  );
}
