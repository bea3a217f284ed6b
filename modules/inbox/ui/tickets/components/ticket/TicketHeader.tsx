import {
  ApiOutlined,
  ArrowLeftOutlined,
  CheckOutlined,
  CloseOutlined,
  DeleteOutlined,
  FilePdfOutlined,
  HistoryOutlined,
  IdcardOutlined,
  MoreOutlined,
  RedoOutlined,
  RobotOutlined,
  StopOutlined,
  SwapOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { PluginSlot, showError, toast, useAppDispatch, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Dropdown, Flex, type MenuProps, Tag, Tooltip, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { Ticket } from '../../../../shared/types';
import { useToggleDisableBotMutation } from '../../../directory/api/contacts';
import { useListMessagesInfiniteQuery } from '../../api/messages';
import { patchTicketRead, useUpdateTicketMutation } from '../../api/tickets';
import { useViewer } from '../../hooks/useViewer';
import { flattenMessages, visibleMessages } from '../../logic/message-list';
import { type TicketAction, ticketActions } from '../../logic/ticket-rules';
import { ChannelIcon } from '../ChannelIcon';
import { ContactAvatar } from '../ContactAvatar';
import { useTicketActions } from '../TicketActionsProvider';
import { exportTicketPdf } from './export-pdf';

const ACTION_ICONS: Record<TicketAction, ReactNode> = {
  accept: <CheckOutlined />,
  return: <UndoOutlined />,
  transfer: <SwapOutlined />,
  close: <CloseOutlined />,
  ignore: <StopOutlined />,
  reopen: <RedoOutlined />,
};

/** Props of the header. */
export interface TicketHeaderProps {
  ticket: Ticket;
  narrow: boolean;
  onOpenContact(): void;
}

/**
 * The ticket's header (docs/product/tickets-and-inbox.md#screens-and-routes): back to /tickets, the contact (opens the drawer), who holds it, and the
 * actions — accept, resolve, return to queue, transfer, reopen; in the menu the log, PDF export, the bot
 * and integration toggles, and delete (ticket-options:deleteTicket). Features add buttons before the menu
 * through the `ticketHeaderActions` slot.
 */
export function TicketHeader({ ticket, narrow, onOpenContact }: TicketHeaderProps) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const viewer = useViewer();
  const actions = useTicketActions();
  const [toggleBot] = useToggleDisableBotMutation();
  const [updateTicket] = useUpdateTicketMutation();
  const { data: messagePages } = useListMessagesInfiniteQuery(ticket.uuid);
  const busy = actions.busyTicketId === ticket.id;
  const available = ticketActions(ticket, viewer.powers);

  const run: Record<TicketAction, () => void> = {
    accept: () => actions.accept(ticket),
    return: () => actions.returnToQueue(ticket),
    transfer: () => actions.transfer(ticket),
    close: () => actions.resolve(ticket),
    ignore: () => actions.ignore(ticket),
    reopen: () => actions.reopen(ticket),
  };

  const exportPdf = async () => {
    // the transcript is of the conversation on screen: without it there is nothing to export
    if (!document.getElementById(`messagesList-${ticket.id}`)) {
      toast.error(t('tickets.pdf.notFound'));
      return;
    }
    try {
      await exportTicketPdf(ticket, visibleMessages(flattenMessages(messagePages), viewer.settings.hideDeletedMessages), {
        title: t('tickets.pdf.title'),
        generatedAt: t('tickets.pdf.generatedAt'),
        you: t('tickets.messages.you'),
        privateNote: t('tickets.messages.private'),
        deleted: t('tickets.messages.deleted'),
        media: (type) => t(`tickets.messages.media.${type}`),
      });
    } catch {
      toast.error(t('tickets.pdf.notFound'));
    }
  };

  const switchBot = async () => {
    try {
      const { disableBot } = await toggleBot(ticket.contactId).unwrap();
      patchTicketRead(dispatch, ticket.uuid, (draft) => {
        draft.contact.disableBot = disableBot;
      });
      toast.success(disableBot ? t('tickets.header.botDisabled') : t('tickets.header.botEnabled'));
    } catch (error) {
      showError(error);
    }
  };

  const switchIntegration = async () => {
    try {
      await updateTicket({ id: ticket.id, body: { useIntegration: !ticket.useIntegration } }).unwrap();
    } catch (error) {
      showError(error);
    }
  };

  const menu: MenuProps['items'] = [
    { key: 'contact', icon: <IdcardOutlined />, label: t('tickets.header.contact') },
    { key: 'log', icon: <HistoryOutlined />, label: t('tickets.header.log') },
    { key: 'pdf', icon: <FilePdfOutlined />, label: t('tickets.header.pdf') },
    {
      key: 'bot',
      icon: <RobotOutlined />,
      label: ticket.contact.disableBot ? t('tickets.header.enableBot') : t('tickets.header.disableBot'),
    },
    {
      key: 'integration',
      icon: <ApiOutlined />,
      label: ticket.useIntegration ? t('tickets.header.disableIntegration') : t('tickets.header.enableIntegration'),
    },
    ...(viewer.canDeleteTicket
      ? [
          { type: 'divider' as const },
          { key: 'delete', icon: <DeleteOutlined />, danger: true, label: t('tickets.header.delete') },
        ]
      : []),
  ];
  const onMenu = ({ key }: { key: string }) => {
    if (key === 'contact') onOpenContact();
    else if (key === 'log') actions.showLog(ticket);
    else if (key === 'pdf') void exportPdf();
    else if (key === 'bot') void switchBot();
    else if (key === 'integration') void switchIntegration();
    else if (key === 'delete') actions.remove(ticket);
  };

  const holder = ticket.user ? t('tickets.header.assignedTo', { user: ticket.user.name }) : t(`tickets.status.${ticket.status}`);

  return (
    <Flex
      data-testid="ticket-header"
      align="center"
      gap={8}
      style={{ padding: '8px 12px', borderBottom: `1px solid ${token.colorSplit}`, background: token.colorBgContainer }}
    >
      <Tooltip title={t('tickets.header.back')}>
        <Button
          type="text"
          icon={<ArrowLeftOutlined />}
          aria-label={t('tickets.header.back')}
          onClick={() => navigate('/tickets')}
        />
      </Tooltip>
      <button
        type="button"
        onClick={onOpenContact}
        aria-label={t('tickets.header.contact')}
        style={{ all: 'unset', cursor: 'pointer', display: 'flex', alignItems: 'center', gap: 10, flex: 1, minWidth: 0 }}
      >
        <ContactAvatar name={ticket.contact.name} url={ticket.contact.urlPicture} size={40} />
        <span style={{ minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          <Typography.Text strong ellipsis>
            <ChannelIcon channel={ticket.channel} /> {ticket.contact.name}
          </Typography.Text>
          <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
            #{ticket.id} · {holder}
            {ticket.queue ? (
              <Tag color={ticket.queue.color} style={{ marginInlineStart: 6, fontSize: 11, lineHeight: '16px' }}>
                {ticket.queue.name}
              </Tag>
            ) : null}
          </Typography.Text>
        </span>
      </button>
      <Flex gap={4} align="center">
        {available.map((action) => {
          // the main action keeps its label, on a phone too (a bare icon has no hover tooltip to explain it
          // there; it is a small button instead); the others are icons, named by their tooltips
          const labelled = action === 'accept' || action === 'reopen' || action === 'close';
          return (
            <Tooltip key={action} title={labelled ? undefined : t(`tickets.actions.${action}`)}>
              <Button
                size={narrow && labelled ? 'small' : undefined}
                type={labelled ? 'primary' : 'default'}
                danger={action === 'ignore'}
                icon={ACTION_ICONS[action]}
                loading={busy && (action === 'accept' || action === 'reopen' || action === 'return' || action === 'ignore')}
                aria-label={t(`tickets.actions.${action}`)}
                onClick={run[action]}
              >
                {labelled ? t(`tickets.actions.${action}`) : null}
              </Button>
            </Tooltip>
          );
        })}
        <PluginSlot name="ticketHeaderActions" props={{ ticket }} />
        <Dropdown menu={{ items: menu, onClick: onMenu }} trigger={['click']} placement="bottomRight">
          <Button type="text" icon={<MoreOutlined />} aria-label={t('tickets.header.more')} />
        </Dropdown>
      </Flex>
    </Flex>
  );
}
