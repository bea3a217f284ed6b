import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Popconfirm, Tooltip } from 'antd';

/** A table row's edit button and its delete button behind a confirmation (the platform's tables). */
export function EditDeleteActions({ onEdit, onDelete }: { onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation('admin');
  return (
    <>
      <Tooltip title={t('platform.common.edit')}>
        <Button type="text" icon={<EditOutlined />} aria-label={t('platform.common.edit')} onClick={onEdit} />
      </Tooltip>
      <Popconfirm
        title={t('platform.common.confirmDelete')}
        okText={t('platform.common.confirmDeleteOk')}
        cancelText={t('platform.common.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={onDelete}
      >
        <Tooltip title={t('platform.common.delete')}>
          <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('platform.common.delete')} />
        </Tooltip>
      </Popconfirm>
    </>
  );
}
