import { ClearOutlined } from '@ant-design/icons';
import { toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Popconfirm, Tooltip } from 'antd';
import type { TicketStatus } from '../../../../shared/types';
import { useCloseAllTicketsMutation } from '../../api/tickets';

/**
 * Close all (docs/product/tickets-and-inbox.md#states-and-transitions, tickets-manager:closeAll): closes every ticket of the open tab's status in the
 * chosen queues, after a confirmation. Failures are only logged (docs/product/tickets-and-inbox.md#errors gives them no wording).
 */
export function CloseAllButton({ status, queueIds }: { status: TicketStatus | null; queueIds: number[] }) {
  const { t } = useTranslation('inbox');
  const [closeAll, { isLoading }] = useCloseAllTicketsMutation();
  const run = async () => {
    if (!status) return;
    try {
      // no queue chosen: the server closes the status across every queue the admin sees
      const { closed } = await closeAll({ status, ...(queueIds.length > 0 ? { selectedQueueIds: queueIds } : {}) }).unwrap();
      toast.success(t('tickets.closeAll.done', { count: closed }));
    } catch (error) {
      console.error('Closing all tickets failed', error);
    }
  };
  return (
    <Popconfirm
      title={t('tickets.closeAll.title')}
      description={t('tickets.closeAll.text', { status: status ? t(`tickets.status.${status}`) : '' })}
      okText={t('tickets.closeAll.confirm')}
      cancelText={t('tickets.common.cancel')}
      okButtonProps={{ danger: true }}
      onConfirm={run}
      disabled={!status}
    >
      <Tooltip title={t('tickets.closeAll.button')}>
        <Button
          danger
          icon={<ClearOutlined />}
          aria-label={t('tickets.closeAll.button')}
          loading={isLoading}
          disabled={!status}
        />
      </Tooltip>
    </Popconfirm>
  );
}
