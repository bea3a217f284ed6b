import { toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Form, Input, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import {
  type Help,
  type HelpBody,
  useCreateHelpMutation,
  useDeleteHelpMutation,
  useListHelpsQuery,
  useUpdateHelpMutation,
} from '../api';
import { EditDeleteActions } from '../shared/EditDeleteActions';
import { RecordsManager } from '../shared/RecordsManager';
import { useLoadErrorToast } from '../shared/useLoadErrorToast';

/** Helps (docs/product/administration.md#screens-and-routes Helps tab): form plus table of title, description and video. */
export function HelpsManager() {
  const { t } = useTranslation('admin');
  const { data, isLoading, isError } = useListHelpsQuery();
  useLoadErrorToast(isError);
  const [remove] = useDeleteHelpMutation();
  const [dialog, setDialog] = useState<{ open: boolean; help: Help | null }>({ open: false, help: null });

  const onDelete = async (help: Help) => {
    try {
      await remove(help.id).unwrap();
      toast.success(t('platform.common.success'));
    } catch {
      toast.error(t('platform.common.deleteError'));
    }
  };

  const columns: ColumnsType<Help> = [
    { key: 'title', title: t('platform.helps.fields.title'), dataIndex: 'title' },
    { key: 'description', title: t('platform.helps.fields.description'), dataIndex: 'description', ellipsis: true },
    { key: 'video', title: t('platform.helps.fields.video'), dataIndex: 'video' },
    {
      key: 'actions',
      title: t('platform.common.actions'),
      width: 110,
      render: (_value, help) => (
        <Space size={2}>
          <EditDeleteActions onEdit={() => setDialog({ open: true, help })} onDelete={() => onDelete(help)} />
        </Space>
      ),
    },
  ];

  return (
    <RecordsManager<Help>
      addLabel={t('platform.helps.newTitle')}
      onAdd={() => setDialog({ open: true, help: null })}
      isLoading={isLoading}
      isError={isError}
      data={data}
      columns={columns}
      dialog={{
        open: dialog.open,
        title: t(dialog.help ? 'platform.helps.editTitle' : 'platform.helps.newTitle'),

        onClose: () => setDialog({ open: false, help: null }),
        form: (
          <HelpForm key={dialog.help?.id ?? 'new'} help={dialog.help} onClose={() => setDialog({ open: false, help: null })} />
        ),
      }}
    />
  );
}

function HelpForm({ help, onClose }: { help: Help | null; onClose(): void }) {
  const { t } = useTranslation('admin');
  const [createHelp, creating] = useCreateHelpMutation();
  const [updateHelp, updating] = useUpdateHelpMutation();

  const submit = async (values: HelpBody) => {
    const body: HelpBody = {
      title: values.title.trim(),
      description: values.description?.trim() ?? '',
      video: values.video?.trim() ?? '',
    };
    try {
      if (help) await updateHelp({ id: help.id, ...body }).unwrap();
      else await createHelp(body).unwrap();
      toast.success(t('platform.common.success'));
      onClose();
    } catch {
      toast.error(t('platform.common.saveError'));
    }
  };

  return (
    <Form<HelpBody>
      layout="vertical"
      initialValues={help ?? { title: '', description: '', video: '' }}
      onFinish={submit}
      requiredMark={false}
    >
      <Form.Item
        name="title"
        label={t('platform.helps.fields.title')}
        rules={[{ required: true, whitespace: true, message: t('platform.common.required') }, { max: 200 }]}
      >
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="description" label={t('platform.helps.fields.description')} rules={[{ max: 5000 }]}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} />
      </Form.Item>
      <Form.Item
        name="video"
        label={t('platform.helps.fields.video')}
        extra={t('platform.helps.videoHelp')}
        rules={[{ max: 500 }]}
      >
        <Input />
      </Form.Item>
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{t('platform.common.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={creating.isLoading || updating.isLoading}>
          {t(help ? 'platform.common.save' : 'platform.common.add')}
        </Button>
      </Flex>
    </Form>
  );
}
