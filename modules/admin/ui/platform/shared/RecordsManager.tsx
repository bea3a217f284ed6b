import { PlusOutlined } from '@ant-design/icons';
import { useNarrowScreen, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Empty, Flex, Modal, Skeleton, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';

/**
 * The super user's tab of one kind of record (plans, helps): an add button, the table (skeleton while
 * loading, the load error, the empty state) and the create/edit dialog around the record's form.
 */
export function RecordsManager<T extends { id: number }>({
  addLabel,
  onAdd,
  isLoading,
  isError,
  data,
  columns,
  dialog,
}: {
  addLabel: string;
  onAdd(): void;
  isLoading: boolean;
  isError: boolean;
  data: T[] | undefined;
  columns: ColumnsType<T>;
  dialog: { open: boolean; title: string; width?: number; onClose(): void; form: ReactNode };
}) {
  const { t } = useTranslation('admin');
  // a sideways scroll only on a phone: on wider screens the columns wrap, so none hides under the actions
  const narrow = useNarrowScreen();
  return (
    <>
      <Flex justify="end" style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={onAdd}>
          {addLabel}
        </Button>
      </Flex>
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : isError ? (
        <Empty description={t('platform.common.loadError')} />
      ) : (
        <Table<T>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={data ?? []}
          pagination={false}
          scroll={narrow ? { x: 'max-content' } : undefined}
          locale={{ emptyText: <Empty description={t('platform.common.empty')} /> }}
        />
      )}
      <Modal open={dialog.open} onCancel={dialog.onClose} footer={null} destroyOnHidden width={dialog.width} title={dialog.title}>
        {dialog.form}
      </Modal>
    </>
  );
}
