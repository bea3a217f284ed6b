import type { Knex } from 'knex';
import type { TicketStatus } from '../../shared/types';

/**
 * Who is looking at tickets: the fields of a user that decide what they may see (docs/product/roles-and-permissions.md#roles-in-the-inbox). Built from
 * the session user for requests, and from the users table for realtime audiences.
 */
export interface Viewer {
  id: number;
  profile: 'admin' | 'user';
  queueIds: number[];
  allTicket: 'enable' | 'disable';
  allowGroup: boolean;
  allUserChat: 'enabled' | 'disabled';
  userClosePendingTicket: 'enabled' | 'disabled';
}

/** The ticket fields visibility reads. */
export interface VisibleTicketFields {
  userId: number | null;
  queueId: number | null;
  isGroup: boolean;
  status: TicketStatus;
}

/** The session user's fields as a Viewer. */
export function viewerOf(user: {
  id: number;
  profile: 'admin' | 'user';
  queues: Array<{ id: number }>;
  allTicket: 'enable' | 'disable';
  allowGroup: boolean;
  allUserChat: string;
  userClosePendingTicket: string;
}): Viewer {
  return {
    id: user.id,
    profile: user.profile,
    queueIds: user.queues.map((queue) => queue.id),
    allTicket: user.allTicket,
    allowGroup: user.allowGroup,
    allUserChat: user.allUserChat === 'enabled' ? 'enabled' : 'disabled',
    userClosePendingTicket: user.userClosePendingTicket === 'enabled' ? 'enabled' : 'disabled',
  };
}

/** Admins, and users with allUserChat enabled, may see every ticket of the company (and use showAll). */
export function seesEverything(viewer: Viewer): boolean {
  return viewer.profile === 'admin' || viewer.allUserChat === 'enabled';
}

/**
 * Whether the viewer may see the ticket at all (read it, act on it, receive its events): their own
 * tickets; unassigned ones of their queues; queue-less ones with allTicket; groups only with allowGroup.
 */
export function canSeeTicket(viewer: Viewer, ticket: VisibleTicketFields): boolean {
  if (seesEverything(viewer)) return true;
  if (ticket.userId === viewer.id) return true;
  if (ticket.userId !== null) return false;
  if ((ticket.isGroup || ticket.status === 'group') && !viewer.allowGroup) return false;
  if (ticket.queueId === null) return viewer.allTicket === 'enable';
  return viewer.queueIds.includes(ticket.queueId);
}

/**
 * The condition of the viewer's lists without showAll, as SQL text over `tickets` aliased `alias`: their
 * own tickets and the unassigned ones of their queues (queue-less ones with allTicket), groups only with
 * allowGroup. For an admin the same "my work" view applies, as if allTicket and allowGroup were on, until
 * they turn showAll on. It is `canSeeTicket` of that narrowed viewer, condition for condition
 * (visibility.test.ts runs both over every kind of user and ticket). `param` adds a bound value and
 * answers its placeholder.
 */
export function viewersListsSql(viewer: Viewer, alias: string, param: (value: unknown) => string): string {
  const queue: string[] = [viewer.queueIds.length > 0 ? `${alias}.queue_id = ANY(${param(viewer.queueIds)}::int[])` : 'false'];
  if (viewer.allTicket === 'enable' || viewer.profile === 'admin') queue.push(`${alias}.queue_id IS NULL`);
  const noGroups = !viewer.allowGroup && viewer.profile !== 'admin' ? ` AND ${alias}.is_group = false` : '';
  return `(${alias}.user_id = ${param(viewer.id)} OR (${alias}.user_id IS NULL AND (${queue.join(' OR ')})${noGroups}))`;
}

/**
 * `canSeeTicket` as SQL text over `tickets` aliased `alias` (`InboxService.whereCanSeeTicket`); null for a
 * viewer who sees everything. For anyone else the lists' condition is the rule already, save a group's
 * status on a ticket not flagged a group (which the write paths never make, so the lists ignore it): the
 * rule hides it from a viewer without allowGroup unless it is theirs, and so does this.
 */
export function canSeeTicketSql(viewer: Viewer, alias: string, param: (value: unknown) => string): string | null {
  if (seesEverything(viewer)) return null;
  const lists = viewersListsSql(viewer, alias, param);
  return viewer.allowGroup ? lists : `(${lists} AND (${alias}.status <> 'group' OR ${alias}.user_id = ${param(viewer.id)}))`;
}

/**
 * Adds `canSeeTicketSql` to a knex query of tickets aliased `alias` and answers it. Knex's placeholders
 * are positional (`?` in order of appearance) while the SQL is written in another order than `param` is
 * called, so each value gets a numbered mark first and the bindings follow the marks as they appear.
 */
export function whereCanSeeTicket<Query extends Knex.QueryBuilder>(query: Query, viewer: Viewer, alias: string): Query {
  const values: unknown[] = [];
  const marked = canSeeTicketSql(viewer, alias, (value) => `\uE000${values.push(value) - 1}\uE000`);
  if (marked === null) return query;
  const bindings: unknown[] = [];
  const condition = marked.replace(/\uE000(\d+)\uE000/g, (_, index: string) => {
    bindings.push(values[Number(index)]);
    return '?';
  });
  query.whereRaw(condition, bindings as Knex.RawBinding[]);
  return query;
}
