/**
 * The channel contract (docs/architecture.md#the-channels-plugin): how a channel's driver hands inbound messages to the inbox, and
 * how the inbox hands outbound work to the driver. The inbox module provides the `inbox` service; the
 * channels plugin (and any third-party channel) uses it with `ctx.services.use('inbox')`.
 */
import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { PlanFlag } from '../shared/plan-flags';
import type { SessionUser } from '../shared/session';

/** Ack of a message (docs/product/tickets-and-inbox.md#states-and-transitions): 0 pending, 1 sent, 2 delivered, 3–4 read/played, 5 read. */
export type MessageAck = 0 | 1 | 2 | 3 | 4 | 5;

/** Who a message comes from or goes to, as the channel knows them. */
export interface InboundContact {
  /**
   * Every identifier the channel knows this person by (a phone JID and a LID, a page-scoped id, a webchat
   * visitor id). The inbox finds the contact by any of them and remembers all, so one person stays one
   * contact when the channel switches identifiers.
   */
  identifiers: string[];
  name?: string | null;
  /** Digits of the phone number, when the channel has one. */
  number?: string | null;
  email?: string | null;
  urlPicture?: string | null;
}

/** A file that came with an inbound message. */
export interface InboundMedia {
  data: Readable | Buffer;
  mimetype: string;
  fileName?: string | null;
}

/** One inbound message as a driver reports it: `ctx.services.use('inbox').receive(...)`. */
export interface InboundMessage {
  /**
   * The company of the connection it arrived on (a driver always knows it). `receive` is called outside
   * any request, so it enters this company's tenant scope itself.
   */
  companyId: number;
  /** The connection it arrived on. */
  whatsappId: number;
  /** The channel name (`whatsapp`, `whatsappapi`, `facebook`, `instagram`, `webchat`). */
  channel: string;
  /** The person who wrote it (for a message the company sent from the phone: the other party). */
  contact: InboundContact;
  /** Set when the message was written in a group: the group is the ticket's contact, `contact` the participant. */
  group?: InboundContact;
  message: {
    /** The channel's id of the message: stored once per connection (a redelivery is a no-op). */
    id: string;
    /** Sent by the company from another device (the phone), not by the contact. */
    fromMe?: boolean;
    body?: string;
    /** One of the media types of docs/product/tickets-and-inbox.md#entities (`chat` for plain text). */
    mediaType?: string;
    media?: InboundMedia;
    /** The channel id of the message this one replies to. */
    quotedId?: string | null;
    /** When the channel says it was sent (default now). */
    timestamp?: Date;
    ack?: MessageAck;
    /** The channel's raw payload, kept for drivers (for example to fetch media again). */
    data?: unknown;
  };
  /** The queue a new ticket starts in (a connection with a single queue); default none. */
  queueId?: number | null;
  /**
   * A message brought in from the channel's history (a connection's message import), not one arriving
   * now: it is stored and shown like any other, but starts no automation (`message.received` is not
   * published: no chatbot, no timers, no lane rollback), counts as read and rings no bell.
   */
  imported?: boolean;
}

/** What `receive` did. */
export interface InboundResult {
  contactId: number;
  ticketId: number;
  ticketUuid: string;
  messageId: number;
  /** False when this channel message id was already stored on this connection. */
  created: boolean;
  /** True when the message opened a new ticket. */
  ticketCreated: boolean;
}

/** Where an outbound operation goes. */
export interface OutboundTarget {
  companyId: number;
  whatsappId: number | null;
  channel: string;
  ticket: { id: number; uuid: string; isGroup: boolean };
  contact: { id: number; number: string | null; identifiers: string[] };
}

/** A message to deliver. */
export interface OutboundMessage {
  /** The inbox's message id. */
  messageId: number;
  body: string;
  mediaType: string;
  /** The stored file, for media messages. */
  media?: {
    fileName: string;
    mimetype: string | null;
    /**
     * Where the file is in the company's storage (`ctx.storage.get(companyId, storageKey)`): for a driver
     * that sends later or from another process (a queue of its own) and can't keep `open`.
     */
    storageKey: string;
    open(): Promise<Readable | null>;
  };
  /** The message it replies to, when the channel knows it. */
  quoted?: { channelMessageId: string; fromMe: boolean; body: string } | null;
  /** A contact card to send (vCard text). */
  vCard?: string | null;
  isForwarded?: boolean;
}

/**
 * A channel's outbound side. Throw an `AppError` with a catalogue code (`ERR_SENDING_WAPP_MSG`,
 * `ERR_WAPP_NOT_INITIALIZED` …) on failure: the message is kept with that code, shown to the agent, and
 * can be retried.
 */
