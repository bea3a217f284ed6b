import { errorCodeOf, showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Modal } from 'antd';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { Ticket } from '../../../shared/types';
import { type UpdateTicketBody, useDeleteTicketMutation, useUpdateTicketMutation } from '../api/tickets';
import { useViewer } from '../hooks/useViewer';
import { existingTicketOf, ratingApplies, ticketUuidParam } from '../logic/ticket-rules';
import { AcceptTicketModal } from './modals/AcceptTicketModal';
import { CloseTicketModal, type ResolveChoice } from './modals/CloseTicketModal';
import { NewTicketModal } from './modals/NewTicketModal';
import { type TicketHolder, TicketHolderDialog } from './modals/TicketHolderDialog';
import { TicketLogModal } from './modals/TicketLogModal';
import { TransferTicketModal } from './modals/TransferTicketModal';

/** What list items and the ticket header can do to a ticket; the dialogs live once, here. */
export interface TicketActionsApi {
  accept(ticket: Ticket): void;
  returnToQueue(ticket: Ticket): void;
  transfer(ticket: Ticket): void;
  resolve(ticket: Ticket): void;
  ignore(ticket: Ticket): void;
  reopen(ticket: Ticket): void;
  remove(ticket: Ticket): void;
  showLog(ticket: Ticket): void;
  newTicket(initialSearch?: string): void;
  /** The id of the ticket an action is running on. */
  busyTicketId: number | null;
}

const TicketActionsContext = createContext<TicketActionsApi | null>(null);

/** The ticket actions of the page. */
export function useTicketActions(): TicketActionsApi {
  const actions = useContext(TicketActionsContext);
  if (!actions) throw new Error('useTicketActions outside TicketActionsProvider');
  return actions;
}

/**
 * The transitions of docs/product/tickets-and-inbox.md#states-and-transitions with their dialogs: accept (queue choice when the ticket has none), return
 * to queue, transfer, resolve with or without farewell (required-tag warning), ignore, reopen (another
 * user's ticket is named), delete with confirmation, the log, and a new ticket. After accept, reopen,
 * return, transfer and creation the view goes to /tickets/{uuid}.
 */
