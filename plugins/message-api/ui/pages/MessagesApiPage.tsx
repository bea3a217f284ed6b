import { CopyOutlined, KeyOutlined, PlusOutlined, SendOutlined, UploadOutlined } from '@ant-design/icons';
import {
  API_KEY_SCOPES,
  type ApiKeyInfo,
  type ApiKeyScope,
  formatDate,
  showError,
  toast,
  usePlan,
  useSession,
  useTranslation,
} from '@balcao/plugin-sdk/ui';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  Empty,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Row,
  Skeleton,
  Table,
  Tag,
  Typography,
  Upload,
  type UploadFile,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type ReactNode, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  sendTest,
  sendUrl,
  useApiKeysQuery,
  useCreateApiKeyMutation,
  useMessageApiUsageQuery,
  useRevokeApiKeyMutation,
} from '../api';

/** The documented redirect after the plan-gate toast (docs/product/automation.md#errors): one second. */
const PLAN_REDIRECT_MS = 1_000;
/** A number as the API takes it: digits only, country code first (docs/api.md "The message API"). */
const NUMBER_PATTERN = /^[0-9]{8,20}$/;

/** A plan that lost useExternalApi: the documented toast, then / after a second. The server refuses anyway. */
function PlanGuard({ children }: { children: ReactNode }): ReactNode {
  const { t } = useTranslation('message-api');
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

/** The message API page (/messages-api, docs/product/automation.md "Other screens"): docs, two test forms, API keys. */
export function MessagesApiPage() {
  const { t } = useTranslation('message-api');
  const session = useSession();
  const isAdmin = session?.profile === 'admin' || session?.super === true;
  return (
    <PlanGuard>
      <Flex vertical gap={16} style={{ padding: 12, maxWidth: 1200 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('title')}
        </Typography.Title>
        <Documentation isAdmin={isAdmin} />
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <TextTestForm />
          </Col>
          <Col xs={24} lg={12}>
            <MediaTestForm />
          </Col>
        </Row>
        {isAdmin ? <ApiKeys /> : <Alert type="info" showIcon message={t('keys.adminOnly')} />}
      </Flex>
    </PlanGuard>
  );
}

function Code({ children }: { children: string }) {
  return (
    <Typography.Paragraph copyable={{ text: children }} style={{ marginBottom: 8 }}>
      <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0 }}>{children}</pre>
    </Typography.Paragraph>
  );
}

