/**
 * A connection (docs/product/administration.md#entities Connection, the documented `whatsapp` entity) as the API answers it and as
 * its realtime events carry it (docs/product/tickets-and-inbox.md#calls-and-realtime-events): shared by the server, which builds these shapes, and the UI,
 * which imports them as types.
 */
import type { ConnectionProfile, PlanFlag } from '@balcao/plugin-sdk/shared';

/** The channels a connection may be of. */
export const CONNECTION_CHANNELS = ['whatsapp', 'whatsappapi', 'facebook', 'instagram', 'webchat'] as const;
export type ConnectionChannel = (typeof CONNECTION_CHANNELS)[number];

/**
 * The plan flag a channel's connections need, checked on the server when one is created or started
 * (webchat needs none: every plan may put a chat on its own site; docs/channels/connections.md).
 */
export const CHANNEL_PLAN_FLAGS: Record<ConnectionChannel, PlanFlag | null> = {
  whatsapp: 'useWhatsapp',
  whatsappapi: 'useWhatsapp',
  facebook: 'useFacebook',
  instagram: 'useInstagram',
  webchat: null,
};

/** Connection status values (docs/product/administration.md#states-and-transitions). */
export const CONNECTION_STATUSES = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING', 'CONNECTED'] as const;
export type ConnectionStatusValue = (typeof CONNECTION_STATUSES)[number];

/** Statuses that light the side-menu badge of Connections (docs/product/tickets-and-inbox.md#screens-and-routes): anything but CONNECTED. */
export const ATTENTION_STATUSES: readonly ConnectionStatusValue[] = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'];

/** `groupAsTicket` values. */
export type GroupAsTicket = 'disabled' | 'enabled';

/** A queue of a connection, as the list shows it. */
export interface ConnectionQueue {
  id: number;
  name: string;
  color: string;
}

/** A connection as `GET /whatsapp…` answers it and `company-{id}-whatsapp` carries it. */
/** What `GET /whatsapp` answers a user who may not manage connections (the inbox's dialogs and filters). */
export interface ConnectionSummary {
  id: number;
  name: string;
  channel: string;
  status: string;
  isDefault: boolean;
}

export interface ConnectionShape extends Omit<ConnectionProfile, 'channel' | 'status' | 'groupAsTicket'> {
  number: string;
  channel: ConnectionChannel;
  status: ConnectionStatusValue;
  groupAsTicket: GroupAsTicket;
  /** 30 random alphanumerics (docs/product/administration.md#constants-and-limits), regenerable with `POST /whatsapp/:id/token`. */
  token: string;
  flowIdWelcome: number | null;
  flowIdNotPhrase: number | null;
  queues: ConnectionQueue[];
  /** The greeting's media file name, or null. */
  greetingMediaAttachment: string | null;
  /** A signed address of the greeting's media (valid a day), or null. */
  greetingMediaUrl: string | null;
  /** The message import window (WhatsApp): `YYYY-MM-DD` or null. */
  importOldMessages: string | null;
  importRecentMessages: string | null;
  importOldMessagesGroups: boolean;
  closedTicketsPostImported: boolean;
  queueIdImportMessages: number | null;
  statusImportMessages: string | null;
  /** ISO date-time. */
  updatedAt: string;
  qrcode: string;
  /**
   * Why the session stopped by itself, an `ERR_...` code (logged out on the phone, banned, QR codes
   * expired, replaced by another session); null while it runs or after it was stopped by hand.
   */
  sessionError: string | null;
  /** While pairing by phone number (status PAIRING): the code to type on the phone; else null. */
  pairingCode: string | null;
  provider: string;
  retries: number;
  /** The channel's own settings, as its definition lets an admin see them. */
  channelConfig: Record<string, unknown>;
  /** Only with `?session=1`: the channel session's state (its keys never leave the server: null). */
  session?: null;
}

/** A connection of `GET /whatsapp/all/` (super user): with its company. */
export interface ConnectionOfCompany extends ConnectionShape {
  companyName: string;
}

/** The editable fields of a connection (`POST /whatsapp` needs `name` and `channel`; `PUT` takes any). */
export type ConnectionInput = Partial<
  Omit<
    ConnectionShape,
    | 'id'
    | 'companyId'
    | 'number'
    | 'status'
    | 'token'
    | 'queues'
    | 'greetingMediaAttachment'
    | 'greetingMediaUrl'
    | 'statusImportMessages'
    | 'updatedAt'
    | 'qrcode'
    | 'sessionError'
    | 'pairingCode'
    | 'provider'
    | 'retries'
    | 'session'
  >
>;

/** `company-{id}-whatsapp`. */
export type ConnectionEvent = { action: 'update'; whatsapp: ConnectionShape } | { action: 'delete'; whatsappId: number };

/** `company-{id}-whatsappSession`. */
export interface ConnectionSessionEvent {
  action: 'update';
  session: ConnectionShape;
}

/** How far a connection's message import went: `all` messages found so far, `this` many imported, `date` of the last one (ISO). */
export interface ImportProgress {
  all: number;
  this: number;
  date: string | null;
}

/**
 * `importMessages-{companyId}` (docs/product/administration.md#states-and-transitions): `update` moves a connection's import on; `refresh` says
 * the import started or ended (its `statusImportMessages` changed).
 */
export interface ImportProgressEvent {
  action: 'refresh' | 'update';
  status: ImportProgress;
  whatsappId: number;
}
