import { type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import { Lane, TicketTagLink } from '../models/lane';
import { Placement } from '../models/placement';
import { announceChange } from './live';

/** Minutes of `timeLane` in milliseconds. */
export const MINUTE_MS = 60_000;
/** The board's DELETE then PUT (by one user, within this time) is one move: it writes one log entry, not two. */
const MOVE_PAIR_MS = 3_000;
/** Most due lane timers one sweep fires. */
const SWEEP_BATCH = 500;

export type MoveCause = 'manual' | 'timer' | 'rollback' | 'embed';

/**
 * Moves a ticket to a lane (null: the default lane, no lane tag) as the product does it — the lane
 * timer, the rollback, the embedded widget: its lane tags are replaced in one transaction and
 * `ticket.tagsChanged` is published, so the same automation as for the board's DELETE then PUT
 * applies (log entry, greeting, timer). `expectEntry`: move only if the ticket is still in the lane
 * entry the caller saw (a lane timer), else nothing happens and false is returned — this is what makes
 * an automatic move happen once when a timer job and a sweep race.
 */
export async function moveTicket(
  ctx: PluginContext,
  companyId: number,
  ticketId: number,
  toLaneId: number | null,
  by: { userId: number | null; expectEntry?: string },
): Promise<{ moved: boolean; removed: number[] }> {
  const result = await ctx.db.transaction(async (trx) => {
    if (by.expectEntry) {
      const claimed = await Placement.query(trx).delete().where({ ticketId, entryId: by.expectEntry });
      if (claimed === 0) return null;
    }
    const removed = (await TicketTagLink.query(trx)
      .delete()
      .where('ticketId', ticketId)
      .whereIn('tagId', Lane.lanes().select('id'))
      .returning('tagId')) as unknown as Array<{ tagId: number }>;
    if (toLaneId !== null) {
      await TicketTagLink.query(trx).insert({ ticketId, tagId: toLaneId }).onConflict(['ticketId', 'tagId']).ignore();
    }
    return removed.map((row) => row.tagId);
  });
  if (result === null) return { moved: false, removed: [] };
  const removed = result.filter((id) => id !== toLaneId);
  const added = toLaneId !== null && !result.includes(toLaneId) ? [toLaneId] : [];
  if (removed.length === 0 && added.length === 0) return { moved: false, removed };
  await ctx.events.publish('ticket.tagsChanged', {
    companyId,
    ticketId,
    addedTagIds: added,
    removedTagIds: removed,
    userId: by.userId,
  });
  return { moved: true, removed };
}

/**
 * The lane automation, on every change of a ticket's tags (the board's DELETE then PUT, the contact
 * drawer's lane select, the kanban's own moves): the ticket's lane entry is recorded, a log entry is
 * written, the lane's greeting is sent to the contact and its timer is set; the boards are told.
 */
export async function onTagsChanged(
  ctx: PluginContext,
  change: { companyId: number; ticketId: number; addedTagIds: number[]; removedTagIds: number[]; userId: number | null },
): Promise<void> {
  const ids = [...change.addedTagIds, ...change.removedTagIds];
  if (ids.length === 0) return;
  const lanes = await Lane.lanes().whereIn('id', ids);
  if (lanes.length === 0) return; // plain tags: not the board's business
  const entered = lanes.find((lane) => change.addedTagIds.includes(lane.id)) ?? null;
  const ticket = await ctx.db
    .knex('tickets')
    .where({ id: change.ticketId, companyId: change.companyId })
    .first('id', 'queueId', 'status');
  if (!ticket) return;

  // the board's move is a DELETE then a PUT: the DELETE logs the move and leaves a note, and the PUT of
  // the same user that follows it completes that move instead of logging a second one
  const leftKey = `lane-left:${change.companyId}:${change.ticketId}`;
  const actor = String(change.userId ?? 'system');
  if (entered) {
    const placement = await upsertPlacement(ctx, change.companyId, change.ticketId, entered.id);
    const justLeft = change.removedTagIds.length === 0 && (await ctx.cache.get(leftKey)) === actor;
    if (justLeft) await ctx.cache.del(leftKey);
    else await writeLaneLog(ctx, change, ticket.queueId);
    await greet(ctx, change.ticketId, entered, ticket.status);
    await setLaneTimer(ctx, change.companyId, change.ticketId, placement, entered);
  } else {
    const stillInLane = await TicketTagLink.query()
      .where('ticketId', change.ticketId)
      .whereIn('tagId', Lane.lanes().select('id'))
      .first();
    if (!stillInLane) {
      await Placement.query().delete().where('ticketId', change.ticketId);
      await ctx.cache.set(leftKey, actor, MOVE_PAIR_MS);
    }
    await writeLaneLog(ctx, change, ticket.queueId);
  }
  await announceChange(ctx, change.companyId, { ticketId: change.ticketId, laneId: entered?.id ?? null });
}

/** Records the ticket's new lane entry (a fresh entryId: timers of the previous entry become stale). */
async function upsertPlacement(
  ctx: PluginContext,
  companyId: number,
  ticketId: number,
  laneId: number,
): Promise<Pick<Placement, 'entryId' | 'enteredAt'>> {
  const [row] = (
    await ctx.db.knex.raw(
      `INSERT INTO kanban_placements (company_id, ticket_id, lane_id, entered_at, entry_id)
         VALUES (?, ?, ?, now(), gen_random_uuid())
       ON CONFLICT (ticket_id) DO UPDATE SET lane_id = excluded.lane_id, entered_at = excluded.entered_at,
         entry_id = excluded.entry_id
       RETURNING ticket_id, lane_id, entered_at, entry_id`,
      [companyId, ticketId, laneId],
    )
  ).rows as Array<{ ticket_id: number; lane_id: number; entered_at: Date; entry_id: string }>;
  if (!row) throw new Error(`ticket ${ticketId} has no placement after its upsert`);
  return { enteredAt: row.entered_at, entryId: row.entry_id };
}

/** One entry of the ticket's log (docs/product/tickets-and-inbox.md#entities Ticket log entry, type `lane`): who moved it (null: automation). */
async function writeLaneLog(
  ctx: PluginContext,
  change: { companyId: number; ticketId: number; userId: number | null },
  queueId: number | null,
): Promise<void> {
  await ctx.db
    .knex('ticketLogs')
    .insert({ companyId: change.companyId, ticketId: change.ticketId, type: 'lane', userId: change.userId, queueId });
}

/** The lane's greeting (greetingMessageLane) to the contact, through the inbox like any product message. */
async function greet(ctx: PluginContext, ticketId: number, lane: Lane, status: string): Promise<void> {
  const body = lane.greetingMessageLane?.trim();
  if (!body || status === 'closed') return;
  try {
    await ctx.services.use('inbox').send({ ticketId, body });
  } catch (error) {
    // a failed greeting never undoes the move; the inbox keeps failed deliveries with their code
    ctx.log.warn({ err: error, ticketId, laneId: lane.id }, 'kanban lane greeting not sent');
  }
}

/**
 * Sets the lane timer of an entry: a delayed job named after the entry (so enqueueing it again is a
 * no-op while it is pending). Redis keeps delayed jobs across restarts; the sweep catches any timer
 * whose job was lost or whose lane's timeLane changed.
 */
export async function setLaneTimer(
  ctx: PluginContext,
  companyId: number,
  ticketId: number,
  placement: Pick<Placement, 'entryId' | 'enteredAt'>,
  lane: Pick<Lane, 'timeLane' | 'nextLaneId'>,
): Promise<void> {
  if (!lane.timeLane || lane.timeLane <= 0 || !lane.nextLaneId) return;
  const dueAt = new Date(placement.enteredAt).getTime() + lane.timeLane * MINUTE_MS;
  await ctx.jobs.enqueue(
    'lane-timeout',
    { ticketId, entryId: placement.entryId },
    { companyId, delayMs: Math.max(0, dueAt - Date.now()), jobId: `${ticketId}:${placement.entryId}`, retries: 3 },
  );
}

/**
 * A lane timer fires: if the ticket is still in the same lane entry and its time is up, it moves to the
 * lane's nextLaneId (once: the entry row is claimed in the move's transaction). Early (the lane's
 * timeLane grew meanwhile): nothing; the sweep fires it when due.
 */
export async function fireLaneTimer(ctx: PluginContext, companyId: number, ticketId: number, entryId: string): Promise<boolean> {
  const placement = await Placement.query().findOne({ ticketId, entryId });
  if (!placement) return false;
  const lane = await Lane.lanes().findById(placement.laneId);
  if (!lane?.timeLane || !lane.nextLaneId) return false;
  if (new Date(placement.enteredAt).getTime() + lane.timeLane * MINUTE_MS > Date.now()) return false;
  const next = await Lane.lanes().findById(lane.nextLaneId);
  if (!next) return false;
  const ticket = await ctx.db.knex('tickets').where({ id: ticketId, companyId }).first('status');
  if (!ticket || ticket.status === 'closed') {
    await Placement.query().delete().where({ ticketId, entryId });
    return false;
  }
  const { moved } = await moveTicket(ctx, companyId, ticketId, next.id, { userId: null, expectEntry: entryId });
  return moved;
}

/**
 * Every minute: fires the lane timers that are due in every company with the kanban (across tenants:
 * system work), so a timer survives a lost job and follows a changed timeLane.
 */
export async function sweepLaneTimers(ctx: PluginContext): Promise<number> {
  const due = (
    await ctx.db.knex.raw(
      `SELECT p.company_id, p.ticket_id, p.entry_id FROM kanban_placements p JOIN tags l ON l.id = p.lane_id
      WHERE l.time_lane > 0 AND l.next_lane_id IS NOT NULL
        AND p.entered_at + l.time_lane * interval '1 minute' <= now()
      ORDER BY p.entered_at LIMIT ?`,
      [SWEEP_BATCH],
    )
  ).rows as Array<{ company_id: number; ticket_id: number; entry_id: string }>;
  let fired = 0;
  for (const row of due) {
    if (!(await ctx.plans.has(row.company_id, 'useKanban'))) continue;
    const moved = await runInTenant({ companyId: row.company_id }, () =>
      fireLaneTimer(ctx, row.company_id, row.ticket_id, row.entry_id),
    );
    if (moved) fired += 1;
  }
  return fired;
}

/**
 * Whether the company has a lane with a rollback, per company and process: every inbound message asks, and
 * most companies have none, so the answer is kept until a tag changes (`forgetRollbackLanes`, on
 * `tag.changed` in every process) or, should a change notice be lost, for ROLLBACK_LANES_TTL_MS.
 */
const ROLLBACK_LANES_TTL_MS = 60_000;
const rollbackLanesByApp = new WeakMap<PluginContext, Map<number, { has: boolean; until: number }>>();

function rollbackLanesOf(ctx: PluginContext): Map<number, { has: boolean; until: number }> {
  let known = rollbackLanesByApp.get(ctx);
  if (!known) {
    known = new Map();
    rollbackLanesByApp.set(ctx, known);
  }
  return known;
}

async function hasRollbackLanes(ctx: PluginContext, companyId: number): Promise<boolean> {
  const known = rollbackLanesOf(ctx);
  const hit = known.get(companyId);
  if (hit && hit.until > Date.now()) return hit.has;
  const has = (await Lane.lanes().whereNotNull('rollbackLaneId').select('id').first()) !== undefined;
  known.set(companyId, { has, until: Date.now() + ROLLBACK_LANES_TTL_MS });
  return has;
}

/** The company's lanes changed: ask again on its next message. */
export function forgetRollbackLanes(ctx: PluginContext, companyId: number): void {
  rollbackLanesOf(ctx).delete(companyId);
}

/**
 * The contact answered: when the ticket sits in a lane with a rollbackLaneId, it moves there (once per
 * answer: the move is a new lane entry, whose own rollback applies only to a later answer).
 */
export async function onContactAnswer(ctx: PluginContext, companyId: number, ticketId: number): Promise<void> {
  if (!(await hasRollbackLanes(ctx, companyId))) return;
  const placement = await Placement.query().findById(ticketId);
  if (!placement) return;
  const lane = await Lane.lanes().findById(placement.laneId);
  if (!lane?.rollbackLaneId || lane.rollbackLaneId === lane.id) return;
  const target = await Lane.lanes().findById(lane.rollbackLaneId);
  if (!target) return;
  await moveTicket(ctx, companyId, ticketId, target.id, { userId: null, expectEntry: placement.entryId });
}
