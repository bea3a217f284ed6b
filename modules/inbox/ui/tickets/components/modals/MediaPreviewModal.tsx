import { DeleteOutlined, FileOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Input, Modal, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { MAX_FILES_PER_SEND } from '../../logic/outgoing';

/** Props of the media preview. */
export interface MediaPreviewModalProps {
  files: File[];
  /** The caption the composer had (sent as the files' body). */
  initialCaption?: string;
  sending: boolean;
  onRemove(index: number): void;
  onCancel(): void;
  onSend(files: File[], caption: string): void;
}

function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** One file of the preview: the image itself, or an icon with the file's name and size. */
function FilePreview({ file, onRemove, removeLabel }: { file: File; onRemove(): void; removeLabel: string }) {
  const url = useMemo(
    () => (file.type.startsWith('image/') || file.type.startsWith('video/') ? URL.createObjectURL(file) : null),
    [file],
  );
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return (
    <Flex align="center" gap={12} style={{ padding: 8, border: '1px solid rgba(128,128,128,0.25)', borderRadius: 8 }}>
      {url && file.type.startsWith('image/') ? (
        <img src={url} alt={file.name} style={{ width: 96, height: 96, objectFit: 'cover', borderRadius: 6 }} />
      ) : url ? (
        <video src={url} style={{ width: 96, height: 96, objectFit: 'cover', borderRadius: 6 }} muted />
      ) : (
        <Flex align="center" justify="center" style={{ width: 96, height: 96 }}>
          <FileOutlined style={{ fontSize: 40 }} />
        </Flex>
      )}
      <div style={{ flex: 1, minWidth: 0 }}>
        <Typography.Text ellipsis style={{ display: 'block' }}>
          {file.name}
        </Typography.Text>
        <Typography.Text type="secondary">{sizeLabel(file.size)}</Typography.Text>
      </div>
      <Button type="text" danger icon={<DeleteOutlined />} aria-label={removeLabel} onClick={onRemove} />
    </Flex>
  );
}

/** What will be sent before it is (docs/product/tickets-and-inbox.md#screens-and-routes media preview): the files, up to 10, and one caption. */
export function MediaPreviewModal({ files, initialCaption = '', sending, onRemove, onCancel, onSend }: MediaPreviewModalProps) {
  const { t } = useTranslation('inbox');
  const [caption, setCaption] = useState(initialCaption);
  const open = files.length > 0;
  useEffect(() => {
    if (open) setCaption(initialCaption);
  }, [open, initialCaption]);
  const tooMany = files.length > MAX_FILES_PER_SEND;

  return (
    <Modal
      open={open}
      title={t('tickets.media.title', { count: files.length })}
      okText={t('tickets.composer.send')}
      cancelText={t('tickets.common.cancel')}
      okButtonProps={{ disabled: tooMany }}
      confirmLoading={sending}
      onOk={() => onSend(files, caption)}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Flex vertical gap={8} style={{ maxHeight: '50vh', overflowY: 'auto', marginBottom: 12 }}>
        {files.map((file, index) => (
          <FilePreview
            key={`${file.name}-${file.size}-${file.lastModified}-${index}`}
            file={file}
            removeLabel={t('tickets.media.remove')}
            onRemove={() => onRemove(index)}
          />
        ))}
      </Flex>
      {tooMany ? (
        <Typography.Text type="danger">{t('tickets.media.tooMany', { max: MAX_FILES_PER_SEND })}</Typography.Text>
      ) : null}
      <Input.TextArea
        value={caption}
        onChange={(event) => setCaption(event.target.value)}
        placeholder={t('tickets.media.caption')}
        autoSize={{ minRows: 1, maxRows: 4 }}
        onPressEnter={(event) => {
          if (!event.shiftKey && !tooMany) {
            event.preventDefault();
            onSend(files, caption);
          }
        }}
      />
    </Modal>
  );
}