export interface ChannelDriver {
  send(target: OutboundTarget, message: OutboundMessage): Promise<{ channelMessageId: string; ack?: MessageAck }>;
  edit?(target: OutboundTarget, channelMessageId: string, body: string): Promise<void>;
  delete?(target: OutboundTarget, channelMessageId: string): Promise<void>;
  react?(target: OutboundTarget, channelMessageId: string, reaction: string): Promise<void>;
  /** Read receipts, sent only when an agent opens the ticket (never on arrival). */
  markRead?(target: OutboundTarget, channelMessageIds: string[]): Promise<void>;
  profilePicture?(whatsappId: number, identifier: string): Promise<string | null>;
  /**
   * Whether each phone number (digits, country code first) has an account on the channel, asked through
   * the connection `whatsappId` (WhatsApp: "is on WhatsApp"), in the order given; null where the channel
   * can't tell now (no session in this process, not connected). Channels without it answer unknown.
   */
  checkNumbers?(whatsappId: number, numbers: string[]): Promise<Array<boolean | null>>;
}

/** One message a product feature sends to a person it knows by phone number (a campaign's recipient). */
export interface StageOutboundItem {
  /** The caller's own key of the item (a campaign's shipping row), handed back with what was staged. */
  key: number;
  /** Digits of the number, country code first. */
  number: string;
  name?: string | null;
  email?: string | null;
  body: string;
  /** A stored file of the company (`ctx.storage`), sent with `body` as its caption. */
  media?: { storageKey: string; fileName: string; mimetype: string | null; mediaType: string } | null;
}

/** How `stageOutbound` places its messages. */
export interface StageOutboundOptions {
  /** The connection every item goes through, and its channel (`ConnectionProfile.channel`). */
  whatsappId: number;
  channel: string;
  /**
   * The ticket made for a person without an active (not closed) ticket on the connection; an active one is
   * reused as it is. `open` needs `userId` (without one the ticket starts `pending`).
   */
  newTicket: { status: 'pending' | 'open' | 'closed'; userId?: number | null; queueId?: number | null };
  /** Which automation sends them (`SystemMessage.automation`), carried by `message.sent`. */
  automation?: string | null;
  /**
   * Runs inside the staging transaction, after the messages are stored and before the commit: the caller
   * records what it staged (its rows' message ids) atomically with the messages. Throwing rolls everything
   * back: nothing is staged.
   */
  link?(trx: Knex.Transaction, staged: StagedOutbound[]): Promise<void>;
}

/** What `stageOutbound` stored for one item. */
export interface StagedOutbound {
  key: number;
  contactId: number;
  ticketId: number;
  messageId: number;
  ticketCreated: boolean;
}

/** The outcome of delivering one stored outbound message (`InboxService.deliver`). */
export interface DeliveryOutcome {
  messageId: number;
  /** `pending`: the message was not found (deleted) or not delivered for a reason the inbox keeps to itself. */
  status: 'sent' | 'failed' | 'pending';
  /** The channel's id of the message once sent. */
  channelMessageId: string | null;
  /** The `ERR_...` code of a failure. */
  error: string | null;
  /**
   * The status of the message's ticket as the delivery read it (after the staging's announcements ran),
   * so that a caller answering it needs no read of its own; absent when the message was not found.
   */
  ticketStatus?: string;
}

/** A message the product itself sends on a ticket (greetings, bot menus, farewells). */
export interface SystemMessage {
  ticketId: number;
  body: string;
  /** The agent it is sent as (signature, logs); default none (the bot). */
  userId?: number | null;
  /**
   * Which automation sent it (`inactivity`, `rating`, `farewell` …), kept with the message and carried by
   * `message.sent`, so that timers can tell the product's own messages apart (an inactivity reminder
   * doesn't restart the inactivity clock). Default none.
   */
  automation?: string | null;
  /**
   * Fill the message variables of docs/product/tickets-and-inbox.md#constants-and-limits (`{{firstName}}`, `{{protocol}}`, `{{queue}}` …) from the
   * ticket, as the inbox fills its own messages; `connection` names the ticket's connection for
   * `{{connection}}`. Default: the body is sent as written.
   */
  variables?: { connection?: { name: string } | null };
  /** A stored file of the company (`ctx.storage`) sent with `body` as its caption (then `body` may be blank). */
  media?: { storageKey: string; fileName: string; mimetype: string | null; mediaType: string } | null;
}

/**
 * The inbox as other features see it. Drivers call it outside any request: every call names the company
 * of its connection (`companyId`) and runs in that company's tenant scope. `send` runs in the caller's
 * scope (product features call it from requests, jobs and event handlers).
 */
