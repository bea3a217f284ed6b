import { companyEvent, type PluginContext, ROOMS } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import type { MomentsEvent, MomentTicket, MomentUser } from '../../shared/types';

/**
 * Moments, the live attendance panel (docs/product/tickets-and-inbox.md#screens-and-routes): the company's tickets in attendance (a card per agent)
 * and waiting (the Pending card), read from the inbox's `tickets`, `contacts`, `users`, `queues` and this
 * module's running cycles (since when each waits or is attended), and kept live over the company's socket
 * (`company-{id}-moments`) for the users allowed to see the panel.
 */

/** Statuses the panel shows: attended (an agent's card) and waiting (the Pending card). */
export const MOMENT_STATUSES = ['open', 'group', 'pending', 'lgpd', 'nps'] as const;
/** The most tickets a panel loads. */
export const MOMENTS_LIMIT = 2000;

const MOMENT_SELECT = `
  SELECT t.id, t.uuid, t.status, t.is_group, t.last_message,
         to_char(t.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at,
         to_char(coalesce(CASE WHEN t.status IN ('open', 'group') THEN ic.accepted_at END, ic.started_at, t.created_at)
                 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS since,
         c.id AS contact_id, c.name AS contact_name, c.url_picture,
         u.id AS user_ref, u.name AS user_name, q.id AS queue_ref, q.name AS queue_name, q.color AS queue_color
  FROM tickets t
  JOIN contacts c ON c.id = t.contact_id
  LEFT JOIN users u ON u.id = t.user_id
  LEFT JOIN queues q ON q.id = t.queue_id
  LEFT JOIN LATERAL (SELECT started_at, accepted_at FROM insight_cycles WHERE ticket_id = t.id ORDER BY seq DESC LIMIT 1) ic ON true`;

interface MomentRow {
  id: number;
  uuid: string;
  status: string;
  is_group: boolean;
  last_message: string;
  updated_at: string;
  since: string;
  contact_id: number;
  contact_name: string;
  url_picture: string | null;
  user_ref: number | null;
  user_name: string | null;
  queue_ref: number | null;
  queue_name: string | null;
  queue_color: string | null;
}

function momentOf(row: MomentRow): MomentTicket {
  return {
    id: row.id,
    uuid: row.uuid,
    status: row.status,
    isGroup: row.is_group,
    contact: { id: row.contact_id, name: row.contact_name, urlPicture: row.url_picture },
    user: row.user_ref === null ? null : { id: row.user_ref, name: row.user_name ?? '' },
    queue: row.queue_ref === null ? null : { id: row.queue_ref, name: row.queue_name ?? '', color: row.queue_color ?? '' },
    lastMessage: row.last_message,
    since: row.since,
    updatedAt: row.updated_at,
  };
}

export interface MomentsFilter {
  statuses: string[];
  queueIds?: number[];
  userId?: number;
  /** Only tickets active since this instant (default: the last 30 days). */
  since: Date;
  until?: Date;
}

/** `GET /dashboard/moments`: the panel's tickets, the longest waiting first. */
export async function readMoments(knex: Knex, companyId: number, filter: MomentsFilter): Promise<MomentTicket[]> {
  const where = ['t.company_id = :company', 't.status = ANY(:statuses::text[])', 't.updated_at >= :since'];
  const bindings: Record<string, unknown> = { company: companyId, statuses: filter.statuses, since: filter.since };
  if (filter.until) {
    where.push('t.updated_at <= :until');
    bindings.until = filter.until;
  }
  if (filter.queueIds?.length) {
    where.push('t.queue_id = ANY(:queueIds::int[])');
    bindings.queueIds = filter.queueIds;
  }
  if (filter.userId !== undefined) {
    where.push('t.user_id = :userId');
    bindings.userId = filter.userId;
  }
  const result = await knex.raw(
    `${MOMENT_SELECT} WHERE ${where.join(' AND ')} ORDER BY t.updated_at DESC, t.id DESC LIMIT ${MOMENTS_LIMIT}`,
    bindings,
  );
  return (result.rows as MomentRow[]).map(momentOf).sort((a, b) => a.since.localeCompare(b.since) || a.id - b.id);
}

/**
 * Some tickets as the panel shows them, by id: null for each one not on the panel (closed, deleted, another
 * company). One query for a burst of changes (a campaign's batch makes hundreds of tickets at once).
 */
