import { hoursValid, ServiceHoursEditor, showError, skipToken, toast, usePlan, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, ColorPicker, Form, Input, InputNumber, Modal, Select, Skeleton, Switch, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { defaultSchedules, ROTATION_MINUTES } from '../../shared/queues';
import { useListCompanySettingsQuery } from '../team/api';
import {
  type AdminQueueShape,
  type OptionDraft,
  type QueueBody,
  type ServiceHours,
  useCreateAdminQueueMutation,
  useGetAdminQueueQuery,
  useListAdminQueuesQuery,
  useListQueueIntegrationOptionsQuery,
  useListQueueUserOptionsQuery,
  useUpdateAdminQueueMutation,
} from './api';
import { ChatbotTreeEditor } from './components/ChatbotTreeEditor';
import { draftsOf, treeBody, treeValid } from './option-tree';

/** docs/product/administration.md#constants-and-limits: queues and tags start grey. */
export const DEFAULT_QUEUE_COLOR = '#7C7C7C';

/** The dialog's own fields (the tree is kept apart). */
type QueueFields = Omit<QueueBody, 'chatbots'>;

function fieldsOf(queue: AdminQueueShape | undefined): QueueFields {
  return {
    name: queue?.name ?? '',
    color: queue?.color ?? DEFAULT_QUEUE_COLOR,
    greetingMessage: queue?.greetingMessage ?? '',
    outOfHoursMessage: queue?.outOfHoursMessage ?? '',
    orderQueue: queue?.orderQueue ?? null,
    tempoRoteador: queue?.tempoRoteador ?? 0,
    ativarRoteador: queue?.ativarRoteador ?? false,
    closeTicket: queue?.closeTicket ?? false,
    integrationId: queue?.integrationId ?? null,
    schedules: queue?.schedules ?? defaultSchedules(),
  };
}

/** What is wrong with the fields (i18n keys of `queues.form.errors`), by field. */
export function fieldProblems(fields: QueueFields, scheduleType: string | undefined): Partial<Record<keyof QueueFields, string>> {
  const problems: Partial<Record<keyof QueueFields, string>> = {};
  const name = fields.name.trim();
  if (name === '') problems.name = 'required';
  else if (name.length < 2) problems.name = 'tooShort';
  else if (name.length > 50) problems.name = 'tooLong';
  if (fields.color.length < 3 || fields.color.length > 9) problems.color = 'required';
  if (scheduleType === 'queue' && fields.outOfHoursMessage.trim() === '') problems.outOfHoursMessage = 'outOfHoursRequired';
  return problems;
}

/**
 * The queue dialog (docs/product/administration.md#queues): the queue's data with its chatbot option tree, and a
 * schedule tab when the company's scheduleType is queue. New queues start grey with the default hours.
 */
export function QueueDialog({ open, queueId, onClose }: { open: boolean; queueId: number | null; onClose(): void }) {
  const { t } = useTranslation('admin');
  const { data: queue, isFetching } = useGetAdminQueueQuery(open && queueId !== null ? queueId : skipToken, {
    refetchOnMountOrArgChange: true,
  });
  const { data: settings } = useListCompanySettingsQuery(open ? undefined : skipToken);
  const { data: queues = [] } = useListAdminQueuesQuery(open ? undefined : skipToken);
  const { data: users = [] } = useListQueueUserOptionsQuery(open ? undefined : skipToken);
  const integrationsOn = usePlan()?.useIntegrations === true;
  const { data: integrations } = useListQueueIntegrationOptionsQuery(open && integrationsOn ? undefined : skipToken);
  const [createQueue, creating] = useCreateAdminQueueMutation();
  const [updateQueue, updating] = useUpdateAdminQueueMutation();
  const [fields, setFields] = useState<QueueFields>(fieldsOf(undefined));
  const [tree, setTree] = useState<OptionDraft[]>([]);
  const [touched, setTouched] = useState(false);
  const loading = queueId !== null && (isFetching || !queue);

  useEffect(() => {
    if (!open) return;
    const source = queueId === null ? undefined : queue;
    setFields(fieldsOf(source));
    setTree(draftsOf(source?.chatbots ?? []));
    setTouched(false);
  }, [open, queueId, queue]);

  const scheduleType = settings?.scheduleType;
  const problems = fieldProblems(fields, scheduleType);
  const valid = Object.keys(problems).length === 0 && treeValid(tree) && hoursValid(fields.schedules);
  const set = (patch: Partial<QueueFields>) => setFields((current) => ({ ...current, ...patch }));
  const error = (field: keyof QueueFields) =>
    touched && problems[field] ? { validateStatus: 'error' as const, help: t(`queues.form.errors.${problems[field]}`) } : {};

  const save = async () => {
    setTouched(true);
    if (!valid) return;
    const body: QueueBody = { ...fields, name: fields.name.trim(), chatbots: treeBody(tree) };
    try {
      if (queueId === null) await createQueue(body).unwrap();
      else await updateQueue({ id: queueId, ...body }).unwrap();
      toast.success(t('queues.toasts.saved'));
      if (tree.length > 0) toast.success(t('queues.toasts.botSaved'));
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };

  const dataTab = (
    <Form layout="vertical" requiredMark>
      <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
        <Form.Item label={t('queues.form.name')} htmlFor="queue-name" required style={{ flex: '2 1 220px' }} {...error('name')}>
          <Input id="queue-name" value={fields.name} maxLength={50} onChange={(event) => set({ name: event.target.value })} />
        </Form.Item>
        <Form.Item label={t('queues.form.color')} required style={{ flex: '0 0 auto' }} {...error('color')}>
          <ColorPicker
            format="hex"
            showText
            disabledAlpha
            value={fields.color}
            onChangeComplete={(color) => set({ color: color.toHexString().toUpperCase() })}
          />
        </Form.Item>
        <Form.Item label={t('queues.form.order')} style={{ flex: '0 0 120px' }}>
          <InputNumber
            min={0}
            max={9999}
            precision={0}
            value={fields.orderQueue}
            onChange={(orderQueue) => set({ orderQueue: orderQueue ?? null })}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </div>
      <Form.Item label={t('queues.form.greeting')} htmlFor="queue-greeting">
        <Input.TextArea
          id="queue-greeting"
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={10_000}
          value={fields.greetingMessage}
          onChange={(event) => set({ greetingMessage: event.target.value })}
        />
      </Form.Item>
      <Form.Item
        label={t('queues.form.outOfHours')}
        htmlFor="queue-out-of-hours"
        required={scheduleType === 'queue'}
        {...error('outOfHoursMessage')}
      >
        <Input.TextArea
          id="queue-out-of-hours"
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={10_000}
          value={fields.outOfHoursMessage}
          onChange={(event) => set({ outOfHoursMessage: event.target.value })}
        />
      </Form.Item>
      <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
        <Form.Item label={t('queues.form.rotation')}>
          <Switch checked={fields.ativarRoteador} onChange={(ativarRoteador) => set({ ativarRoteador })} />
        </Form.Item>
        <Form.Item label={t('queues.form.rotationTime')} style={{ minWidth: 180 }}>
          <Select
            value={fields.tempoRoteador}
            disabled={!fields.ativarRoteador}
            onChange={(tempoRoteador) => set({ tempoRoteador })}
            options={ROTATION_MINUTES.map((minutes) => ({
              value: minutes,
              label: minutes === 0 ? t('queues.form.rotationNone') : t('queues.form.minutes', { count: minutes }),
            }))}
          />
        </Form.Item>
        <Form.Item label={t('queues.form.closeTicket')} tooltip={t('queues.form.closeTicketHelp')}>
          <Switch checked={fields.closeTicket} onChange={(closeTicket) => set({ closeTicket })} />
        </Form.Item>
      </div>
      {integrations ? (
        <Form.Item label={t('queues.form.integration')} htmlFor="queue-integration" tooltip={t('queues.form.integrationHelp')}>
          <Select
            id="queue-integration"
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t('queues.form.integrationNone')}
            value={fields.integrationId ?? undefined}
            options={integrations.map((integration) => ({ value: integration.id, label: integration.name }))}
            onChange={(integrationId: number | undefined) => set({ integrationId: integrationId ?? null })}
          />
        </Form.Item>
      ) : null}
      <Form.Item label={t('queues.form.chatbot')}>
        <ChatbotTreeEditor
          value={tree}
          onChange={setTree}
          queues={queues.filter((row) => row.id !== queueId)}
          users={users}
          integrations={integrations ?? null}
        />
      </Form.Item>
    </Form>
  );

  const tabs = [{ key: 'data', label: t('queues.form.dataTab'), children: dataTab }];
  if (scheduleType === 'queue') {
    tabs.push({
      key: 'schedules',
      label: t('queues.form.schedulesTab'),
      children: <ServiceHoursEditor value={fields.schedules} onChange={(schedules: ServiceHours[]) => set({ schedules })} />,
    });
  }

  return (
    <Modal
      open={open}
      title={t(queueId === null ? 'queues.form.addTitle' : 'queues.form.editTitle')}
      onCancel={onClose}
      onOk={save}
      okText={t('queues.form.save')}
      cancelText={t('queues.form.cancel')}
      okButtonProps={{ loading: creating.isLoading || updating.isLoading, disabled: loading }}
      width={760}
      destroyOnHidden
    >
      {loading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <>
          {touched && !valid ? (
            <Alert type="error" showIcon message={t('queues.form.fixErrors')} style={{ marginBottom: 12 }} />
          ) : null}
          <Tabs items={tabs} />
        </>
      )}
    </Modal>
  );
}
