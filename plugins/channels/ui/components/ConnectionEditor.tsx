import { DeleteOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import { ServiceHoursEditor, showError, skipToken, toast, usePlan, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import {
  Alert,
  Button,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Skeleton,
  Switch,
  Tabs,
  Typography,
  Upload,
} from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import {
  useCreateConnectionMutation,
  useDeleteGreetingMediaMutation,
  useGetConnectionQuery,
  useListIntegrationOptionsQuery,
  useListQueueOptionsQuery,
  useRegenerateConnectionTokenMutation,
  useUpdateConnectionMutation,
  useUploadGreetingMediaMutation,
} from '../api';
import {
  type ConnectionFields,
  FIELD_TABS,
  type FieldProblems,
  fieldProblems,
  fieldsOf,
  webchatBody,
  webchatOf,
} from '../editor-rules';
import type { ConnectionBody, ConnectionChannel, WebchatChannelConfig } from '../types';
import { ChannelIcon } from './ChannelIcon';
import { WidgetTab } from './WidgetTab';

/** Props of the connection editor. */
export interface ConnectionEditorProps {
  open: boolean;
  /** The connection to edit; null adds one of `channel`. */
  connectionId: number | null;
  /** The channel of a new connection. */
  channel: string;
  /**
   * Another company than the session's (the super user in All connections): its queues are offered and a
   * new connection is added to it. Its settings (scheduleType, userRating) are checked by the server.
   */
  companyId?: number;
  onClose(): void;
}

/** Greeting media: the documented image or video. */
const MEDIA_ACCEPT = 'image/*,video/*';

/**
 * The connection editor (docs/product/administration.md#connection-editor dialog): tabs general, messages, chatbot,
 * assessments, schedules (when the company's scheduleType is connection) and, for webchat, the widget. The
 * integrations and default-flow tabs are not shown: no installed feature provides integrations or flows.
 * Times are minutes.
 * The rules of docs/product/administration.md#validation are checked before saving; the server's codes come back as translated toasts.
 */
export function ConnectionEditor({ open, connectionId, channel, companyId, onClose }: ConnectionEditorProps) {
  const { t } = useTranslation('channels');
  const editing = connectionId !== null;
  const { data: connection, isFetching: fetching } = useGetConnectionQuery(open && editing ? connectionId : skipToken, {
    refetchOnMountOrArgChange: true,
  });
  // the session carries the company's settings (docs/product/tickets-and-inbox.md#entities), kept current by the core: no admin-only read
  const settings = useSession()?.company.companieSettings;
  const setting = (key: string) => settings?.find((pair) => pair.key === key)?.value;
  const { data: queues = [] } = useListQueueOptionsQuery(open ? companyId : skipToken);
  // the integrations tab: the company's own queue integrations (the flow builder's), with useIntegrations only
  const integrationsOn = usePlan()?.useIntegrations === true && companyId === undefined;
  const [integrationSearch, setIntegrationSearch] = useState('');
  const integrations = useListIntegrationOptionsQuery(open && integrationsOn ? integrationSearch : skipToken);
  const [createConnection, creating] = useCreateConnectionMutation();
  const [updateConnection, updating] = useUpdateConnectionMutation();
  const [uploadMedia] = useUploadGreetingMediaMutation();
  const [deleteMedia, deletingMedia] = useDeleteGreetingMediaMutation();
  const [regenerateToken, regenerating] = useRegenerateConnectionTokenMutation();

  const [fields, setFields] = useState<ConnectionFields>(fieldsOf(undefined));
  const [widget, setWidget] = useState<WebchatChannelConfig>(webchatOf(undefined));
  // WhatsApp Cloud API: the number's ids and the system-user token (write-only: the server never answers it)
  const [cloud, setCloud] = useState({ phoneNumberId: '', businessAccountId: '', token: '', hasToken: false });
  const [media, setMedia] = useState<File | null>(null);
  const [touched, setTouched] = useState(false);
  const [activeTab, setActiveTab] = useState('general');
  const connectionChannel = connection?.channel ?? channel;
  const isWebchat = connectionChannel === 'webchat';
  const isCloud = connectionChannel === 'whatsappapi';

  // The form is filled once per opening, from fresh data: a later refetch (after regenerating the token or a
  // widget secret) must not throw away what the user is typing.
  const [filledFor, setFilledFor] = useState<number | 'new' | null>(null);
  useEffect(() => {
    if (!open) {
      setFilledFor(null);
      return;
    }
    const key = connectionId ?? 'new';
    if (filledFor === key || (editing && (fetching || !connection))) return;
    setFilledFor(key);
    const source = editing ? connection : undefined;
    setFields(fieldsOf(source));
    setWidget(webchatOf(source?.channelConfig));
    const config = (source?.channelConfig ?? {}) as Record<string, unknown>;
    setCloud({
      phoneNumberId: String(config.phoneNumberId ?? ''),
      businessAccountId: String(config.businessAccountId ?? ''),
      token: '',
      hasToken: config.hasToken === true,
    });
    setMedia(null);
    setTouched(false);
    setActiveTab('general');
  }, [open, editing, connection, connectionId, fetching, filledFor]);
  const loading = filledFor !== (connectionId ?? 'new');

  const userRating = setting('userRating') === 'enabled';
  const schedulesPerConnection = setting('scheduleType') === 'connection';
  const context = useMemo(
    () => ({ userRating, schedulesPerConnection, webchat: isWebchat }),
    [userRating, schedulesPerConnection, isWebchat],
  );
  const problems: FieldProblems = fieldProblems(fields, context, widget);
  const valid = Object.keys(problems).length === 0;
  const set = (patch: Partial<ConnectionFields>) => setFields((current) => ({ ...current, ...patch }));
  const problemOf = (field: keyof FieldProblems) =>
    touched && problems[field] ? { validateStatus: 'error' as const, help: t(problems[field] as string) } : {};

  const body = (): ConnectionBody => ({
    ...fields,
    name: fields.name.trim(),
    ...(editing ? {} : { channel: channel as ConnectionChannel }),
    ...(isWebchat ? { channelConfig: webchatBody(widget) } : {}),
    ...(isCloud
      ? {
          channelConfig: {
            phoneNumberId: cloud.phoneNumberId.trim(),
            businessAccountId: cloud.businessAccountId.trim(),
            ...(cloud.token.trim() ? { token: cloud.token.trim() } : {}),
          },
        }
      : {}),
  });

  const save = async () => {
    setTouched(true);
    if (!valid) {
      const first = Object.keys(problems)[0] as keyof FieldProblems;
      setActiveTab(FIELD_TABS[first]);
      return;
    }
    try {
      const saved = editing
        ? await updateConnection({ id: connectionId, body: body() }).unwrap()
        : await createConnection({ ...body(), ...(companyId === undefined ? {} : { companyId }) }).unwrap();
      if (media) await uploadMedia({ id: saved.id, file: media }).unwrap();
      toast.success(t('toasts.saved'));
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };

  const regenerateWidgetSecret = async (name: 'widgetKey' | 'identitySecret') => {
    if (connectionId === null) return;
    try {
      const saved = await updateConnection({ id: connectionId, body: { channelConfig: webchatBody(widget, [name]) } }).unwrap();
      setWidget((current) => ({ ...current, [name]: webchatOf(saved.channelConfig)[name] }));
      toast.success(t('toasts.regenerated'));
    } catch (failure) {
      showError(failure);
    }
  };

  const tabTitle = (key: string, label: string) => {
    const flagged = touched && Object.entries(problems).some(([field]) => FIELD_TABS[field as keyof FieldProblems] === key);
    return flagged ? <Typography.Text type="danger">{label} •</Typography.Text> : label;
  };

  const minutesInput = (field: keyof ConnectionFields, label: string, help?: string) => (
    <Form.Item label={label} htmlFor={`connection-${field}`} tooltip={help} style={{ flex: '1 1 200px' }} {...problemOf(field)}>
      <InputNumber
        id={`connection-${field}`}
        min={0}
        max={525_600}
        precision={0}
        suffix={t('form.minutes')}
        value={fields[field] as number}
        onChange={(value) => set({ [field]: value ?? 0 } as Partial<ConnectionFields>)}
        style={{ width: '100%' }}
      />
    </Form.Item>
  );

  const textArea = (field: keyof ConnectionFields, label: string, extra?: { required?: boolean; help?: string }) => (
    <Form.Item
      label={label}
      htmlFor={`connection-${field}`}
      required={extra?.required}
      tooltip={extra?.help}
      {...problemOf(field)}
    >
      <Input.TextArea
        id={`connection-${field}`}
        autoSize={{ minRows: 2, maxRows: 6 }}
        maxLength={10_000}
        value={fields[field] as string}
        onChange={(event) => set({ [field]: event.target.value } as Partial<ConnectionFields>)}
      />
    </Form.Item>
  );

  const row = (children: ReactNode) => (
    <Flex gap={12} wrap>
      {children}
    </Flex>
  );

  const queueOptions = queues.map((queue) => ({ value: queue.id, label: queue.name }));
  const currentMedia = connection?.greetingMediaAttachment ?? null;

  const general = (
    <>
      <Form.Item label={t('form.name')} htmlFor="connection-name" required {...problemOf('name')}>
        <Input id="connection-name" value={fields.name} maxLength={50} onChange={(event) => set({ name: event.target.value })} />
      </Form.Item>
      {isCloud ? (
        <>
          <Form.Item label={t('cloud.phoneNumberId')} htmlFor="connection-phoneNumberId" required>
            <Input
              id="connection-phoneNumberId"
              inputMode="numeric"
              maxLength={32}
              value={cloud.phoneNumberId}
              onChange={(event) => setCloud((current) => ({ ...current, phoneNumberId: event.target.value }))}
            />
          </Form.Item>
          <Form.Item label={t('cloud.businessAccountId')} htmlFor="connection-businessAccountId" required>
            <Input
              id="connection-businessAccountId"
              inputMode="numeric"
              maxLength={32}
              value={cloud.businessAccountId}
              onChange={(event) => setCloud((current) => ({ ...current, businessAccountId: event.target.value }))}
            />
          </Form.Item>
          <Form.Item
            label={t('cloud.token')}
            htmlFor="connection-cloudToken"
            required={!cloud.hasToken}
            extra={cloud.hasToken ? t('cloud.tokenKept') : t('cloud.tokenHelp')}
          >
            <Input.Password
              id="connection-cloudToken"
              autoComplete="off"
              maxLength={1024}
              value={cloud.token}
              onChange={(event) => setCloud((current) => ({ ...current, token: event.target.value }))}
            />
          </Form.Item>
        </>
      ) : null}
      {row(
        <>
          <Form.Item label={t('form.isDefault')} style={{ flex: '1 1 140px' }}>
            <Switch aria-label={t('form.isDefault')} checked={fields.isDefault} onChange={(isDefault) => set({ isDefault })} />
          </Form.Item>
          {isWebchat ? null : (
            <>
              <Form.Item label={t('form.allowGroup')} style={{ flex: '1 1 140px' }}>
                <Switch
                  aria-label={t('form.allowGroup')}
                  checked={fields.allowGroup}
                  onChange={(allowGroup) => set({ allowGroup })}
                />
              </Form.Item>
              <Form.Item label={t('form.groupAsTicket')} style={{ flex: '1 1 180px' }}>
                <Select
                  aria-label={t('form.groupAsTicket')}
                  value={fields.groupAsTicket}
                  onChange={(groupAsTicket) => set({ groupAsTicket })}
                  options={[
                    { value: 'disabled', label: t('form.disabled') },
                    { value: 'enabled', label: t('form.enabled') },
                  ]}
                />
              </Form.Item>
            </>
          )}
        </>,
      )}
      <Form.Item label={t('form.queues')} tooltip={t('form.queuesHelp')}>
        <Select
          mode="multiple"
          aria-label={t('form.queues')}
          allowClear
          value={fields.queueIds}
          onChange={(queueIds) => set({ queueIds })}
          options={queueOptions}
          optionFilterProp="label"
          placeholder={t('form.allQueues')}
        />
      </Form.Item>
      {editing && connection ? (
        <Form.Item label={t('form.token')} tooltip={t('form.tokenHelp')}>
          <Flex gap={8} align="center" wrap>
            <Typography.Text
              code
              copyable={{ text: connection.token, tooltips: [t('form.copy'), t('form.copied')] }}
              data-testid="connection-token"
            >
              {connection.token}
            </Typography.Text>
            <Popconfirm
              title={t('confirm.regenerateTitle')}
              description={t('confirm.regenerateToken')}
              okText={t('confirm.yes')}
              cancelText={t('confirm.no')}
              onConfirm={async () => {
                try {
                  await regenerateToken(connection.id).unwrap();
                  toast.success(t('toasts.regenerated'));
                } catch (failure) {
                  showError(failure);
                }
              }}
            >
              <Button size="small" icon={<ReloadOutlined />} loading={regenerating.isLoading}>
                {t('form.regenerate')}
              </Button>
            </Popconfirm>
          </Flex>
        </Form.Item>
      ) : null}
      <Form.Item label={t('form.greetingMedia')} tooltip={t('form.greetingMediaHelp')}>
        <Flex gap={8} align="center" wrap>
          {currentMedia && !media ? (
            <>
              {connection?.greetingMediaUrl ? (
                <Typography.Link href={connection.greetingMediaUrl} target="_blank" rel="noreferrer">
                  {currentMedia}
                </Typography.Link>
              ) : (
                <Typography.Text>{currentMedia}</Typography.Text>
              )}
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                loading={deletingMedia.isLoading}
                onClick={async () => {
                  try {
                    if (connection) await deleteMedia(connection.id).unwrap();
                  } catch (failure) {
                    showError(failure);
                  }
                }}
              >
                {t('form.removeMedia')}
              </Button>
            </>
          ) : null}
          {media ? (
            <>
              <Typography.Text>{media.name}</Typography.Text>
              <Button
                size="small"
                type="text"
                icon={<DeleteOutlined />}
                aria-label={t('form.removeMedia')}
                onClick={() => setMedia(null)}
              />
            </>
          ) : null}
          <Upload
            accept={MEDIA_ACCEPT}
            showUploadList={false}
            beforeUpload={(file) => {
              if (!/^(image|video)\//.test(file.type)) {
                toast.error(t('form.mediaType'));
                return Upload.LIST_IGNORE;
              }
              setMedia(file);
              return false;
            }}
          >
            <Button size="small" icon={<UploadOutlined />}>
              {t('form.chooseMedia')}
            </Button>
          </Upload>
        </Flex>
      </Form.Item>
    </>
  );

  const messages = (
    <>
      {textArea('greetingMessage', t('form.greetingMessage'))}
      {textArea('complationMessage', t('form.complationMessage'))}
      {textArea('outOfHoursMessage', t('form.outOfHoursMessage'))}
      {textArea('collectiveVacationMessage', t('form.collectiveVacationMessage'))}
      {row(
        <>
          <Form.Item
            label={t('form.collectiveVacationStart')}
            htmlFor="connection-vacation-start"
            style={{ flex: '1 1 180px' }}
            required={fields.collectiveVacationMessage.trim() !== ''}
            {...problemOf('collectiveVacationStart')}
          >
            <Input
              id="connection-vacation-start"
              type="date"
              value={fields.collectiveVacationStart ?? ''}
              onChange={(event) => set({ collectiveVacationStart: event.target.value || null })}
            />
          </Form.Item>
          <Form.Item
            label={t('form.collectiveVacationEnd')}
            htmlFor="connection-vacation-end"
            style={{ flex: '1 1 180px' }}
            required={fields.collectiveVacationMessage.trim() !== ''}
            {...problemOf('collectiveVacationEnd')}
          >
            <Input
              id="connection-vacation-end"
              type="date"
              value={fields.collectiveVacationEnd ?? ''}
              onChange={(event) => set({ collectiveVacationEnd: event.target.value || null })}
            />
          </Form.Item>
        </>,
      )}
      {textArea('lgpdMessage', t('form.lgpdMessage'), { help: t('form.lgpdMessageHelp') })}
    </>
  );

  const chatbot = (
    <>
      {row(
        <>
          <Form.Item label={t('form.maxUseBotQueues')} htmlFor="connection-maxUseBotQueues" style={{ flex: '1 1 200px' }}>
            <InputNumber
              id="connection-maxUseBotQueues"
              min={0}
              max={100}
              precision={0}
              value={fields.maxUseBotQueues}
              onChange={(value) => set({ maxUseBotQueues: value ?? 0 })}
              style={{ width: '100%' }}
            />
          </Form.Item>
          {minutesInput('timeUseBotQueues', t('form.timeUseBotQueues'), t('form.timeUseBotQueuesHelp'))}
        </>,
      )}
      {row(
        <>
          {minutesInput('timeSendQueue', t('form.timeSendQueue'))}
          <Form.Item
            label={t('form.sendIdQueue')}
            htmlFor="connection-sendIdQueue"
            style={{ flex: '1 1 200px' }}
            {...problemOf('sendIdQueue')}
          >
            <Select
              id="connection-sendIdQueue"
              aria-label={t('form.sendIdQueue')}
              allowClear
              value={fields.sendIdQueue ?? undefined}
              onChange={(value) => set({ sendIdQueue: value ?? null })}
              options={queueOptions}
            />
          </Form.Item>
        </>,
      )}
      {row(minutesInput('timeCreateNewTicket', t('form.timeCreateNewTicket'), t('form.timeCreateNewTicketHelp')))}
      {row(minutesInput('timeInactiveMessage', t('form.timeInactiveMessage')))}
      {textArea('inactiveMessage', t('form.inactiveMessage'))}
      {row(
        <>
          {minutesInput('expiresTicket', t('form.expiresTicket'))}
          <Form.Item label={t('form.whenExpiresTicket')} style={{ flex: '1 1 200px' }}>
            <Select
              aria-label={t('form.whenExpiresTicket')}
              value={fields.whenExpiresTicket}
              onChange={(whenExpiresTicket) => set({ whenExpiresTicket })}
              options={[
                { value: 0, label: t('form.whenExpires0') },
                { value: 1, label: t('form.whenExpires1') },
              ]}
            />
          </Form.Item>
        </>,
      )}
      {textArea('expiresInactiveMessage', t('form.expiresInactiveMessage'))}
    </>
  );

  const assessments = (
    <>
      <Alert type="info" showIcon title={t(context.userRating ? 'form.npsOn' : 'form.npsOff')} style={{ marginBottom: 12 }} />
      {textArea('ratingMessage', t('form.ratingMessage'), { required: context.userRating, help: t('form.ratingMessageHelp') })}
      {row(
        <>
          <Form.Item label={t('form.maxUseBotQueuesNPS')} htmlFor="connection-maxUseBotQueuesNPS" style={{ flex: '1 1 200px' }}>
            <InputNumber
              id="connection-maxUseBotQueuesNPS"
              min={0}
              max={100}
              precision={0}
              value={fields.maxUseBotQueuesNPS}
              onChange={(value) => set({ maxUseBotQueuesNPS: value ?? 0 })}
              style={{ width: '100%' }}
            />
          </Form.Item>
          {minutesInput('expiresTicketNPS', t('form.expiresTicketNPS'))}
        </>,
      )}
    </>
  );

  const tabs = [
    { key: 'general', label: tabTitle('general', t('tabs.general')), children: general, forceRender: true },
    { key: 'messages', label: tabTitle('messages', t('tabs.messages')), children: messages, forceRender: true },
    { key: 'chatbot', label: tabTitle('chatbot', t('tabs.chatbot')), children: chatbot, forceRender: true },
    { key: 'assessments', label: tabTitle('assessments', t('tabs.assessments')), children: assessments, forceRender: true },
  ];
  if (integrationsOn) {
    tabs.push({
      key: 'integrations',
      label: tabTitle('integrations', t('tabs.integrations')),
      forceRender: false,
      children: (
        <Form.Item label={t('form.integration')} htmlFor="connection-integrationId" extra={t('form.integrationHelp')}>
          <Select
            id="connection-integrationId"
            allowClear
            showSearch
            filterOption={false}
            onSearch={setIntegrationSearch}
            loading={integrations.isFetching}
            placeholder={t('form.integrationNone')}
            value={fields.integrationId ?? undefined}
            options={[
              ...(integrations.data ?? []).map((option) => ({ value: option.id, label: option.name })),
              // the chosen one even when the search hides it
              ...(fields.integrationId !== null && !(integrations.data ?? []).some((option) => option.id === fields.integrationId)
                ? [{ value: fields.integrationId, label: `#${fields.integrationId}` }]
                : []),
            ]}
            onChange={(value: number | undefined) => set({ integrationId: value ?? null })}
          />
        </Form.Item>
      ),
    });
  }
  if (context.schedulesPerConnection) {
    tabs.push({
      key: 'schedules',
      label: tabTitle('schedules', t('tabs.schedules')),
      forceRender: false,
      children: (
        <>
          <Alert type="warning" showIcon title={t('form.rememberToSave')} style={{ marginBottom: 12 }} />
          <ServiceHoursEditor value={fields.schedules} onChange={(schedules) => set({ schedules })} />
        </>
      ),
    });
  }
  if (isWebchat) {
    tabs.push({
      key: 'widget',
      label: tabTitle('widget', t('tabs.widget')),
      forceRender: false,
      children: (
        <WidgetTab
          value={widget}
          onChange={setWidget}
          saved={editing}
          problem={touched && problems.widget ? t(problems.widget) : null}
          onRegenerate={regenerateWidgetSecret}
          regenerating={updating.isLoading}
        />
      ),
    });
  }

  return (
    <Modal
      open={open}
      title={
        <Flex gap={8} align="center">
          <ChannelIcon channel={connectionChannel} />
          {t(editing ? 'form.editTitle' : 'form.addTitle', {
            channel: t(`channelNames.${connectionChannel}`, { defaultValue: connectionChannel }),
          })}
        </Flex>
      }
      onCancel={onClose}
      onOk={save}
      okText={t('form.save')}
      cancelText={t('form.cancel')}
      okButtonProps={{ loading: creating.isLoading || updating.isLoading, disabled: loading }}
      width={820}
      destroyOnHidden
    >
      {loading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Form layout="vertical" requiredMark>
          {touched && !valid ? <Alert type="error" showIcon title={t('form.fixErrors')} style={{ marginBottom: 12 }} /> : null}
          <Tabs activeKey={activeTab} onChange={setActiveTab} items={tabs} />
        </Form>
      )}
    </Modal>
  );
}