export async function readMomentsById(
  knex: Knex,
  companyId: number,
  ticketIds: number[],
): Promise<Map<number, MomentTicket | null>> {
  const result = await knex.raw(`${MOMENT_SELECT} WHERE t.company_id = :company AND t.id = ANY(:tickets::int[])`, {
    company: companyId,
    tickets: ticketIds,
  });
  const byId = new Map<number, MomentTicket | null>(ticketIds.map((id) => [id, null]));
  for (const row of result.rows as MomentRow[]) {
    if ((MOMENT_STATUSES as readonly string[]).includes(row.status)) byId.set(row.id, momentOf(row));
  }
  return byId;
}

/** One ticket as the panel shows it, or null when it is not on the panel (closed, deleted, another company). */
export async function readMoment(knex: Knex, companyId: number, ticketId: number): Promise<MomentTicket | null> {
  return (await readMomentsById(knex, companyId, [ticketId])).get(ticketId) ?? null;
}

/** `GET /usersMoments`: the company's users with their online state, by name. */
export async function readMomentUsers(knex: Knex, companyId: number): Promise<MomentUser[]> {
  return (await knex('users').where({ companyId }).orderBy('name').select('id', 'name', 'profile', 'online')) as MomentUser[];
}

/** Who may watch the panel: admins, the super user and profile users with allowRealTime. */
async function panelViewers(knex: Knex, companyId: number): Promise<number[]> {
  const rows = (await knex('users')
    .where({ companyId })
    .where((query) => query.where('profile', 'admin').orWhere('super', true).orWhere('allowRealTime', 'enabled'))
    .select('id')) as Array<{ id: number }>;
  return rows.map((row) => row.id);
}

/** Viewers per company, kept a few seconds (a burst of ticket changes reads them once). */
export class MomentsAudience {
  private readonly cache = new Map<number, { at: number; ids: Promise<number[]> }>();

  constructor(
    private readonly knex: Knex,
    private readonly ttlMs = 5_000,
  ) {}

  viewers(companyId: number): Promise<number[]> {
    const cached = this.cache.get(companyId);
    if (cached && Date.now() - cached.at < this.ttlMs) return cached.ids;
    const ids = panelViewers(this.knex, companyId);
    this.cache.set(companyId, { at: Date.now(), ids });
    ids.catch(() => this.cache.delete(companyId));
    return ids;
  }

  invalidate(companyId: number): void {
    this.cache.delete(companyId);
  }
}

/** Some tickets changed: the panels of the company's viewers get their new cards, or lose them. */
export async function announceMoments(ctx: PluginContext, audience: MomentsAudience, companyId: number, ticketIds: number[]) {
  const [tickets, viewers] = await Promise.all([readMomentsById(ctx.db.knex, companyId, ticketIds), audience.viewers(companyId)]);
  if (viewers.length === 0) return;
  const rooms = viewers.map((id) => ROOMS.user(id));
  for (const [ticketId, ticket] of tickets) {
    const event: MomentsEvent = ticket ? { action: 'update', ticket } : { action: 'delete', ticketId };
    ctx.realtime.emit(companyId, companyEvent(companyId, 'moments'), event, { rooms });
  }
}

/**
 * Announces changed tickets in bursts: the tickets changed meanwhile wait, per company, for the announcement
 * in flight to end, then go out together — read in one query instead of one per ticket. Each announcement
 * reads the tickets after their latest change, and a company's announcements run one after the other, so a
 * panel never ends on an older state of a ticket.
 */
export class MomentsAnnouncer {
  private readonly pending = new Map<number, Set<number>>();
  private readonly running = new Map<number, Promise<void>>();

  constructor(
    private readonly ctx: PluginContext,
    private readonly audience: MomentsAudience,
  ) {}

  announce(companyId: number, ticketId: number): void {
    let tickets = this.pending.get(companyId);
    if (!tickets) {
      tickets = new Set();
      this.pending.set(companyId, tickets);
    }
    tickets.add(ticketId);
    if (!this.running.has(companyId)) this.running.set(companyId, this.drain(companyId));
  }

  private async drain(companyId: number): Promise<void> {
    // the rest of this turn's changes (a batch's events are published one after the other) join the first
    await new Promise((resolve) => setImmediate(resolve));
    for (;;) {
      const tickets = this.pending.get(companyId);
      if (!tickets || tickets.size === 0) {
        this.pending.delete(companyId);
        this.running.delete(companyId);
        return;
      }
      this.pending.delete(companyId);
      try {
        await announceMoments(this.ctx, this.audience, companyId, [...tickets]);
      } catch (error) {
        this.ctx.log.warn({ err: error, companyId }, 'moments: announcing tickets failed');
      }
    }
  }
}
