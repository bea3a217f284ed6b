import { CheckOutlined, CloseOutlined, RedoOutlined, StopOutlined, SwapOutlined, UndoOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import type { Ticket } from '../../../../shared/types';
import { useViewer } from '../../hooks/useViewer';
import { type TicketAction, ticketActions } from '../../logic/ticket-rules';
import { useTicketActions } from '../TicketActionsProvider';

const ICONS: Record<TicketAction, ReactNode> = {
  accept: <CheckOutlined />,
  transfer: <SwapOutlined />,
  close: <CloseOutlined />,
  ignore: <StopOutlined />,
  reopen: <RedoOutlined />,
  return: <UndoOutlined />,
};

/** The quick buttons of a list item (docs/product/tickets-and-inbox.md#screens-and-routes): accept, transfer, close, ignore, reopen, by status and permission. */
export function TicketItemActions({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation('inbox');
  const viewer = useViewer();
  const actions = useTicketActions();
  const busy = actions.busyTicketId === ticket.id;
  // the list keeps to the documented five buttons; returning to the queue lives in the ticket's header
  const available = ticketActions(ticket, viewer.powers).filter((action) => action !== 'return');
  const run: Record<TicketAction, () => void> = {
    accept: () => actions.accept(ticket),
    transfer: () => actions.transfer(ticket),
    close: () => actions.resolve(ticket),
    ignore: () => actions.ignore(ticket),
    reopen: () => actions.reopen(ticket),
    return: () => actions.returnToQueue(ticket),
  };
  if (available.length === 0) return null;
  return (
    <Flex gap={2}>
      {available.map((action) => (
        <Tooltip key={action} title={t(`tickets.actions.${action}`)}>
          <Button
            size="small"
            type={action === 'accept' || action === 'reopen' ? 'primary' : 'text'}
            danger={action === 'ignore'}
            icon={ICONS[action]}
            aria-label={t(`tickets.actions.${action}`)}
            loading={busy && (action === 'accept' || action === 'reopen' || action === 'ignore')}
            onClick={run[action]}
          />
        </Tooltip>
      ))}
    </Flex>
  );
}