function Documentation({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation('message-api');
  const usage = useMessageApiUsageQuery(undefined, { skip: !isAdmin });
  const url = sendUrl();
  return (
    <Card title={t('docs.heading')} size="small">
      <Typography.Paragraph>{t('docs.intro')}</Typography.Paragraph>
      <Typography.Text strong>{t('docs.endpoint')}</Typography.Text>
      <Code>{`POST ${url}`}</Code>
      <Typography.Text strong>{t('docs.headers')}</Typography.Text>
      <Code>{'Authorization: Bearer <token>\nIdempotency-Key: <id>'}</Code>
      <Typography.Title level={5}>{t('docs.textTitle')}</Typography.Title>
      <Code>{'Content-Type: application/json\n{ "number": "5511999999999", "body": "Olá!" }'}</Code>
      <Typography.Title level={5}>{t('docs.mediaTitle')}</Typography.Title>
      <Code>{'Content-Type: multipart/form-data\nnumber=5511999999999\nbody=Legenda\nmedias=@arquivo.pdf'}</Code>
      <Typography.Text strong>{t('docs.fields')}</Typography.Text>
      <ul style={{ paddingInlineStart: 20 }}>
        {(['number', 'body', 'userId', 'flags', 'medias', 'whatsappId'] as const).map((key) => (
          <li key={key}>{t(`docs.${key}`)}</li>
        ))}
      </ul>
      <Typography.Paragraph>{t('docs.idempotency')}</Typography.Paragraph>
      <Typography.Paragraph>{t('docs.rateLimit')}</Typography.Paragraph>
      <Typography.Paragraph>{t('docs.answer')}</Typography.Paragraph>
      {isAdmin ? (
        usage.isLoading ? (
          <Skeleton.Input active size="small" />
        ) : usage.data ? (
          <Tag color="blue">{t('docs.sentToday', { count: usage.data.count })}</Tag>
        ) : null
      ) : null}
    </Card>
  );
}

interface TextValues {
  token: string;
  number: string;
  body: string;
  userId?: string;
  queueId?: string;
  sendSignature?: boolean;
  closeTicket?: boolean;
}

function useNumberRules() {
  const { t } = useTranslation('message-api');
  return [
    { required: true, message: t('test.required') },
    { pattern: NUMBER_PATTERN, message: t('test.numberInvalid') },
  ];
}

function TextTestForm() {
  const { t } = useTranslation('message-api');
  const [form] = Form.useForm<TextValues>();
  const [sending, setSending] = useState(false);
  const numberRules = useNumberRules();
  const submit = async (values: TextValues) => {
    setSending(true);
    try {
      await sendTest(values.token, {
        number: values.number,
        body: values.body,
        userId: values.userId ?? '',
        queueId: values.queueId ?? '',
        sendSignature: values.sendSignature === true,
        closeTicket: values.closeTicket === true,
      });
      toast.success(t('test.sent'));
      form.resetFields(['body']);
    } catch (error) {
      showError(error);
    } finally {
      setSending(false);
    }
  };
  return (
    <Card title={t('test.textTitle')} size="small" style={{ height: '100%' }}>
      <Form form={form} layout="vertical" onFinish={submit} aria-label={t('test.textTitle')}>
        <Form.Item name="token" label={t('test.token')} rules={[{ required: true, message: t('test.required') }]}>
          <Input.Password autoComplete="off" />
        </Form.Item>
        <Form.Item name="number" label={t('test.number')} rules={numberRules}>
          <Input inputMode="numeric" placeholder="5511999999999" />
        </Form.Item>
        <Form.Item name="body" label={t('test.body')} rules={[{ required: true, message: t('test.required') }]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} />
        </Form.Item>
        <Row gutter={8}>
          <Col xs={24} sm={12}>
            <Form.Item name="userId" label={t('test.userId')}>
              <Input inputMode="numeric" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="queueId" label={t('test.queueId')}>
              <Input inputMode="numeric" />
            </Form.Item>
          </Col>
        </Row>
        <Flex wrap gap={16}>
          <Form.Item name="sendSignature" valuePropName="checked" noStyle>
            <Checkbox>{t('test.sendSignature')}</Checkbox>
          </Form.Item>
          <Form.Item name="closeTicket" valuePropName="checked" noStyle>
            <Checkbox>{t('test.closeTicket')}</Checkbox>
          </Form.Item>
        </Flex>
        <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={sending} style={{ marginTop: 16 }}>
          {t('test.send')}
        </Button>
      </Form>
    </Card>
  );
}

interface MediaValues {
  token: string;
  number: string;
  body?: string;
}

function MediaTestForm() {
  const { t } = useTranslation('message-api');
  const [form] = Form.useForm<MediaValues>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [sending, setSending] = useState(false);
  const numberRules = useNumberRules();
  const submit = async (values: MediaValues) => {
    const file = files[0]?.originFileObj;
    if (!file) {
      toast.error(t('test.fileRequired'));
      return;
    }
    const data = new FormData();
    data.append('number', values.number);
    // docs/product/automation.md#validation: the media form's text defaults to the file's name
    data.append('body', values.body?.trim() ? values.body : file.name);
    data.append('medias', file, file.name);
    setSending(true);
    try {
      await sendTest(values.token, data);
      toast.success(t('test.sent'));
      setFiles([]);
    } catch (error) {
      showError(error);
    } finally {
      setSending(false);
    }
  };
  return (
    <Card title={t('test.mediaTitle')} size="small" style={{ height: '100%' }}>
      <Form form={form} layout="vertical" onFinish={submit} aria-label={t('test.mediaTitle')}>
        <Form.Item name="token" label={t('test.token')} rules={[{ required: true, message: t('test.required') }]}>
          <Input.Password autoComplete="off" />
        </Form.Item>
        <Form.Item name="number" label={t('test.number')} rules={numberRules}>
          <Input inputMode="numeric" placeholder="5511999999999" />
        </Form.Item>
        <Form.Item name="body" label={t('test.body')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} />
        </Form.Item>
        <Form.Item label={t('test.file')} required>
          <Upload
            maxCount={1}
            fileList={files}
            beforeUpload={() => false}
            onChange={({ fileList }) => setFiles(fileList.slice(-1))}
          >
            <Button icon={<UploadOutlined />}>{t('test.pickFile')}</Button>
          </Upload>
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={sending}>
          {t('test.send')}
        </Button>
      </Form>
    </Card>
  );
}

function ApiKeys() {
  const { t } = useTranslation('message-api');
  const keys = useApiKeysQuery();
  const [revoke] = useRevokeApiKeyMutation();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);

  useEffect(() => {
    if (keys.error) showError(keys.error);
  }, [keys.error]);

  const columns: ColumnsType<ApiKeyInfo> = [
    { key: 'name', title: t('keys.name'), dataIndex: 'name' },
    {
      key: 'scopes',
      title: t('keys.scopes'),
      render: (_value, key) => (
        <Flex wrap gap={4}>
          {key.scopes.map((scope) => (
            <Tag key={scope}>{t(`keys.scopeNames.${scope}`)}</Tag>
          ))}
        </Flex>
      ),
    },
    { key: 'hint', title: t('keys.hint'), render: (_value, key) => <Typography.Text code>{key.hint}</Typography.Text> },
    { key: 'createdBy', title: t('keys.createdBy'), responsive: ['md'], render: (_value, key) => key.createdBy?.name ?? '—' },
    { key: 'createdAt', title: t('keys.createdAt'), responsive: ['lg'], render: (_value, key) => formatDate(key.createdAt) },
    {
      key: 'lastUsedAt',
      title: t('keys.lastUsedAt'),
      responsive: ['md'],
      render: (_value, key) => (key.lastUsedAt ? formatDate(key.lastUsedAt) : t('keys.never')),
    },
    {
      key: 'status',
      title: t('keys.status'),
      render: (_value, key) =>
        key.revokedAt ? <Tag color="red">{t('keys.revoked')}</Tag> : <Tag color="green">{t('keys.active')}</Tag>,
    },
    {
      key: 'actions',
      title: '',
      render: (_value, key) =>
        key.revokedAt ? null : (
          <Popconfirm
            title={t('keys.revokeConfirm')}
            okText={t('keys.revoke')}
            cancelText={t('keys.cancel')}
            onConfirm={async () => {
              try {
                await revoke(key.id).unwrap();
                toast.success(t('keys.revokedToast'));
              } catch (error) {
                showError(error);
              }
            }}
          >
            <Button danger size="small">
              {t('keys.revoke')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <Card
      size="small"
      title={
        <Flex gap={8} align="center">
          <KeyOutlined />
          {t('keys.title')}
        </Flex>
      }
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t('keys.create')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('keys.intro')}</Typography.Paragraph>
      {keys.isLoading ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : (
        <Table<ApiKeyInfo>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={keys.data ?? []}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: <Empty description={t('keys.empty')} /> }}
        />
      )}
      <CreateKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setSecret(key);
        }}
      />
      <Modal
        open={secret !== null}
        title={t('keys.secretTitle')}
        onCancel={() => setSecret(null)}
        footer={
          <Button type="primary" onClick={() => setSecret(null)}>
            {t('keys.done')}
          </Button>
        }
      >
        <Alert type="warning" showIcon message={t('keys.secretWarning')} style={{ marginBottom: 12 }} />
        <Flex gap={8}>
          <Input readOnly value={secret ?? ''} aria-label={t('keys.hint')} data-testid="api-key-secret" />
          <Button
            icon={<CopyOutlined />}
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(secret ?? '');
                toast.success(t('keys.copied'));
              } catch (error) {
                showError(error);
              }
            }}
          >
            {t('keys.copy')}
          </Button>
        </Flex>
      </Modal>
    </Card>
  );
}

function CreateKeyDialog({ open, onClose, onCreated }: { open: boolean; onClose(): void; onCreated(key: string): void }) {
  const { t } = useTranslation('message-api');
  const [form] = Form.useForm<{ name: string; scopes: ApiKeyScope[] }>();
  const [create, creating] = useCreateApiKeyMutation();
  const submit = async (values: { name: string; scopes: ApiKeyScope[] }) => {
    try {
      const answer = await create({ name: values.name.trim(), scopes: values.scopes }).unwrap();
      form.resetFields();
      onCreated(answer.key);
    } catch (error) {
      showError(error);
    }
  };
  return (
    <Modal
      open={open}
      title={t('keys.createTitle')}
      okText={t('keys.createOk')}
      cancelText={t('keys.cancel')}
      confirmLoading={creating.isLoading}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ scopes: ['messages:send'] }}>
        <Form.Item
          name="name"
          label={t('keys.name')}
          rules={[{ required: true, whitespace: true, max: 100, message: t('test.required') }]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="scopes" label={t('keys.scopes')} rules={[{ required: true, message: t('test.required') }]}>
          <Checkbox.Group
            options={API_KEY_SCOPES.map((scope) => ({ value: scope, label: t(`keys.scopeNames.${scope}`) }))}
            style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