export interface InboxService {
  /** The one entry of every inbound message: contact, ticket, message, events — idempotent per channel id. */
  receive(input: InboundMessage): Promise<InboundResult>;
  /**
   * The channel learnt that these identifiers are one person (WhatsApp: a LID and a phone number). A contact
   * known by one of them remembers the others; several contacts known by them become one — the oldest,
   * with everything of the others (tickets, messages, notes, tags). Nothing happens when none is known.
   */
  linkIdentities(input: { companyId: number; channel: string; identifiers: string[] }): Promise<void>;
  /**
   * The channel could not deliver one of its messages after all (a driver whose `send` queued it and
   * answered before it left): the message is marked failed with `error` (an `ERR_...` code), shown to the
   * agent, and can be retried (`POST /messages/:id/retry` calls the driver's `send` again).
   */
  reportDeliveryFailure(input: { companyId: number; whatsappId: number; channelMessageId: string; error: string }): Promise<void>;
  /** The channel reports a new ack for one of its messages. */
  updateAck(input: { companyId: number; whatsappId: number; channelMessageId: string; ack: MessageAck }): Promise<void>;
  /** The contact edited a message on the channel. */
  applyEdit(input: { companyId: number; whatsappId: number; channelMessageId: string; body: string }): Promise<void>;
  /** The contact deleted a message for everyone. */
  applyDelete(input: { companyId: number; whatsappId: number; channelMessageId: string }): Promise<void>;
  /** A reaction arrived (an empty `type` removes the sender's reaction). */
  applyReaction(input: {
    companyId: number;
    whatsappId: number;
    channelMessageId: string;
    type: string;
    fromMe: boolean;
    contactIdentifier?: string;
  }): Promise<void>;
  /** Sends a message on a ticket as the product (stored, delivered through the driver, emitted). */
  send(input: SystemMessage): Promise<{ messageId: number }>;
  /** Registers the driver of a channel; returns the unregister function. */
  registerDriver(channel: string, driver: ChannelDriver): () => void;
  /**
   * Changes a ticket as the product itself does it (the chatbot, queue rotation), in the caller's tenant
   * scope: no viewer and no transition rules, the given log entries written with the change, the entitled
   * users told and `ticket.updated` published. Answers false, changing nothing, when the ticket doesn't
   * exist in the company or no longer matches `expect` (an agent took it meanwhile).
   */
  applyTicketChange(change: SystemTicketChange): Promise<boolean>;
  /**
   * Records, in the caller's tenant scope, that a contact accepted the processing of their data (LGPD
   * consent): sets `lgpdAcceptedAt` to `at` (default now) unless it is set already (the first acceptance
   * is kept), tells the company's users and publishes `contact.updated`. False when the contact doesn't
   * exist in the company.
   */
  recordLgpdConsent(contactId: number, at?: Date): Promise<boolean>;
  /**
   * Stores outbound messages to people known by phone number, in the caller's tenant scope and in one
   * transaction: each person's contact (found by number, else made), the ticket the message goes on (their
   * active ticket on the connection, else a new one as `options.newTicket` says) and the message, stored
   * pending like an agent's — but not queued for delivery: the caller delivers them with `deliver`, whose
   * answer carries the channel's message id. `options.link` joins the caller's own writes to the same
   * transaction, so a message exists exactly when the caller's record of it does. After the commit the
   * entitled users are told and `ticket.created` / `message.sent` are published, as for an agent's message.
   */
  stageOutbound(items: StageOutboundItem[], options: StageOutboundOptions): Promise<StagedOutbound[]>;
  /**
   * Delivers stored outbound messages of the caller's company now, in this process, through their
   * channel's driver — the very step of the inbox's own delivery job (outcome stored on the message, the
   * agents told) — and answers each outcome in the order given. A message already sent is not sent again:
   * its stored channel id is answered. The driver receives the same `messageId` on every try: that id is
   * the idempotency key a channel keeps one message per (WhatsApp's message id is derived from it), so a
   * delivery repeated after a crash between the channel's acceptance and its record is one message.
   */
  deliver(messageIds: number[]): Promise<DeliveryOutcome[]>;
  /**
   * Asks the channel's driver whether phone numbers have an account on it (`ChannelDriver.checkNumbers`),
   * through the connection; null for each number where it can't tell (or has no such check).
   */
  checkNumbers(input: { whatsappId: number; channel: string; numbers: string[] }): Promise<Array<boolean | null>>;
  /**
   * Whether `user` may see the ticket — the inbox's one visibility rule (docs/product/roles-and-permissions.md#roles-in-the-inbox: their own tickets, the
   * unassigned ones of their queues, queue-less ones with allTicket, groups only with allowGroup; admins
   * and allUserChat users everything). Every route that acts on a ticket applies it and answers a ticket
   * the user can't see as absent (404 `ERR_NO_TICKET_FOUND`). False when the ticket isn't the user's
   * company's.
   */
  canSeeTicket(user: SessionUser, ticketId: number): Promise<boolean>;
  /**
   * The same rule as a condition of a feature's own query of tickets: adds to `query` that the `tickets`
   * row aliased `alias` is one `user` may see (nothing for those who see every ticket) and answers `query`.
   * It selects exactly the tickets `canSeeTicket` allows, so a list a feature reads (the kanban board) shows
   * what the inbox would; the query still filters the company itself.
   */
  whereCanSeeTicket<Query extends Knex.QueryBuilder>(query: Query, user: SessionUser, alias: string): Query;
  /**
   * The ids of the company's users who may see the ticket (the same rule), for events about it that a
   * feature sends itself (`ctx.realtime.emit(..., { rooms: ids.map(ROOMS.user) })`); empty when the ticket
   * doesn't exist in the company. Membership is cached for a few seconds, as for the inbox's own events.
   */
  ticketAudience(companyId: number, ticketId: number): Promise<number[]>;
}

