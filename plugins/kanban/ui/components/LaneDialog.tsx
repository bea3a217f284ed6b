import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, ColorPicker, Flex, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useKanbanCreateLaneMutation, useKanbanLanesQuery, useKanbanUpdateLaneMutation } from '../api';
import type { Lane, LaneBody } from '../types';

/** The documented default colour of queues and tags (docs/product/administration.md#constants-and-limits). */
const DEFAULT_COLOR = '#7C7C7C';

interface LaneFormValues {
  name: string;
  color: string;
  timeLane: number | null;
  nextLaneId: number | null;
  rollbackLaneId: number | null;
  greetingMessageLane: string;
}

/** The body the inbox's tag calls take for a lane, from the form (empty automation fields as null). */
export function laneBody(values: LaneFormValues): LaneBody {
  const greeting = values.greetingMessageLane?.trim() ?? '';
  return {
    name: values.name.trim(),
    color: values.color,
    kanban: 1,
    timeLane: values.timeLane && values.timeLane > 0 ? values.timeLane : null,
    nextLaneId: values.nextLaneId ?? null,
    greetingMessageLane: greeting ? greeting : null,
    rollbackLaneId: values.rollbackLaneId ?? null,
  };
}

export interface LaneDialogProps {
  open: boolean;
  lane: Lane | null;
  onClose(): void;
}

/** Adds or edits a lane (a tag with kanban 1) with its automation: time, next lane, greeting, rollback. */
export function LaneDialog({ open, lane, onClose }: LaneDialogProps) {
  const { t } = useTranslation('kanban');
  const [form] = Form.useForm<LaneFormValues>();
  const lanes = useKanbanLanesQuery(undefined, { skip: !open });
  const [create, creating] = useKanbanCreateLaneMutation();
  const [update, updating] = useKanbanUpdateLaneMutation();
  const options = (lanes.data ?? [])
    .filter((candidate) => candidate.id !== lane?.id)
    .map((candidate) => ({ value: candidate.id, label: candidate.name }));

  const submit = async (values: LaneFormValues) => {
    try {
      const body = laneBody(values);
      if (lane) await update({ id: lane.id, body }).unwrap();
      else await create(body).unwrap();
      toast.success(t('toasts.laneSaved'));
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Modal
      open={open}
      title={t(lane ? 'laneDialog.editTitle' : 'laneDialog.addTitle')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={560}
    >
      <Form<LaneFormValues>
        form={form}
        layout="vertical"
        onFinish={submit}
        preserve={false}
        initialValues={{
          name: lane?.name ?? '',
          color: lane?.color ?? DEFAULT_COLOR,
          timeLane: lane?.timeLane ?? null,
          nextLaneId: lane?.nextLaneId ?? null,
          rollbackLaneId: lane?.rollbackLaneId ?? null,
          greetingMessageLane: lane?.greetingMessageLane ?? '',
        }}
      >
        <Flex wrap gap={12} align="start">
          <Form.Item
            name="name"
            label={t('laneDialog.name')}
            style={{ flex: '1 1 240px' }}
            rules={[
              { required: true, whitespace: true, message: t('laneDialog.required') },
              { min: 3, message: t('laneDialog.tooShort') },
            ]}
          >
            <Input autoFocus autoComplete="off" maxLength={100} />
          </Form.Item>
          <Form.Item
            name="color"
            label={t('laneDialog.color')}
            getValueFromEvent={(color: { toHexString(): string }) => color.toHexString().toUpperCase()}
          >
            <ColorPicker showText disabledAlpha format="hex" />
          </Form.Item>
        </Flex>
        <Flex wrap gap={12}>
          <Form.Item
            name="timeLane"
            label={t('laneDialog.timeLane')}
            tooltip={t('laneDialog.timeLaneHelp')}
            style={{ flex: '1 1 160px' }}
          >
            <InputNumber min={0} max={2_147_483_647} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            name="nextLaneId"
            label={t('laneDialog.nextLane')}
            style={{ flex: '1 1 160px' }}
            dependencies={['timeLane']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_rule, value) =>
                  (getFieldValue('timeLane') ?? 0) > 0 && !value
                    ? Promise.reject(new Error(t('laneDialog.nextRequired')))
                    : Promise.resolve(),
              }),
            ]}
          >
            <Select allowClear options={options} placeholder={t('laneDialog.none')} loading={lanes.isLoading} />
          </Form.Item>
        </Flex>
        <Form.Item name="rollbackLaneId" label={t('laneDialog.rollbackLane')}>
          <Select allowClear options={options} placeholder={t('laneDialog.none')} loading={lanes.isLoading} />
        </Form.Item>
        <Form.Item name="greetingMessageLane" label={t('laneDialog.greeting')} tooltip={t('laneDialog.greetingHelp')}>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={10_000} />
        </Form.Item>
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('laneDialog.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={creating.isLoading || updating.isLoading}>
            {t('laneDialog.save')}
          </Button>
        </Flex>
      </Form>
    </Modal>
  );
}
