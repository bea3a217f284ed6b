import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Checkbox, Flex, Form, Input, Modal, Select } from 'antd';
import { useCreateEmbedKeyMutation, useKanbanLanesQuery, useUpdateEmbedKeyMutation } from '../api';
import type { EmbedKey, EmbedKeyBody } from '../types';

interface EmbedKeyFormValues {
  name: string;
  origins: string;
  mayMove: boolean;
  signedUsers: boolean;
  laneIds: number[];
}

/** The API body from the form: one origin per line, no lanes chosen = every lane. */
export function embedKeyBody(values: EmbedKeyFormValues): EmbedKeyBody {
  return {
    name: values.name.trim(),
    allowedOrigins: values.origins
      .split(/[\s,]+/)
      .map((origin) => origin.trim())
      .filter(Boolean),
    mayMove: values.mayMove,
    signedUsers: values.mayMove && values.signedUsers,
    laneIds: values.laneIds.length > 0 ? values.laneIds : null,
  };
}

export interface EmbedKeyDialogProps {
  open: boolean;
  embedKey: EmbedKey | null;
  onClose(saved?: EmbedKey): void;
}

/** Creates or edits an embed key: name, allowed origins, read-only or may-move, signed users, lanes. */
export function EmbedKeyDialog({ open, embedKey, onClose }: EmbedKeyDialogProps) {
  const { t } = useTranslation('kanban');
  const [form] = Form.useForm<EmbedKeyFormValues>();
  const lanes = useKanbanLanesQuery(undefined, { skip: !open });
  const [create, creating] = useCreateEmbedKeyMutation();
  const [update, updating] = useUpdateEmbedKeyMutation();
  const mayMove = Form.useWatch('mayMove', form);

  const submit = async (values: EmbedKeyFormValues) => {
    try {
      const body = embedKeyBody(values);
      const saved = embedKey ? await update({ id: embedKey.id, body }).unwrap() : await create(body).unwrap();
      toast.success(t('toasts.keySaved'));
      onClose(saved);
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Modal
      open={open}
      title={t(embedKey ? 'embed.dialog.editTitle' : 'embed.dialog.addTitle')}
      onCancel={() => onClose()}
      footer={null}
      destroyOnHidden
      width={560}
    >
      <Form<EmbedKeyFormValues>
        form={form}
        layout="vertical"
        onFinish={submit}
        preserve={false}
        initialValues={{
          name: embedKey?.name ?? '',
          origins: (embedKey?.allowedOrigins ?? []).join('\n'),
          mayMove: embedKey?.mayMove ?? false,
          signedUsers: embedKey?.signedUsers ?? false,
          laneIds: embedKey?.laneIds ?? [],
        }}
      >
        <Form.Item
          name="name"
          label={t('embed.dialog.name')}
          rules={[
            { required: true, whitespace: true, message: t('embed.dialog.required') },
            { min: 3, message: t('embed.dialog.tooShort') },
          ]}
        >
          <Input autoFocus maxLength={100} />
        </Form.Item>
        <Form.Item
          name="origins"
          label={t('embed.dialog.origins')}
          extra={t('embed.dialog.originsHelp')}
          rules={[{ required: true, whitespace: true, message: t('embed.dialog.required') }]}
        >
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder="https://" />
        </Form.Item>
        <Form.Item name="laneIds" label={t('embed.dialog.lanes')} extra={t('embed.dialog.lanesHelp')}>
          <Select
            mode="multiple"
            allowClear
            loading={lanes.isLoading}
            options={(lanes.data ?? []).map((lane) => ({ value: lane.id, label: lane.name }))}
          />
        </Form.Item>
        <Form.Item name="mayMove" valuePropName="checked" style={{ marginBottom: 8 }}>
          <Checkbox>{t('embed.dialog.mayMove')}</Checkbox>
        </Form.Item>
        <Form.Item name="signedUsers" valuePropName="checked">
          <Checkbox disabled={!mayMove}>{t('embed.dialog.signedUsers')}</Checkbox>
        </Form.Item>
        <Flex justify="end" gap={8}>
          <Button onClick={() => onClose()}>{t('embed.dialog.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={creating.isLoading || updating.isLoading}>
            {t('embed.dialog.save')}
          </Button>
        </Flex>
      </Form>
    </Modal>
  );
}