/** A change the product makes to a ticket (`InboxService.applyTicketChange`). */
export interface SystemTicketChange {
  ticketId: number;
  status?: 'pending' | 'open' | 'closed' | 'lgpd' | 'nps';
  queueId?: number | null;
  userId?: number | null;
  isBot?: boolean;
  amountUsedBotQueues?: number;
  useIntegration?: boolean;
  integrationId?: number | null;
  /** Ticket log entries (docs/product/tickets-and-inbox.md#entities types: `chatBot`, `queue`, `open`, `closed`, `redirect` …). */
  logs?: Array<{ type: string; userId?: number | null; queueId?: number | null }>;
  /** Apply only while the ticket still has these values (checked under a row lock). */
  expect?: { status?: string; queueId?: number | null; userId?: number | null };
}

/** The status values of a connection (docs/product/administration.md#states-and-transitions). */
export type ConnectionSessionStatus = 'qrcode' | 'PAIRING' | 'DISCONNECTED' | 'TIMEOUT' | 'OPENING' | 'CONNECTED';

/** A connection as a channel of another feature sees it when asked to start, stop or remove it. */
export interface ChannelConnectionInfo {
  id: number;
  companyId: number;
  name: string;
  channel: string;
  status: ConnectionSessionStatus;
  /** The channel's own settings, as `prepareConfig` left them. */
  channelConfig: Record<string, unknown>;
}

/** Which connection a channel's settings are being prepared for (`connectionId` null: a new one). */
export interface ChannelConfigScope {
  companyId: number;
  connectionId: number | null;
}

/**
 * A channel that a feature other than the channels plugin brings (the Meta channels): its connections are
 * created, listed, started and stopped by the channels plugin's routes, which call these hooks. Each hook
 * runs with the registering feature's own context (captured when it registers), never the caller's.
 */
export interface ChannelRegistration {
  /** The `channel` value of its connections (`whatsappapi`, `facebook`, `instagram` …). */
  channel: string;
  /** Checked on the server when a connection of this channel is created or started; none: every plan. */
  planFlag?: PlanFlag;
  /**
   * Validates and completes the channel's settings of a connection being created or saved (throw an
   * AppError with an `ERR_...` code); the result is stored as the connection's `channelConfig`. It runs
   * inside the save's transaction: keep it short.
   */
  prepareConfig?(
    input: Record<string, unknown>,
    previous: Record<string, unknown> | null,
    scope: ChannelConfigScope,
  ): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** What of `channelConfig` an admin may see (secrets masked or left out). Default: all. */
  publicConfig?(config: Record<string, unknown>): Record<string, unknown>;
  /** Starts the connection (checks its credentials); resolves to its new status. */
  start(connection: ChannelConnectionInfo): Promise<ConnectionSessionStatus>;
  /** Ends it; resolves to its new status (normally DISCONNECTED). */
  stop(connection: ChannelConnectionInfo): Promise<ConnectionSessionStatus>;
  /** The connection is being deleted: drop what the channel keeps for it. */
  remove?(connection: ChannelConnectionInfo): Promise<void>;
  /** The inbox's outbound side. */
  driver: ChannelDriver;
}

