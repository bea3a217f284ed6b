import type { Message, QuickMessage, Ticket } from '../../../shared/types';
import type { ListViewer, TicketPages } from '../logic/ticket-list';

/** A ticket as `GET /tickets` answers it, for tests. */
export function makeTicket(id: number, fields: Partial<Ticket> = {}): Ticket {
  return {
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    status: 'open',
    channel: 'whatsapp',
    isGroup: false,
    isBot: false,
    queueId: 1,
    queue: { id: 1, name: 'Vendas', color: '#00AA00' },
    userId: 7,
    user: { id: 7, name: 'Ana' },
    contactId: 100 + id,
    contact: {
      id: 100 + id,
      name: `Contato ${id}`,
      number: '5511999990000',
      email: null,
      urlPicture: null,
      isGroup: false,
      channel: 'whatsapp',
      disableBot: false,
      active: true,
    },
    whatsappId: 1,
    whatsapp: { id: 1, name: 'Comercial', groupAsTicket: 'disabled' },
    lastMessage: 'Olá',
    unreadMessages: 0,
    tags: [],
    userRating: null,
    useIntegration: false,
    amountUsedBotQueues: 0,
    createdAt: '2024-05-01T10:00:00.000Z',
    updatedAt: '2024-05-01T10:00:00.000Z',
    ...fields,
  };
}

/** A message, for tests. */
export function makeMessage(id: number, fields: Partial<Message> = {}): Message {
  return {
    id,
    body: `mensagem ${id}`,
    fromMe: false,
    ack: 0,
    mediaType: 'chat',
    mediaUrl: null,
    mediaName: null,
    isDeleted: false,
    isEdited: false,
    isForwarded: false,
    isPrivate: false,
    quotedMsgId: null,
    quotedMsg: null,
    reactions: [],
    sendStatus: 'sent',
    sendError: null,
    ticketId: 1,
    contactId: 101,
    contact: { id: 101, name: 'Contato 1', urlPicture: null },
    userId: null,
    queueId: 1,
    createdAt: '2024-05-01T10:00:00.000Z',
    updatedAt: '2024-05-01T10:00:00.000Z',
    ...fields,
  };
}

/** The agent Ana (id 7) of queues 1 and 2, for list rules. */
export const ANA: ListViewer = { id: 7, isAdmin: false, queueIds: [1, 2], allTicket: false, allowGroup: false };

/** Cached list pages, for the patching reducers. */
export function pagesOf(...pages: Array<{ tickets: Ticket[]; hasMore?: boolean; count?: number }>): TicketPages {
  return {
    pages: pages.map((page) => ({
      tickets: page.tickets,
      hasMore: page.hasMore ?? false,
      count: page.count ?? page.tickets.length,
    })),
    pageParams: pages.map((_, index) => index + 1),
  };
}

/** A quick message as `GET /quick-messages` answers it, for tests: active, private, no media. */
export function makeQuickMessage(id: number, shortcode: string, fields: Partial<QuickMessage> = {}): QuickMessage {
  return {
    id,
    shortcode,
    message: 'Olá',
    geral: false,
    visao: true,
    status: true,
    userId: 1,
    isMedia: false,
    mediaPath: null,
    mediaName: null,
    mediaUrl: null,
    ...fields,
  };
}
