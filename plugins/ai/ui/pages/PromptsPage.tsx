import { DeleteOutlined, EditOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { showError, toast, useNarrowScreen, usePermission, usePlan, useTranslation } from '@balcao/plugin-sdk/ui';
import {
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  List,
  Modal,
  Popconfirm,
  Result,
  Select,
  Skeleton,
  Slider,
  Space,
  Statistic,
  Table,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { HANDOVER_MARKER, PROMPT_DEFAULTS, VOICES } from '../../shared/voices';
import {
  useAiPromptsQuery,
  useAiQueuesQuery,
  useAiUsageQuery,
  useCreateAiPromptMutation,
  useDeleteAiPromptMutation,
  useSetAiTokenCapMutation,
  useUpdateAiPromptMutation,
} from '../api';
import type { Prompt, PromptBody } from '../types';

/** The documented redirect after the plan-gate toast: one second. */
const PLAN_REDIRECT_MS = 1_000;

/** AI prompts (/prompts, docs/ai.md): the list, live; the dialog; the tokens spent and the monthly cap. */
export default function PromptsPage() {
  const { t } = useTranslation('ai');
  const navigate = useNavigate();
  const plan = usePlan();
  const allowed = usePermission('drawer-admin-items:view');
  const planDenied = plan !== undefined && !plan.useOpenAi;
  useEffect(() => {
    if (!planDenied) return;
    toast.error(t('planDenied'), 'top-center');
    const timer = setTimeout(() => navigate('/'), PLAN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [planDenied, navigate, t]);
  if (planDenied) return null;
  if (!allowed)
    return <Result status="403" icon={<StopOutlined />} title={t('denied.title')} subTitle={t('denied.description')} />;
  return (
    <Flex vertical gap={16}>
      <Prompts />
      <UsageCard />
    </Flex>
  );
}

const voiceLabel = (voice: string, texto: string) => (voice === 'texto' ? texto : voice.replace(/^pt-BR-|Neural$/g, ''));

function Prompts() {
  const { t } = useTranslation('ai');
  const narrow = useNarrowScreen();
  const { data, isLoading, error } = useAiPromptsQuery();
  const [remove] = useDeleteAiPromptMutation();
  const [editing, setEditing] = useState<{ open: boolean; prompt: Prompt | null }>({ open: false, prompt: null });
  useEffect(() => {
    if (error) showError(error);
  }, [error]);
  const actions = (prompt: Prompt) => (
    <Space size={2}>
      <Tooltip title={t('actions.edit')}>
        <Button
          type="text"
          icon={<EditOutlined />}
          aria-label={t('actions.edit')}
          onClick={() => setEditing({ open: true, prompt })}
        />
      </Tooltip>
      <Popconfirm
        title={t('actions.confirmDelete')}
        okText={t('actions.delete')}
        cancelText={t('actions.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={async () => {
          try {
            await remove(prompt.id).unwrap();
            toast.success(t('toasts.deleted'));
          } catch (failure) {
            showError(failure);
          }
        }}
      >
        <Tooltip title={t('actions.delete')}>
          <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('actions.delete')} />
        </Tooltip>
      </Popconfirm>
    </Space>
  );
  const columns: ColumnsType<Prompt> = [
    { key: 'name', title: t('columns.name'), dataIndex: 'name' },
    { key: 'queue', title: t('columns.queue'), render: (_v, row) => row.queue?.name ?? '' },
    { key: 'voice', title: t('columns.voice'), render: (_v, row) => voiceLabel(row.voice, t('voices.texto')) },
    { key: 'maxTokens', title: t('columns.maxTokens'), dataIndex: 'maxTokens', width: 120 },
    { key: 'actions', title: t('columns.actions'), align: 'center', width: 120, render: (_v, row) => actions(row) },
  ];
  const rows = data?.prompts ?? [];
  const empty = <Empty description={t('empty')} />;
  return (
    <Card>
      <Flex wrap gap={8} align="center" justify="space-between" style={{ marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('title')}
        </Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true, prompt: null })}>
          {t('add')}
        </Button>
      </Flex>
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : narrow ? (
        <List<Prompt>
          dataSource={rows}
          locale={{ emptyText: empty }}
          renderItem={(row) => (
            <List.Item actions={[actions(row)]}>
              <List.Item.Meta
                title={row.name}
                description={`${row.queue?.name ?? ''} · ${voiceLabel(row.voice, t('voices.texto'))}`}
              />
            </List.Item>
          )}
        />
      ) : (
        <Table<Prompt>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: empty }}
        />
      )}
      <PromptDialog open={editing.open} prompt={editing.prompt} onClose={() => setEditing({ open: false, prompt: null })} />
    </Card>
  );
}

