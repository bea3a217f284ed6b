import { DeleteOutlined, PaperClipOutlined } from '@ant-design/icons';
import { showError, skipToken, toast, useDebouncedValue, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Button, Col, Form, Input, InputNumber, Modal, Row, Select, Space, Switch, Typography, Upload } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { ANY_DAY, BUSINESS_DAYS, INTERVAL_UNITS, MAX_INTERVAL_VALUE, MAX_SENDS } from '../../shared/schedules';
import {
  useCreateScheduleMutation,
  useDeleteScheduleMediaMutation,
  useScheduleConnectionsQuery,
  useScheduleContactChoicesQuery,
  useScheduleContactQuery,
  useScheduleQueuesQuery,
  useScheduleUsersQuery,
  useUpdateScheduleMutation,
  useUploadScheduleMediaMutation,
} from '../api';
import type { Schedule, ScheduleBody } from '../types';
import { fromLocalInput, toLocalInput } from './common';

type FormValues = Omit<ScheduleBody, 'sendAt' | 'openTicket' | 'contactId'> & {
  sendAt: string;
  openTicket: boolean;
  contactId: number | null;
};

export interface ScheduleDialogProps {
  open: boolean;
  /** The schedule to edit; null to add one. */
  schedule: Schedule | null;
  /** A new schedule's contact (the calendar's `?contactId=`, the ticket view's contact). */
  contactId?: number | null;
  /** A new schedule's text (the composer's shortcut hands what was typed). */
  initialBody?: string;
  /** A new schedule's connection (the ticket's). */
  whatsappId?: number | null;
  onClose(saved?: Schedule): void;
}

/** An hour from now, on the minute: a new schedule's default time. */
function inAnHour(): string {
  const at = new Date(Date.now() + 3_600_000);
  at.setSeconds(0, 0);
  return toLocalInput(at);
}

function valuesOf(schedule: Schedule | null, props: ScheduleDialogProps): FormValues {
  if (!schedule) {
    return {
      body: props.initialBody ?? '',
      sendAt: inAnHour(),
      contactId: props.contactId ?? null,
      intervalo: INTERVAL_UNITS.days,
      valorIntervalo: 0,
      enviarQuantasVezes: 1,
      tipoDias: ANY_DAY,
      openTicket: false,
      statusTicket: 'closed',
      ticketUserId: null,
      queueId: null,
      whatsappId: props.whatsappId ?? null,
      assinar: false,
    };
  }
  return {
    body: schedule.body,
    sendAt: toLocalInput(schedule.sendAt),
    contactId: schedule.contactId,
    intervalo: schedule.intervalo,
    valorIntervalo: schedule.valorIntervalo,
    enviarQuantasVezes: schedule.enviarQuantasVezes,
    tipoDias: schedule.tipoDias,
    openTicket: schedule.openTicket === 'enabled',
    statusTicket: schedule.statusTicket,
    ticketUserId: schedule.ticketUserId,
    queueId: schedule.queueId,
    whatsappId: schedule.whatsappId,
    assinar: schedule.assinar,
  };
}

