import type { Knex } from 'knex';
import type { ContactSummary, Ticket } from '../../shared/types';

/** A phone number as a masked viewer sees it: only the last 2 digits (docs/product/roles-and-permissions.md#roles-in-the-inbox, LGPD). */
export function maskNumber(number: string | null): string | null {
  if (!number) return number;
  return `${'*'.repeat(Math.max(0, number.length - 2))}${number.slice(-2)}`;
}

/** Whether numbers are masked for this viewer: profile users when LGPD and hide-number are enabled. */
export function masksNumbers(profile: 'admin' | 'user', settings: Record<string, string>): boolean {
  return profile === 'user' && settings.enableLGPD === 'enabled' && settings.lgpdHideNumber === 'enabled';
}

/** A contact summary with its number masked (groups excepted). */
export function maskContact<C extends { number: string | null; isGroup: boolean }>(contact: C): C {
  return contact.isGroup ? contact : { ...contact, number: maskNumber(contact.number) };
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

/** The raw row the ticket query returns. */
export interface TicketRow {
  id: number;
  uuid: string;
  status: Ticket['status'];
  channel: Ticket['channel'];
  isGroup: boolean;
  isBot: boolean;
  queueId: number | null;
  userId: number | null;
  contactId: number;
  whatsappId: number | null;
  lastMessage: string;
  unreadMessages: number;
  useIntegration: boolean;
  amountUsedBotQueues: number;
  createdAt: Date;
  updatedAt: Date;
  contactJson: ContactSummary;
  queueJson: Ticket['queue'];
  userJson: Ticket['user'];
  tagsJson: Ticket['tags'];
  rate: number | null;
}

/**
 * The API's ticket shape (docs/product/tickets-and-inbox.md#entities Ticket) as SQL columns over a ticket row `t` joined as
 * `TICKET_ROW_JOINS` does: contact, queue, user, the ticket's and its contact's tags (their ids are on the
 * ticket's row, migration 0003), and the rating.
 * One text for the builder (`ticketRowsQuery`) and for statements that can't use it (a CTE's
 * `UPDATE tickets … RETURNING`, whose values are the updated ones). Keys are snake_case: raw results are
 * camelized into a `TicketRow` by the caller, builder results by knex.
 */
export const TICKET_ROW_COLUMNS = `t.id, t.uuid, t.status, t.channel, t.is_group, t.is_bot, t.queue_id, t.user_id,
  t.contact_id, t.whatsapp_id, t.last_message, t.unread_messages, t.use_integration, t.amount_used_bot_queues,
  t.created_at, t.updated_at, r.rate,
  json_build_object('id', c.id, 'name', c.name, 'number', c.number, 'email', c.email,
    'urlPicture', c.url_picture, 'isGroup', c.is_group, 'channel', c.channel, 'disableBot', c.disable_bot,
    'active', c.active) AS contact_json,
  CASE WHEN q.id IS NULL THEN NULL ELSE json_build_object('id', q.id, 'name', q.name, 'color', q.color) END AS queue_json,
  CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'name', u.name) END AS user_json,
  CASE WHEN cardinality(t.tag_ids) = 0 THEN '[]'::json ELSE
    coalesce((SELECT json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) ORDER BY tg.name)
      FROM tags tg WHERE tg.company_id = t.company_id AND tg.id = ANY(t.tag_ids)), '[]'::json) END AS tags_json`;

/** The joins `TICKET_ROW_COLUMNS` reads, after a ticket row `t`. */
export const TICKET_ROW_JOINS = `JOIN contacts c ON c.id = t.contact_id
  LEFT JOIN queues q ON q.id = t.queue_id
  LEFT JOIN users u ON u.id = t.user_id
  LEFT JOIN ticket_ratings r ON r.ticket_id = t.id`;

/**
 * The select of the API's ticket shape over `tickets as t` of a company, without choosing which tickets.
 * `loadTickets` narrows it to ids; a list may narrow it to its page in the same statement (rows map with
 * `ticketFromRow`).
 */
export function ticketRowsQuery(knex: Knex, companyId: number): Knex.QueryBuilder {
  return knex('tickets as t').where('t.companyId', companyId).joinRaw(TICKET_ROW_JOINS).select(knex.raw(TICKET_ROW_COLUMNS));
}

/**
 * Loads tickets as the API shows them, in the order of `ids`, in one query. `mask` hides contact numbers.
 */
export async function loadTickets(knex: Knex, companyId: number, ids: number[], mask = false): Promise<Ticket[]> {
  if (ids.length === 0) return [];
  const rows = (await ticketRowsQuery(knex, companyId)
    // one array parameter and a fixed name: the statement is prepared once per connection, its plan reused
    .whereRaw('t.id = ANY(?::int[])', [ids])
    .options({ name: 'inbox_load_tickets' })) as TicketRow[];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [ticketFromRow(row, mask)] : [];
  });
}

/** A row of `ticketRowsQuery` as the API shows it. */
export function ticketFromRow(row: TicketRow, mask: boolean): Ticket {
  return {
    id: row.id,
    uuid: row.uuid,
    status: row.status,
    channel: row.channel,
    isGroup: row.isGroup,
    isBot: row.isBot,
    queueId: row.queueId,
    queue: row.queueJson,
    userId: row.userId,
    user: row.userJson,
    contactId: row.contactId,
    contact: mask ? maskContact(row.contactJson) : row.contactJson,
    whatsappId: row.whatsappId,
    // connections belong to the channels plugin; until a connection lookup is registered there is none
    whatsapp: null,
    lastMessage: row.lastMessage,
    unreadMessages: row.unreadMessages,
    tags: row.tagsJson,
    userRating: row.rate === null ? null : { rate: row.rate },
    useIntegration: row.useIntegration,
    amountUsedBotQueues: row.amountUsedBotQueues,
    createdAt: iso(row.createdAt) as string,
    updatedAt: iso(row.updatedAt) as string,
  };
}

/** One ticket, or null when it doesn't exist in the company. */
export async function loadTicket(knex: Knex, companyId: number, id: number, mask = false): Promise<Ticket | null> {
  const [ticket] = await loadTickets(knex, companyId, [id], mask);
  return ticket ?? null;
}
