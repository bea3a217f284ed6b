import { DeleteOutlined, PaperClipOutlined } from '@ant-design/icons';
import { toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Form, Input, Modal, Select, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import {
  type Announcement,
  type AnnouncementBody,
  useCreateAnnouncementMutation,
  useRemoveAnnouncementImageMutation,
  useUpdateAnnouncementMutation,
  useUploadAnnouncementImageMutation,
} from '../api';
import { DEFAULT_PRIORITY, IMAGE_ACCEPT, isAcceptedImage, PRIORITIES } from './priority';

export interface AnnouncementDialogProps {
  open: boolean;
  announcement: Announcement | null;
  onClose(): void;
}

/** The announcement dialog (docs/product/automation.md#screens-and-routes): title, text, priority, status and an image attachment. */
export function AnnouncementDialog({ open, announcement, onClose }: AnnouncementDialogProps) {
  const { t } = useTranslation('admin');
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      title={t(announcement ? 'platform.announcements.editTitle' : 'platform.announcements.newTitle')}
    >
      <AnnouncementForm key={announcement?.id ?? 'new'} announcement={announcement} onClose={onClose} />
    </Modal>
  );
}

function AnnouncementForm({ announcement, onClose }: { announcement: Announcement | null; onClose(): void }) {
  const { t } = useTranslation('admin');
  const [create, creating] = useCreateAnnouncementMutation();
  const [update, updating] = useUpdateAnnouncementMutation();
  const [upload, uploading] = useUploadAnnouncementImageMutation();
  const [removeImage] = useRemoveAnnouncementImageMutation();
  const [file, setFile] = useState<File | null>(null);
  const [keptMedia, setKeptMedia] = useState(announcement?.mediaName ?? null);
  const picker = useRef<HTMLInputElement>(null);
  const required = { required: true, whitespace: true, message: t('platform.common.required') };

  const submit = async (values: AnnouncementBody) => {
    const body: AnnouncementBody = { ...values, title: values.title.trim(), text: values.text.trim() };
    try {
      const saved = announcement ? await update({ id: announcement.id, ...body }).unwrap() : await create(body).unwrap();
      if (file) await upload({ id: saved.id, file }).unwrap();
      else if (announcement?.mediaName && !keptMedia) await removeImage(saved.id).unwrap();
      toast.success(t('platform.common.success'));
      onClose();
    } catch {
      toast.error(t('platform.common.saveError'));
    }
  };

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    if (!isAcceptedImage(chosen)) {
      toast.error(t('platform.announcements.imageTypes'));
      return;
    }
    setFile(chosen);
  };

  const attached = file?.name ?? keptMedia;
  return (
    <Form<AnnouncementBody>
      layout="vertical"
      requiredMark={false}
      onFinish={submit}
      initialValues={
        announcement
          ? { title: announcement.title, text: announcement.text, priority: announcement.priority, status: announcement.status }
          : { title: '', text: '', priority: DEFAULT_PRIORITY, status: true }
      }
    >
      <Form.Item name="title" label={t('platform.announcements.fields.title')} rules={[required, { max: 200 }]}>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="text" label={t('platform.announcements.fields.text')} rules={[required, { max: 5000 }]}>
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} />
      </Form.Item>
      <Flex gap={12} wrap>
        <Form.Item name="priority" label={t('platform.announcements.fields.priority')} style={{ flex: '1 1 160px' }}>
          <Select options={PRIORITIES.map((value) => ({ value, label: t(`platform.announcements.priorities.${value}`) }))} />
        </Form.Item>
        <Form.Item name="status" label={t('platform.announcements.fields.status')} style={{ flex: '1 1 160px' }}>
          <Select
            options={[
              { value: true, label: t('platform.announcements.active') },
              { value: false, label: t('platform.announcements.inactive') },
            ]}
          />
        </Form.Item>
      </Flex>
      <Form.Item label={t('platform.announcements.fields.image')} extra={t('platform.announcements.imageTypes')}>
        <input
          ref={picker}
          type="file"
          accept={IMAGE_ACCEPT}
          hidden
          data-testid="announcement-image"
          onChange={(event) => {
            choose(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
        <Space wrap>
          <Button icon={<PaperClipOutlined />} onClick={() => picker.current?.click()}>
            {t('platform.announcements.attach')}
          </Button>
          {attached ? (
            <>
              <Typography.Text>{attached}</Typography.Text>
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('platform.announcements.removeImage')}
                onClick={() => {
                  setFile(null);
                  setKeptMedia(null);
                }}
              />
            </>
          ) : null}
        </Space>
      </Form.Item>
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{t('platform.common.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={creating.isLoading || updating.isLoading || uploading.isLoading}>
          {t(announcement ? 'platform.common.save' : 'platform.common.add')}
        </Button>
      </Flex>
    </Form>
  );
}