/** The schedule dialog (docs/product/automation.md#schedules): the message, when, how often, and the ticket it lands on. */
export function ScheduleDialog(props: ScheduleDialogProps) {
  const { open, schedule, onClose } = props;
  const { t } = useTranslation('schedules');
  const [form] = Form.useForm<FormValues>();
  const [create, creating] = useCreateScheduleMutation();
  const [update, updating] = useUpdateScheduleMutation();
  const [upload, uploading] = useUploadScheduleMediaMutation();
  const [removeMedia] = useDeleteScheduleMediaMutation();
  const [file, setFile] = useState<File | null>(null);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search);
  const initialContactId = schedule?.contactId ?? props.contactId ?? null;
  const contacts = useScheduleContactChoicesQuery(open ? searchParam : skipToken);
  const chosenContact = useScheduleContactQuery(open && initialContactId ? initialContactId : skipToken);
  const connections = useScheduleConnectionsQuery(open ? undefined : skipToken);
  const queues = useScheduleQueuesQuery(open ? undefined : skipToken);
  const users = useScheduleUsersQuery(open ? undefined : skipToken);
  const openTicket = Form.useWatch('openTicket', form);
  const repeats = (Form.useWatch('valorIntervalo', form) ?? 0) > 0;

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(valuesOf(schedule, props));
    setFile(null);
    setSearch('');
    // the dialog's values are set when it opens (props are read once per opening), not on every render
  }, [open, schedule, form]);

  const contactOptions = useMemo(() => {
    const found = (contacts.data ?? []).map((c) => ({ value: c.id, label: c.number ? `${c.name} (${c.number})` : c.name }));
    const chosen = chosenContact.data;
    if (chosen && !found.some((option) => option.value === chosen.id)) {
      found.unshift({ value: chosen.id, label: chosen.number ? `${chosen.name} (${chosen.number})` : chosen.name });
    }
    return found;
  }, [contacts.data, chosenContact.data]);

  const submit = async (values: FormValues) => {
    const body: ScheduleBody = {
      ...values,
      contactId: values.contactId as number,
      sendAt: fromLocalInput(values.sendAt),
      openTicket: values.openTicket ? 'enabled' : 'disabled',
      ticketUserId: values.openTicket ? (values.ticketUserId ?? null) : null,
      queueId: values.openTicket ? (values.queueId ?? null) : null,
      whatsappId: values.whatsappId ?? null,
    };
    try {
      let saved = schedule ? await update({ id: schedule.id, body }).unwrap() : await create(body).unwrap();
      if (file) saved = await upload({ id: saved.id, file }).unwrap();
      toast.success(t(schedule ? 'toasts.updated' : 'toasts.created'));
      onClose(saved);
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Modal
      open={open}
      title={t(schedule ? 'dialog.editTitle' : 'dialog.addTitle')}
      onCancel={() => onClose()}
      destroyOnHidden
      width={640}
      footer={[
        <Button key="cancel" onClick={() => onClose()}>
          {t('dialog.cancel')}
        </Button>,
        <Button
          key="save"
          type="primary"
          loading={creating.isLoading || updating.isLoading || uploading.isLoading}
          onClick={() => form.submit()}
        >
          {t(schedule ? 'dialog.save' : 'dialog.add')}
        </Button>,
      ]}
    >
      {schedule?.status === 'ERRO' && schedule.error && (
        <Alert type="error" showIcon style={{ marginBottom: 12 }} message={t(`errors.${schedule.error}`, schedule.error)} />
      )}
      <Form form={form} layout="vertical" onFinish={submit} requiredMark>
        <Form.Item name="contactId" label={t('fields.contact')} rules={[{ required: true, message: t('validation.required') }]}>
          <Select
            showSearch
            filterOption={false}
            onSearch={setSearch}
            options={contactOptions}
            loading={contacts.isFetching}
            placeholder={t('dialog.contactPlaceholder')}
            aria-label={t('fields.contact')}
            notFoundContent={contacts.isFetching ? null : t('dialog.noContacts')}
          />
        </Form.Item>
        <Form.Item
          name="body"
          label={t('fields.body')}
          rules={[
            { required: true, whitespace: true, message: t('validation.required') },
            { max: 4096, message: t('validation.tooLong') },
          ]}
        >
          <Input.TextArea rows={4} aria-label={t('fields.body')} />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="sendAt" label={t('fields.sendAt')} rules={[{ required: true, message: t('validation.required') }]}>
              <Input type="datetime-local" aria-label={t('fields.sendAt')} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="whatsappId" label={t('fields.whatsapp')}>
              <Select
                allowClear
                placeholder={t('dialog.defaultConnection')}
                options={(connections.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
              />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12}>
          <Col xs={24} sm={8}>
            <Form.Item name="valorIntervalo" label={t('fields.valorIntervalo')} tooltip={t('dialog.repeatHint')}>
              <InputNumber min={0} max={MAX_INTERVAL_VALUE} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item name="intervalo" label={t('fields.intervalo')}>
              <Select
                disabled={!repeats}
                options={Object.values(INTERVAL_UNITS).map((unit) => ({ value: unit, label: t(`intervalo.${unit}`) }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item name="enviarQuantasVezes" label={t('fields.enviarQuantasVezes')}>
              <InputNumber min={1} max={MAX_SENDS} precision={0} disabled={!repeats} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="tipoDias" label={t('fields.tipoDias')}>
          <Select options={[ANY_DAY, BUSINESS_DAYS].map((kind) => ({ value: kind, label: t(`tipoDias.${kind}`) }))} />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={12} sm={8}>
            <Form.Item name="openTicket" label={t('fields.openTicket')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={12} sm={8}>
            <Form.Item name="assinar" label={t('fields.assinar')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item name="statusTicket" label={t('fields.statusTicket')}>
              <Select
                options={(['closed', 'pending', 'open'] as const).map((s) => ({ value: s, label: t(`ticketStatus.${s}`) }))}
              />
            </Form.Item>
          </Col>
        </Row>
        {openTicket && (
          <Row gutter={12}>
            <Col xs={24} sm={12}>
              <Form.Item name="ticketUserId" label={t('fields.ticketUser')}>
                <Select
                  allowClear
                  showSearch
                  optionFilterProp="label"
                  options={(users.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="queueId" label={t('fields.queue')}>
                <Select allowClear options={(queues.data ?? []).map((q) => ({ value: q.id, label: q.name }))} />
              </Form.Item>
            </Col>
          </Row>
        )}
        <Space wrap>
          <Upload
            beforeUpload={(chosen) => {
              setFile(chosen);
              return false;
            }}
            showUploadList={false}
            maxCount={1}
          >
            <Button icon={<PaperClipOutlined />}>{t('dialog.attach')}</Button>
          </Upload>
          {file && <Typography.Text>{file.name}</Typography.Text>}
          {!file && schedule?.mediaName && (
            <>
              <Typography.Link href={schedule.mediaUrl ?? undefined} target="_blank">
                {schedule.mediaName}
              </Typography.Link>
              <Button
                size="small"
                type="text"
                danger
                aria-label={t('dialog.removeAttachment')}
                icon={<DeleteOutlined />}
                onClick={() => removeMedia(schedule.id).unwrap().catch(showError)}
              />
            </>
          )}
        </Space>
      </Form>
    </Modal>
  );
}
