import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Empty, Modal, Skeleton, Timeline, Typography } from 'antd';
import type { Ticket, TicketLog } from '../../../../shared/types';
import { useGetTicketLogQuery } from '../../api/tickets';
import { useElapsed } from '../../hooks/useDebouncedValue';
import { formatDayTime } from '../../logic/format';

/** docs/product/tickets-and-inbox.md#constants-and-limits: the ticket log loads 500 ms after the dialog opens. */
const LOG_DELAY_MS = 500;

const LOG_COLORS: Partial<Record<TicketLog['type'], string>> = {
  create: 'blue',
  open: 'green',
  reopen: 'green',
  closed: 'gray',
  transfered: 'orange',
  receivedTransfer: 'orange',
  pending: 'gold',
};

/** The ticket's history (docs/product/tickets-and-inbox.md#entities ticket log entry), newest first. */
export function TicketLogModal({ ticket, onClose }: { ticket: Ticket | null; onClose(): void }) {
  const { t } = useTranslation('inbox');
  const ready = useElapsed(LOG_DELAY_MS, ticket?.id);
  const { data, isFetching, isError } = useGetTicketLogQuery(ticket?.id ?? 0, {
    skip: !ticket || !ready,
    refetchOnMountOrArgChange: true,
  });
  const loading = !ready || isFetching;

  return (
    <Modal
      open={ticket !== null}
      title={t('tickets.log.title', { id: ticket?.id ?? '' })}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      {loading ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : isError || !data || data.length === 0 ? (
        <Empty description={t('tickets.log.empty')} />
      ) : (
        <div style={{ maxHeight: '60vh', overflowY: 'auto', paddingTop: 8 }}>
          <Timeline
            items={data.map((entry) => ({
              key: entry.id,
              color: LOG_COLORS[entry.type] ?? 'blue',
              content: (
                <>
                  <Typography.Text>
                    {t(`tickets.log.types.${entry.type}`, {
                      user: entry.user?.name ?? t('tickets.log.system'),
                      queue: entry.queue?.name ?? t('tickets.common.noQueue'),
                    })}
                  </Typography.Text>
                  <br />
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {formatDayTime(entry.createdAt)}
                  </Typography.Text>
                </>
              ),
            }))}
          />
        </div>
      )}
    </Modal>
  );
}
