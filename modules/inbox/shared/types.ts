/**
 * The inbox's JSON shapes, as the HTTP API answers them and the realtime events carry them (docs/product/tickets-and-inbox.md#entities,
 * docs/product/tickets-and-inbox.md#calls-and-realtime-events; docs/product/administration.md#entities Tag; docs/product/automation.md#entities Quick message). Shared by the server's serializers and
 * the UI, so both sides read one definition.
 */

export const TICKET_STATUSES = ['pending', 'open', 'closed', 'group', 'lgpd', 'nps'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/**
 * The rating modal's choices when resolving a ticket the rating applies to (docs/product/tickets-and-inbox.md
 * "Validation" Rating, docs/inbox-api.md "Transitions"): `nps` asks the contact for a 0–10 rating before the
 * ticket closes, `none` closes it without asking.
 */
export const RATING_CHOICES = ['nps', 'none'] as const;
export type RatingChoice = (typeof RATING_CHOICES)[number];

/** Channels a ticket or contact can come from (webchat: the embeddable chat widget). */
export const CHANNELS = ['whatsapp', 'whatsappapi', 'facebook', 'instagram', 'webchat'] as const;
export type Channel = (typeof CHANNELS)[number];

export const MEDIA_TYPES = [
  'chat',
  'image',
  'audio',
  'video',
  'application',
  'locationMessage',
  'contactMessage',
  'adMetaPreview',
  'call_log',
  'template',
  'reactionMessage',
] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** Ack of a message (docs/product/tickets-and-inbox.md#states-and-transitions): 0 pending, 1 sent, 2 delivered, 3–4 read/played, 5 read. */
export type Ack = 0 | 1 | 2 | 3 | 4 | 5;

/** Delivery of an outbound message through its channel driver; a failed one can be retried. */
export type SendStatus = 'pending' | 'sent' | 'failed';

export const TICKET_LOG_TYPES = [
  'create',
  'chatBot',
  'queue',
  'open',
  'access',
  'transfered',
  'receivedTransfer',
  'pending',
  'closed',
  'reopen',
  'redirect',
  // a move between kanban lanes (the kanban plugin writes it)
  'lane',
  // LGPD consent (the chatbot): asked (the ticket waits in status lgpd), accepted, refused (the ticket closes)
  'lgpd',
  'lgpdAccepted',
  'lgpdRefused',
  // the conversation's automation (channels plugin: docs/channels/lifecycle.md)
  'nps',
  'rated',
  'inactive',
  'expired',
] as const;
export type TicketLogType = (typeof TICKET_LOG_TYPES)[number];

export interface TagRef {
  id: number;
  name: string;
  color: string;
}

export interface QueueRef {
  id: number;
  name: string;
  color: string;
}

export interface UserRef {
  id: number;
  name: string;
}

export interface ContactExtraInfo {
  id?: number;
  name: string;
  value: string;
}

export interface Contact {
  id: number;
  name: string;
  /** Masked to its last 2 digits for a profile user when lgpdHideNumber is on (groups excepted). */
  number: string | null;
  email: string | null;
  active: boolean;
  disableBot: boolean;
  acceptAudioMessage: boolean;
  lgpdAcceptedAt: string | null;
  urlPicture: string | null;
  isGroup: boolean;
  channel: Channel;
  whatsappId: number | null;
  whatsapp: { id: number; name: string } | null;
  extraInfo: ContactExtraInfo[];
  tags: TagRef[];
  createdAt: string;
  updatedAt: string;
}

/** The contact as a ticket or message carries it. */
export interface ContactSummary {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
  urlPicture: string | null;
  isGroup: boolean;
  channel: Channel;
  disableBot: boolean;
  active: boolean;
}

export interface Ticket {
  id: number;
  uuid: string;
  status: TicketStatus;
  channel: Channel;
  isGroup: boolean;
  isBot: boolean;
  queueId: number | null;
  queue: QueueRef | null;
  userId: number | null;
  user: UserRef | null;
  contactId: number;
  contact: ContactSummary;
  whatsappId: number | null;
  whatsapp: { id: number; name: string; groupAsTicket: 'enabled' | 'disabled' } | null;
  lastMessage: string;
  unreadMessages: number;
  /** Ticket tags and its contact's tags, without repeats. */
  tags: TagRef[];
  userRating: { rate: number } | null;
  useIntegration: boolean;
  amountUsedBotQueues: number;
  createdAt: string;
  updatedAt: string;
}

export interface MessageReaction {
  type: string;
  fromMe: boolean;
  userId: number | null;
  contactId: number | null;
}

export interface Message {
  id: number;
  body: string;
  fromMe: boolean;
  ack: Ack;
  mediaType: MediaType;
  /** A signed address of the file (valid for a day), or null. */
  mediaUrl: string | null;
  mediaName: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  isForwarded: boolean;
  isPrivate: boolean;
  quotedMsgId: number | null;
  quotedMsg: Omit<Message, 'quotedMsg'> | null;
  reactions: MessageReaction[];
  sendStatus: SendStatus;
  /** The error code of the last failed delivery (ERR_SENDING_WAPP_MSG, ERR_WAPP_NOT_INITIALIZED …). */
  sendError: string | null;
  ticketId: number;
  contactId: number | null;
  contact: { id: number; name: string; urlPicture: string | null } | null;
  userId: number | null;
  queueId: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface TicketNote {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  userId: number | null;
  user: { name: string } | null;
  createdAt: string;
  updatedAt: string;
}

export interface TicketLog {
  id: number;
  type: TicketLogType;
  ticketId: number;
  user: UserRef | null;
  queue: QueueRef | null;
  createdAt: string;
}

export interface Tag {
  id: number;
  name: string;
  color: string;
  kanban: 0 | 1;
  userId: number | null;
  timeLane: number | null;
  nextLaneId: number | null;
  greetingMessageLane: string | null;
  rollbackLaneId: number | null;
  /** Count of tickets carrying the tag. */
  ticketTags: number;
  /** Count of contacts carrying the tag. */
  contacts: number;
}

export interface QuickMessage {
  id: number;
  shortcode: string;
  message: string;
  geral: boolean;
  visao: boolean;
  status: boolean;
  userId: number | null;
  isMedia: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  /** Signed address of the attachment, when there is one. */
  mediaUrl: string | null;
}

export interface Queue {
  id: number;
  name: string;
  color: string;
  /** Position in menus and the chatbot's list (nulls last). */
  orderQueue: number | null;
  greetingMessage: string | null;
}

/** A user as GET /users/list answers it (for transfer and filters). */
export interface UserListItem {
  id: number;
  name: string;
  email: string;
  profile: 'admin' | 'user';
  online: boolean;
  queues: QueueRef[];
}

/** Realtime payloads (docs/product/tickets-and-inbox.md#realtime-events). */
export type TicketEvent =
  | { action: 'update'; ticket: Ticket }
  /** The ticket left this user's lists (transferred away, or no longer visible to them). */
  | { action: 'removeFromList'; ticketId: number }
  | { action: 'delete'; ticketId: number };

export type AppMessageEvent =
  | { action: 'create'; message: Message; ticket: Ticket; contact: ContactSummary }
  | { action: 'update'; message: Message }
  | { action: 'delete'; messageId: number; ticketId: number };

export type ContactEvent = { action: 'update'; contact: Contact } | { action: 'delete'; contactId: number };

/** `company{id}-tag` (docs/product writes this one without a hyphen). */
export type TagEvent = { action: 'create' | 'update'; tag: Tag } | { action: 'delete'; tagId: number };

/** `company-{id}-quickemessage`. */
export type QuickMessageEvent = { action: 'create' | 'update'; record: QuickMessage } | { action: 'delete'; id: number };

/** GET /tickets/u/{uuid} and POST /tickets's existing-ticket refusal body (docs/product/tickets-and-inbox.md#calls-and-realtime-events). */
export interface ExistingTicketInfo {
  userId: number | null;
  userName: string | null;
  queueName: string | null;
  uuid: string;
  status: TicketStatus;
}

/**
 * Rows per page of GET /tickets (docs/product/tickets-and-inbox.md#calls-and-realtime-events leaves it open): 25 fill two to three heights of the list on a
 * large screen, and the next page loads as the list nears its end. Every ticket of a page is a third of the
 * page's cost (docs/benchmarks.md, "Inbox"), and the first page is what every agent waits for.
 */
export const TICKETS_PAGE_SIZE = 25;
/** Rows per page of GET /messages/{ticketUuid}. */
export const MESSAGES_PAGE_SIZE = 30;
/** Rows per page of contacts, tags and quick messages lists. */
export const LIST_PAGE_SIZE = 40;
/** Edit window of an own message (docs/product/tickets-and-inbox.md#constants-and-limits). */
export const EDIT_WINDOW_MS = 900_000;
/** Pause between forwarded messages (docs/product/tickets-and-inbox.md#constants-and-limits). */
export const FORWARD_PAUSE_MS = 900;