const EMPTY: PromptBody = {
  name: '',
  prompt: '',
  queueId: null,
  voice: PROMPT_DEFAULTS.voice,
  apiKey: '',
  voiceKey: '',
  voiceRegion: '',
  maxTokens: PROMPT_DEFAULTS.maxTokens,
  temperature: PROMPT_DEFAULTS.temperature,
  maxMessages: PROMPT_DEFAULTS.maxMessages,
  baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4o-mini',
};

function PromptDialog({ open, prompt, onClose }: { open: boolean; prompt: Prompt | null; onClose(): void }) {
  const { t } = useTranslation('ai');
  const [form] = Form.useForm<PromptBody>();
  const { data: queues } = useAiQueuesQuery(undefined, { skip: !open });
  const [create, creating] = useCreateAiPromptMutation();
  const [update, updating] = useUpdateAiPromptMutation();
  const voice = Form.useWatch('voice', form) ?? 'texto';
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(prompt ? { ...EMPTY, ...prompt, apiKey: '', voiceKey: '' } : EMPTY);
  }, [open, prompt, form]);
  const required = { required: true, message: t('validation.required') };
  const save = async () => {
    const values = { ...EMPTY, ...(await form.validateFields()) };
    try {
      if (prompt) await update({ id: prompt.id, body: values }).unwrap();
      else await create(values).unwrap();
      toast.success(t('toasts.saved'));
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };
  return (
    <Modal
      open={open}
      title={prompt ? prompt.name : t('add')}
      onCancel={onClose}
      onOk={save}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      confirmLoading={creating.isLoading || updating.isLoading}
      destroyOnHidden
      width={640}
    >
      <Form form={form} layout="vertical" initialValues={EMPTY}>
        <Form.Item name="name" label={t('fields.name')} rules={[required, { max: 100 }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item
          name="apiKey"
          label={t('fields.apiKey')}
          rules={prompt ? [] : [required]}
          extra={prompt ? t('help.apiKeyKept', { masked: prompt.apiKey }) : undefined}
        >
          <Input.Password autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="prompt"
          label={t('fields.prompt')}
          rules={[required]}
          extra={t('help.marker', { marker: HANDOVER_MARKER })}
        >
          <Input.TextArea rows={6} maxLength={20_000} />
        </Form.Item>
        <Form.Item name="queueId" label={t('fields.queue')} rules={[{ required: true, message: t('validation.queue') }]}>
          <Select options={(queues ?? []).map((queue) => ({ value: queue.id, label: queue.name }))} />
        </Form.Item>
        <Flex wrap gap={12}>
          <Form.Item name="baseUrl" label={t('fields.baseUrl')} rules={[required]} style={{ flex: '1 1 280px' }}>
            <Input />
          </Form.Item>
          <Form.Item name="model" label={t('fields.model')} rules={[required]} style={{ flex: '1 1 160px' }}>
            <Input />
          </Form.Item>
        </Flex>
        <Flex wrap gap={12}>
          <Form.Item name="maxTokens" label={t('fields.maxTokens')} style={{ flex: '1 1 180px' }}>
            <InputNumber min={1} max={4096} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="maxMessages" label={t('fields.maxMessages')} style={{ flex: '1 1 180px' }}>
            <InputNumber min={1} max={50} style={{ width: '100%' }} />
          </Form.Item>
        </Flex>
        <Form.Item name="temperature" label={t('fields.temperature')}>
          <Slider min={0} max={2} step={0.1} />
        </Form.Item>
        <Form.Item name="voice" label={t('fields.voice')}>
          <Select options={VOICES.map((value) => ({ value, label: voiceLabel(value, t('voices.texto')) }))} />
        </Form.Item>
        {voice !== 'texto' ? (
          <Flex wrap gap={12}>
            <Form.Item name="voiceKey" label={t('fields.voiceKey')} style={{ flex: '1 1 240px' }}>
              <Input.Password autoComplete="off" />
            </Form.Item>
            <Form.Item name="voiceRegion" label={t('fields.voiceRegion')} style={{ flex: '1 1 160px' }}>
              <Input />
            </Form.Item>
          </Flex>
        ) : null}
      </Form>
    </Modal>
  );
}

function UsageCard() {
  const { t } = useTranslation('ai');
  const { data, isLoading, isError, isFetching, refetch } = useAiUsageQuery();
  const { data: prompts } = useAiPromptsQuery();
  const [saveCap, saving] = useSetAiTokenCapMutation();
  const [cap, setCap] = useState<number | null>(null);
  useEffect(() => setCap(data?.monthlyTokenCap ?? null), [data?.monthlyTokenCap]);
  const names = useMemo(() => new Map((prompts?.prompts ?? []).map((prompt) => [prompt.id, prompt.name])), [prompts]);
  // a failed request ends in a way out, not in a skeleton that never goes away
  if (isError && !data)
    return (
      <Card title={t('usage.title')}>
        <Result
          status="warning"
          title={t('usage.loadFailed')}
          extra={
            <Button onClick={() => void refetch()} loading={isFetching}>
              {t('usage.retry')}
            </Button>
          }
        />
      </Card>
    );
  if (isLoading || !data)
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 3 }} />
      </Card>
    );
  const used = data.month.tokensIn + data.month.tokensOut;
  return (
    <Card title={t('usage.title')}>
      <Flex wrap gap={24} align="end" style={{ marginBottom: 16 }}>
        <Statistic
          title={t('usage.month', { used: used.toLocaleString() })}
          value={used}
          suffix={data.monthlyTokenCap === null ? '' : `/ ${data.monthlyTokenCap.toLocaleString()}`}
        />
        <Form layout="vertical" style={{ flex: '1 1 260px' }}>
          <Form.Item label={t('usage.cap')} extra={t('usage.capHelp')} style={{ marginBottom: 0 }}>
            <Space.Compact style={{ width: '100%' }}>
              <InputNumber
                min={0}
                value={cap}
                onChange={(value) => setCap(value ?? null)}
                style={{ width: '100%' }}
                aria-label={t('usage.cap')}
              />
              <Button
                loading={saving.isLoading}
                onClick={async () => {
                  try {
                    await saveCap(cap).unwrap();
                    toast.success(t('toasts.capSaved'));
                  } catch (failure) {
                    showError(failure);
                  }
                }}
              >
                {t('usage.saveCap')}
              </Button>
            </Space.Compact>
          </Form.Item>
        </Form>
      </Flex>
      <Table
        rowKey={(row) => `${row.day}-${row.promptId}`}
        size="small"
        dataSource={[...data.days].reverse()}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('usage.empty')} /> }}
        columns={[
          { key: 'day', title: t('usage.day'), dataIndex: 'day' },
          {
            key: 'prompt',
            title: t('usage.prompt'),
            render: (_v, row) => names.get(row.promptId) ?? `#${row.promptId} ${t('usage.deleted')}`,
          },
          { key: 'in', title: t('usage.tokensIn'), dataIndex: 'tokensIn', align: 'right' },
          { key: 'out', title: t('usage.tokensOut'), dataIndex: 'tokensOut', align: 'right' },
        ]}
      />
    </Card>
  );
}