export function TicketActionsProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('inbox');
  const navigate = useNavigate();
  const openUuid = ticketUuidParam(useParams().ticketId);
  const viewer = useViewer();
  const [modal, modalHolder] = Modal.useModal();
  const [updateTicket] = useUpdateTicketMutation();
  const [deleteTicket] = useDeleteTicketMutation();
  const [busyTicketId, setBusyTicketId] = useState<number | null>(null);
  const [accepting, setAccepting] = useState<Ticket | null>(null);
  const [transferring, setTransferring] = useState<Ticket | null>(null);
  const [resolving, setResolving] = useState<Ticket | null>(null);
  const [logOf, setLogOf] = useState<Ticket | null>(null);
  const [newTicket, setNewTicket] = useState<{ initialSearch?: string } | null>(null);
  const [holder, setHolder] = useState<TicketHolder | null>(null);

  const openTicket = useCallback((uuid: string) => navigate(`/tickets/${uuid}`), [navigate]);
  const leaveIfOpen = useCallback(
    (ticket: Ticket) => {
      if (openUuid === ticket.uuid) navigate('/tickets');
    },
    [navigate, openUuid],
  );

  /** Runs one `PUT /tickets/:id`; answers the updated ticket, or null after telling the user why not. */
  const update = useCallback(
    async (ticket: Ticket, body: UpdateTicketBody): Promise<Ticket | null> => {
      setBusyTicketId(ticket.id);
      try {
        return await updateTicket({ id: ticket.id, body }).unwrap();
      } catch (error) {
        const code = errorCodeOf(error);
        const existing = existingTicketOf(error);
        if (existing) {
          if (existing.userId === viewer.user.id) openTicket(existing.uuid);
          else setHolder({ kind: 'existing', userName: existing.userName, queueName: existing.queueName });
        } else if (code === 'ERR_QUEUE_REQUIRED' && body.status === 'open') {
          setAccepting(ticket);
        } else if (code === 'ERR_TICKET_TAG_REQUIRED') {
          toast.warning(t('tickets.close.tagRequired'));
        } else {
          showError(error);
        }
        return null;
      } finally {
        setBusyTicketId(null);
      }
    },
    [updateTicket, viewer.user.id, openTicket, t],
  );

  const actions = useMemo<TicketActionsApi>(
    () => ({
      busyTicketId,
      accept(ticket) {
        if (ticket.queueId === null) {
          setAccepting(ticket);
          return;
        }
        void update(ticket, { status: 'open', userId: viewer.user.id, queueId: ticket.queueId }).then(
          (accepted) => accepted && openTicket(accepted.uuid),
        );
      },
      returnToQueue(ticket) {
        void update(ticket, { status: 'pending', userId: null }).then((returned) => returned && openTicket(returned.uuid));
      },
      transfer: setTransferring,
      resolve: setResolving,
      ignore(ticket) {
        void update(ticket, { status: 'closed', sendFarewellMessage: false, amountUsedBotQueues: 0 }).then(
          (ignored) => ignored && leaveIfOpen(ticket),
        );
      },
      reopen(ticket) {
        void update(ticket, { status: 'open', userId: viewer.user.id }).then((reopened) => {
          if (!reopened) return;
          if (reopened.userId !== null && reopened.userId !== viewer.user.id) {
            setHolder({ kind: 'reopened', userName: reopened.user?.name ?? null, queueName: reopened.queue?.name ?? null });
            return;
          }
          openTicket(reopened.uuid);
        });
      },
      remove(ticket) {
        void modal.confirm({
          title: t('tickets.delete.title', { name: ticket.contact.name }),
          content: t('tickets.delete.text'),
          okText: t('tickets.delete.confirm'),
          okButtonProps: { danger: true },
          cancelText: t('tickets.common.cancel'),
          onOk: async () => {
            try {
              await deleteTicket(ticket.id).unwrap();
              toast.success(t('tickets.delete.done'));
              leaveIfOpen(ticket);
            } catch (error) {
              showError(error);
            }
          },
        });
      },
      showLog: setLogOf,
      newTicket: (initialSearch) => setNewTicket({ initialSearch }),
    }),
    [busyTicketId, update, viewer.user.id, openTicket, leaveIfOpen, modal, t, deleteTicket],
  );

  const resolve = async (ticket: Ticket, choice: ResolveChoice) => {
    const closed = await update(ticket, { status: 'closed', ...choice });
    setResolving(null);
    if (closed) leaveIfOpen(ticket);
  };

  return (
    <TicketActionsContext.Provider value={actions}>
      {children}
      {modalHolder}
      <AcceptTicketModal
        ticket={accepting}
        onClose={() => setAccepting(null)}
        onAccepted={(accepted) => {
          setAccepting(null);
          openTicket(accepted.uuid);
        }}
      />
      <TransferTicketModal
        ticket={transferring}
        onClose={() => setTransferring(null)}
        onTransferred={(transferred) => {
          setTransferring(null);
          toast.success(t('tickets.transfer.done'));
          openTicket(transferred.uuid);
        }}
      />
      <CloseTicketModal
        ticket={resolving}
        asksRating={resolving !== null && ratingApplies(resolving, viewer.settings.userRating)}
        busy={resolving !== null && busyTicketId === resolving.id}
        onClose={() => setResolving(null)}
        onResolve={resolve}
      />
      <TicketLogModal ticket={logOf} onClose={() => setLogOf(null)} />
      <NewTicketModal
        open={newTicket !== null}
        initialSearch={newTicket?.initialSearch}
        onClose={() => setNewTicket(null)}
        onOpenTicket={openTicket}
        onHeldByOther={setHolder}
      />
      <TicketHolderDialog holder={holder} onClose={() => setHolder(null)} />
    </TicketActionsContext.Provider>
  );
}
