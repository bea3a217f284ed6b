import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, ColorPicker, Flex, Form, Input, InputNumber, Modal, Select, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import type { Tag } from '../../../shared/types';
import { type TagBody, useCreateTagMutation, useListTagsQuery, useUpdateTagMutation } from '../api/tags';
import { DEFAULT_TAG_COLOR, laneChoices, normalizeTagColor, validateTagName } from './validation';

export interface TagDialogProps {
  open: boolean;
  /** The tag to edit; null adds one. */
  tag: Tag | null;
  onClose(): void;
}

interface TagFormValues {
  name: string;
  color: string;
  kanban: boolean;
  timeLane: number | null;
  nextLaneId: number | null;
  rollbackLaneId: number | null;
  greetingMessageLane: string;
}

/** The tag dialog (docs/product/administration.md#screens-and-routes): name (≥ 3), colour (#7C7C7C by default), kanban and its lane fields. */
export function TagDialog({ open, tag, onClose }: TagDialogProps) {
  const { t } = useTranslation('inbox');
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      title={t(tag ? 'tags.dialog.editTitle' : 'tags.dialog.addTitle')}
      width={560}
    >
      <TagForm key={tag?.id ?? 'new'} tag={tag} onClose={onClose} />
    </Modal>
  );
}

function TagForm({ tag, onClose }: { tag: Tag | null; onClose(): void }) {
  const { t } = useTranslation('inbox');
  const [form] = Form.useForm<TagFormValues>();
  const kanban = Form.useWatch('kanban', form) ?? tag?.kanban === 1;
  const { data: kanbanTags, isLoading: lanesLoading } = useListTagsQuery({ kanban: true });
  const [createTag, creating] = useCreateTagMutation();
  const [updateTag, updating] = useUpdateTagMutation();
  const lanes = laneChoices(kanbanTags ?? [], tag?.id).map((lane) => ({ value: lane.id, label: lane.name }));

  const nameRule: Rule = {
    validator: async (_rule, value: string) => {
      const issue = validateTagName(value);
      if (issue) throw new Error(t(`tags.validation.${issue}`));
    },
  };

  const submit = async (values: TagFormValues) => {
    const body: TagBody = {
      name: values.name.trim(),
      color: normalizeTagColor(values.color),
      kanban: values.kanban ? 1 : 0,
      ...(values.kanban
        ? {
            timeLane: values.timeLane ?? null,
            nextLaneId: values.nextLaneId ?? null,
            rollbackLaneId: values.rollbackLaneId ?? null,
            greetingMessageLane: values.greetingMessageLane?.trim() || null,
          }
        : { timeLane: null, nextLaneId: null, rollbackLaneId: null, greetingMessageLane: null }),
    };
    try {
      if (tag) await updateTag({ id: tag.id, ...body }).unwrap();
      else await createTag(body).unwrap();
      toast.success(t('tags.toasts.saved'));
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Form<TagFormValues>
      form={form}
      layout="vertical"
      onFinish={submit}
      initialValues={{
        name: tag?.name ?? '',
        color: tag?.color ?? DEFAULT_TAG_COLOR,
        kanban: tag?.kanban === 1,
        timeLane: tag?.timeLane ?? null,
        nextLaneId: tag?.nextLaneId ?? null,
        rollbackLaneId: tag?.rollbackLaneId ?? null,
        greetingMessageLane: tag?.greetingMessageLane ?? '',
      }}
    >
      <Flex wrap gap={12} align="start">
        <Form.Item name="name" label={t('tags.fields.name')} rules={[nameRule]} style={{ flex: '1 1 240px' }}>
          <Input autoFocus autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="color"
          label={t('tags.fields.color')}
          getValueFromEvent={(color: { toHexString(): string }) => color.toHexString().toUpperCase()}
        >
          <ColorPicker showText disabledAlpha format="hex" />
        </Form.Item>
      </Flex>
      <Form.Item name="kanban" label={t('tags.fields.kanban')} valuePropName="checked" tooltip={t('tags.dialog.kanbanHelp')}>
        <Switch />
      </Form.Item>
      {kanban ? (
        <>
          <Flex wrap gap={12}>
            <Form.Item
              name="timeLane"
              label={t('tags.fields.timeLane')}
              style={{ flex: '1 1 160px' }}
              tooltip={t('tags.dialog.timeLaneHelp')}
            >
              <InputNumber min={0} precision={0} style={{ width: '100%' }} suffix={t('tags.dialog.minutes')} />
            </Form.Item>
            <Form.Item name="nextLaneId" label={t('tags.fields.nextLaneId')} style={{ flex: '1 1 160px' }}>
              <Select allowClear loading={lanesLoading} options={lanes} placeholder={t('tags.dialog.noLane')} />
            </Form.Item>
            <Form.Item name="rollbackLaneId" label={t('tags.fields.rollbackLaneId')} style={{ flex: '1 1 160px' }}>
              <Select allowClear loading={lanesLoading} options={lanes} placeholder={t('tags.dialog.noLane')} />
            </Form.Item>
          </Flex>
          <Form.Item name="greetingMessageLane" label={t('tags.fields.greetingMessageLane')}>
            <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} />
          </Form.Item>
        </>
      ) : null}
      <Flex justify="end" gap={8} style={{ marginTop: 8 }}>
        <Button onClick={onClose}>{t('tags.dialog.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={creating.isLoading || updating.isLoading}>
          {t(tag ? 'tags.dialog.save' : 'tags.dialog.add')}
        </Button>
      </Flex>
    </Form>
  );
}