/** What a channel may change of one of its connections by itself (a token revoked, a number learnt). */
export interface ChannelStatusPatch {
  status?: ConnectionSessionStatus;
  /** The number, page or account the connection is. */
  number?: string;
  /** Why the connection stopped by itself (an `ERR_...` code), or null to clear it. */
  sessionError?: string | null;
}

/** A new connection a channel creates itself (the Facebook page-token flow: one per page chosen). */
export interface ChannelConnectionDraft {
  companyId: number;
  channel: string;
  name: string;
  /** The page or account it is. */
  number?: string;
  /** Passed through the channel's own `prepareConfig`. */
  channelConfig: Record<string, unknown>;
  status?: ConnectionSessionStatus;
}

/**
 * The channels plugin as other features see it (`ctx.services.use('channels')`): the registry of channel
 * drivers and the connections' session fields.
 */
export interface ChannelsService {
  /** Registers a channel (its connections' life cycle and its driver with the inbox); returns the unregister function. */
  register(channel: ChannelRegistration): () => void;
  /**
   * Changes a connection's session fields as the channel learns them, tells the company's screens and
   * drops the cached profile. Refuses (ERR_NO_WAPP_FOUND) a connection that isn't the company's.
   */
  updateStatus(companyId: number, connectionId: number, patch: ChannelStatusPatch): Promise<void>;
  /**
   * Creates a connection of a registered channel as an admin's `POST /whatsapp` would (plan flag,
   * connection limit, the channel's `prepareConfig`), and tells the company's screens; answers its id.
   */
  createConnection(draft: ChannelConnectionDraft): Promise<number>;
}

declare module './events' {
  interface BalcaoServices {
    inbox: InboxService;
    /** Provided by the channels plugin. */
    channels: ChannelsService;
  }

  interface BalcaoEvents {
    /** An inbound message was stored (published once per channel message). */
    'message.received': {
      companyId: number;
      ticketId: number;
      messageId: number;
      contactId: number;
      whatsappId: number;
      fromMe: boolean;
      ticketCreated: boolean;
      /** The message's text as stored (menus read the contact's answer without a query). */
      body: string;
      /**
       * The ticket as the message found it, so that handlers can skip without reading it (the bus runs
       * them inside `receive`: every query here is paid by every inbound message).
       */
      ticket: { status: string; userId: number | null; queueId: number | null; isGroup: boolean };
    };
    /**
     * An outbound message was stored on a ticket (an agent's `POST /messages`, a forward, or the product's
     * `send`), published once per message after it is queued for delivery; private notes never. Timers
     * of the conversation (inactivity, expiry, rating) restart from it.
     */
    'message.sent': {
      companyId: number;
      ticketId: number;
      messageId: number;
      whatsappId: number | null;
      /** The agent who wrote it; null: the product. */
      userId: number | null;
      /** `SystemMessage.automation` of a product message; null otherwise. */
      automation: string | null;
      /** The ticket as the message found it (handlers skip without reading it). */
      ticket: { status: string; isGroup: boolean };
    };
    /** A ticket was created (inbound, by an agent, by a forward). */
    'ticket.created': {
      companyId: number;
      ticketId: number;
      /** Its state as created, so that handlers can skip without reading it. */
      status: string;
      whatsappId: number | null;
      isGroup: boolean;
    };
    /** A ticket changed status, user or queue. */
    'ticket.updated': {
      companyId: number;
      ticketId: number;
      status: string;
      previousStatus: string;
      userId: number | null;
      queueId: number | null;
      /** The ticket's connection and kind, so that handlers can skip without reading it. */
      whatsappId: number | null;
      isGroup: boolean;
    };
    'contact.updated': { companyId: number; contactId: number };
    /**
     * The product handed a ticket to a queue integration (`useIntegration` on, `integrationId` set): the
     * chatbot's integration option was chosen, or the ticket entered a queue with an `integrationId`. The
     * integrations feature opens the conversation (a Typebot greets at once).
     */
    'ticket.integrationStarted': {
      companyId: number;
      ticketId: number;
      integrationId: number;
      /** The customer message that led to the hand-off (the integration doesn't answer it); null: none. */
      messageId: number | null;
    };
    /** A tag was created, changed or deleted (`/tags`): its kanban fields (lanes) may have changed. */
    'tag.changed': { companyId: number; tagId: number };
    /**
     * A ticket's own tags changed through `PUT /ticket-tags/:ticketId/:tagId` or `DELETE /ticket-tags/:ticketId`
     * (a kanban move is the DELETE then the PUT). `userId`: who did it.
     */
    'ticket.tagsChanged': {
      companyId: number;
      ticketId: number;
      addedTagIds: number[];
      removedTagIds: number[];
      userId: number | null;
    };
  }
}
