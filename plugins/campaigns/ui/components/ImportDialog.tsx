import { InboxOutlined } from '@ant-design/icons';
import { errorMessage, showError, skipToken, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Button, Modal, Progress, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useLatestImportQuery, useUploadContactsMutation } from '../api';
import { downloadExampleSheet } from '../download';
import type { ContactList } from '../types';

/** The sheets an import reads (docs/product/automation.md#validation: .xls or .xlsx; .csv besides). */
export const IMPORT_ACCEPT = '.xlsx,.xls,.csv';
/** Refused rows listed in the result (the count says how many there were). */
const REFUSED_SHOWN = 50;

/**
 * Import into a list: the file goes up, the server reads it and reports its progress live, then the result
 * — rows added, updated, and refused with their row numbers and why. A file that can't be read changes
 * nothing and says why.
 */
export function ImportDialog({ list, onClose }: { list: ContactList | null; onClose(): void }) {
  const { t } = useTranslation('campaigns');
  const [upload, uploading] = useUploadContactsMutation();
  const [startedId, setStartedId] = useState<number | null>(null);
  const latest = useLatestImportQuery(list ? list.id : skipToken);
  const current = latest.data?.current ?? null;
  const mine = current && startedId !== null && current.id >= startedId ? current : null;

  const send = async (file: File) => {
    if (!list) return;
    try {
      const started = await upload({ id: list.id, file }).unwrap();
      setStartedId(started.id);
    } catch (failure) {
      showError(failure);
    }
  };

  const close = () => {
    setStartedId(null);
    onClose();
  };

  return (
    <Modal
      open={list !== null}
      title={t('import.title', { name: list?.name ?? '' })}
      onCancel={close}
      footer={null}
      destroyOnHidden
    >
      {mine === null ? (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Upload.Dragger
            accept={IMPORT_ACCEPT}
            showUploadList={false}
            disabled={uploading.isLoading}
            beforeUpload={(file) => {
              void send(file);
              return false;
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p>{t('import.drop')}</p>
            <Typography.Text type="secondary">{t('import.formats')}</Typography.Text>
          </Upload.Dragger>
          <Button type="link" onClick={() => downloadExampleSheet().catch(showError)}>
            {t('lists.example')}
          </Button>
        </Space>
      ) : mine.status === 'queued' || mine.status === 'running' ? (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="import-progress">
          <Typography.Text>{t('import.running', { file: mine.fileName })}</Typography.Text>
          <Progress percent={mine.progress} status="active" />
        </Space>
      ) : mine.status === 'failed' ? (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert
            type="error"
            showIcon
            message={t('import.failed')}
            description={errorMessage(mine.error ?? 'ERR_IMPORT_UNREADABLE')}
          />
          <Button onClick={() => setStartedId(null)}>{t('import.again')}</Button>
        </Space>
      ) : (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="import-result">
          <Alert
            type={mine.refused > 0 ? 'warning' : 'success'}
            showIcon
            message={t('import.done', { added: mine.added, updated: mine.updated, refused: mine.refused })}
          />
          {mine.refusedRows.length > 0 ? (
            <ul style={{ maxHeight: 200, overflowY: 'auto', paddingInlineStart: 20 }}>
              {mine.refusedRows.slice(0, REFUSED_SHOWN).map((row) => (
                <li key={row.row}>{t('import.refusedRow', { row: row.row, reason: t(`import.reasons.${row.reason}`) })}</li>
              ))}
            </ul>
          ) : null}
          <Button type="primary" onClick={close}>
            {t('dialog.close')}
          </Button>
        </Space>
      )}
    </Modal>
  );
}
