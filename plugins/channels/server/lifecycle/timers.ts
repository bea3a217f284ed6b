import { type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';

/**
 * How long a rating question waits for its answer when the connection sets no expiresTicketNPS: ratings
 * turned on in Settings work without filling the connection first, and a ticket never waits in `nps` for
 * ever.
 */
export const DEFAULT_RATING_EXPIRY_MINUTES = 15;

/**
 * The conversation timers of every connection (docs/channels/lifecycle.md): inactivity reminder,
 * expiry, rating expiry and redirect. Each is a delayed job named after the message or change that armed
 * it (`ctx.jobs.enqueue` with a jobId: armed twice, it is one job; Redis keeps it across restarts), plus a
 * sweep every minute that fires whatever is due — timers lost with Redis, connections whose times changed
 * after the timer was armed. Neither trusts itself: when it fires, the ticket's state is read again from
 * Postgres (one query per kind, the same for a job and for the sweep), under a per-ticket advisory lock, so
 * a stale timer does nothing and a job racing the sweep acts once.
 */

export const TIMER_KINDS = ['inactivity', 'expiry', 'rating', 'redirect'] as const;
export type TimerKind = (typeof TIMER_KINDS)[number];

/** `automation` of the messages this area sends (`SystemMessage.automation`). */
export const AUTOMATION = {
  inactivity: 'inactivity',
  expiry: 'expiry',
  rating: 'rating',
  farewell: 'farewell',
} as const;

export const MINUTE_MS = 60_000;
/** Advisory-lock space of the lifecycle's per-ticket locks (any constant of our own), plus the kind's index. */
const LOCK_SPACE = 0x6c696665; // "life"
/** Most due timers of one kind a sweep fires. */
const SWEEP_BATCH = 200;

/** A timer that is due or will be, as Postgres sees the ticket now. */
export interface DueTimer {
  kind: TimerKind;
  companyId: number;
  ticketId: number;
  dueAt: Date;
  status: string;
  userId: number | null;
  queueId: number | null;
  /** The connection's name (the `{{connection}}` variable), texts and target of the action. */
  connectionName: string;
  inactiveMessage: string;
  expiresInactiveMessage: string;
  sendIdQueue: number | null;
}

/** Non-private messages of a ticket, newest first (the messages_ticket_created index). */
const TICKET_MESSAGES = `FROM messages m WHERE m.company_id = t.company_id AND m.ticket_id = t.id AND NOT m.is_private`;
const NOT_REMINDER = `coalesce(m.data_json->>'automation', '') <> '${AUTOMATION.inactivity}'`;

/**
 * When each kind falls due, per ticket (SQL over `t`: tickets, `w`: its connection, `last`: its last
 * message). Empty when the ticket doesn't qualify at all (wrong status, connection without that time).
 */
const DUE_AT: Record<TimerKind, { where: string; dueAt: string }> = {
  // the company spoke last (not with the reminder itself) and the contact hasn't answered for N minutes
  inactivity: {
    where: `w.time_inactive_message > 0 AND btrim(w.inactive_message) <> '' AND t.status IN ('open', 'pending')
      AND last.from_me AND coalesce(last.automation, '') <> '${AUTOMATION.inactivity}'`,
    dueAt: `last.created_at + w.time_inactive_message * interval '1 minute'`,
  },
  // 0: the company's last message (a reminder aside) unanswered for N minutes; 1: no message of the contact
  // for N minutes (or since the ticket began), whoever spoke last
  expiry: {
    where: `w.expires_ticket > 0 AND t.status IN ('open', 'pending') AND (w.when_expires_ticket = 1 OR last.from_me)`,
    dueAt: `CASE WHEN w.when_expires_ticket = 1
        THEN coalesce((SELECT max(m.created_at) ${TICKET_MESSAGES} AND NOT m.from_me), t.created_at)
        ELSE coalesce((SELECT max(m.created_at) ${TICKET_MESSAGES} AND m.from_me AND ${NOT_REMINDER}), last.created_at)
      END + w.expires_ticket * interval '1 minute'`,
  },
  // the rating question (or its repetition) unanswered for expiresTicketNPS minutes (default 15)
  rating: {
    where: `t.status = 'nps'`,
    dueAt: `coalesce(last.created_at, t.updated_at)
      + (CASE WHEN w.expires_ticket_nps > 0 THEN w.expires_ticket_nps ELSE ${DEFAULT_RATING_EXPIRY_MINUTES} END) * interval '1 minute'`,
  },
  // waiting for an agent, in another queue than sendIdQueue, for timeSendQueue minutes since its last change
  redirect: {
    where: `w.time_send_queue > 0 AND w.send_id_queue IS NOT NULL AND t.status = 'pending' AND t.user_id IS NULL
      AND t.queue_id IS DISTINCT FROM w.send_id_queue
      AND EXISTS (SELECT 1 FROM queues q WHERE q.company_id = t.company_id AND q.id = w.send_id_queue)`,
    // a reminder to the contact (log `inactive`) is no change of the ticket's place: it doesn't restart it
    dueAt: `coalesce((SELECT max(l.created_at) FROM ticket_logs l
        WHERE l.company_id = t.company_id AND l.ticket_id = t.id AND l.type <> 'inactive'),
      t.created_at) + w.time_send_queue * interval '1 minute'`,
  },
};

interface DueRow {
  company_id: number;
  ticket_id: number;
  due_at: Date;
  status: string;
  user_id: number | null;
  queue_id: number | null;
  connection_name: string;
  inactive_message: string;
  expires_inactive_message: string;
  send_id_queue: number | null;
}

/**
 * The timers of `kind` as Postgres sees them: one ticket's (`ticketId`, in `companyId`), or every company's
 * due ones (`dueBy`, oldest first, a batch). Groups never have timers.
 */
export async function findTimers(
  db: Knex | Knex.Transaction,
  kind: TimerKind,
  filter: { companyId: number; ticketId: number } | { dueBy: Date },
): Promise<DueTimer[]> {
  const { where, dueAt } = DUE_AT[kind];
  const one = 'ticketId' in filter;
  const result = await db.raw(
    `SELECT * FROM (
       SELECT t.company_id, t.id AS ticket_id, t.status, t.user_id, t.queue_id, w.name AS connection_name, w.inactive_message,
         w.expires_inactive_message, w.send_id_queue, ${dueAt} AS due_at
       FROM tickets t
       JOIN whatsapps w ON w.company_id = t.company_id AND w.id = t.whatsapp_id
       LEFT JOIN LATERAL (
         SELECT m.created_at, m.from_me, m.data_json->>'automation' AS automation ${TICKET_MESSAGES}
         ORDER BY m.created_at DESC, m.id DESC LIMIT 1
       ) last ON true
       WHERE NOT t.is_group AND ${one ? 't.company_id = :companyId AND t.id = :ticketId' : 'true'} AND ${where}
     ) timers
     ${one ? '' : 'WHERE due_at <= :dueBy ORDER BY due_at LIMIT :limit'}`,
    one ? { companyId: filter.companyId, ticketId: filter.ticketId } : { dueBy: filter.dueBy, limit: SWEEP_BATCH },
  );
  return (result.rows as DueRow[]).map((row) => ({
    kind,
    companyId: row.company_id,
    ticketId: row.ticket_id,
    dueAt: new Date(row.due_at),
    status: row.status,
    userId: row.user_id,
    queueId: row.queue_id,
    connectionName: row.connection_name,
    inactiveMessage: row.inactive_message,
    expiresInactiveMessage: row.expires_inactive_message,
    sendIdQueue: row.send_id_queue,
  }));
}

/** What a due timer does: through the inbox (messages, ticket changes with their log entries). */
async function act(ctx: PluginContext, timer: DueTimer): Promise<boolean> {
  const inbox = ctx.services.use('inbox');
  const { ticketId } = timer;
  const variables = { connection: { name: timer.connectionName } };
  switch (timer.kind) {
    case 'inactivity':
      await inbox.send({ ticketId, body: timer.inactiveMessage.trim(), automation: AUTOMATION.inactivity, variables });
      await inbox.applyTicketChange({ ticketId, logs: [{ type: 'inactive', userId: null, queueId: timer.queueId }] });
      return true;
    case 'expiry': {
      const closed = await inbox.applyTicketChange({
        ticketId,
        status: 'closed',
        amountUsedBotQueues: 0,
        logs: [{ type: 'expired', userId: null, queueId: timer.queueId }],
        expect: { status: timer.status, userId: timer.userId },
      });
      const body = timer.expiresInactiveMessage.trim();
      if (closed && body) await inbox.send({ ticketId, body, automation: AUTOMATION.expiry, variables });
      return closed;
    }
    case 'rating':
      return inbox.applyTicketChange({
        ticketId,
        status: 'closed',
        amountUsedBotQueues: 0,
        logs: [{ type: 'closed', userId: null, queueId: timer.queueId }],
        expect: { status: 'nps' },
      });
    case 'redirect':
      return inbox.applyTicketChange({
        ticketId,
        queueId: timer.sendIdQueue,
        logs: [{ type: 'redirect', userId: null, queueId: timer.sendIdQueue }],
        expect: { status: 'pending', userId: null, queueId: timer.queueId },
      });
  }
}

/**
 * A timer fires (its job, or the sweep): under the ticket's lock for that kind, the ticket is read again; if the timer
 * is still due the action runs, else nothing (the change that made it stale armed its own timer). Runs in
 * the company's scope. Answers whether it acted.
 */
export async function fireTimer(
  ctx: PluginContext,
  companyId: number,
  ticketId: number,
  kind: TimerKind,
  now = new Date(),
): Promise<boolean> {
  // the lock is held until the action's own writes are committed (they run on other connections); a
  // firing that finds it taken leaves the ticket to the one holding it (which reads it after arriving)
  // rather than hold a connection while waiting
  return ctx.db.transaction(async (trx) => {
    const { rows } = await trx.raw('SELECT pg_try_advisory_xact_lock(?, ?) AS locked', [
      LOCK_SPACE + TIMER_KINDS.indexOf(kind),
      ticketId,
    ]);
    if (!(rows as Array<{ locked: boolean }>)[0]?.locked) return false;
    const [timer] = await findTimers(trx, kind, { companyId, ticketId });
    if (!timer || timer.dueAt.getTime() > now.getTime()) return false;
    const acted = await act(ctx, timer);
    if (acted) ctx.log.info({ companyId, ticketId, kind, dueAt: timer.dueAt }, 'lifecycle timer acted');
    return acted;
  });
}

/**
 * Arms a timer: a job due in `minutes`, named after what armed it (`anchor`: a message id, a change's
 * time), so arming it twice makes one job. Zero or fewer minutes: no timer.
 */
export async function armTimer(
  ctx: PluginContext,
  companyId: number,
  ticketId: number,
  kind: TimerKind,
  minutes: number,
  anchor: string | number,
): Promise<void> {
  if (!(minutes > 0)) return;
  try {
    await ctx.jobs.enqueue(
      'lifecycle-timer',
      { ticketId, kind },
      { companyId, delayMs: minutes * MINUTE_MS, jobId: `${kind}:${ticketId}:${anchor}`, retries: 3 },
    );
  } catch (error) {
    // the sweep fires it all the same (a minute late at most)
    ctx.log.warn({ err: error, ticketId, kind }, 'lifecycle timer not armed');
  }
}

/**
 * Every minute: fires the due timers of every company (system work, across tenants: each ticket in its
 * company's scope). Answers how many acted.
 */
export async function sweepTimers(ctx: PluginContext, now = new Date()): Promise<number> {
  let fired = 0;
  for (const kind of TIMER_KINDS) {
    const due = await findTimers(ctx.db.knex, kind, { dueBy: now });
    for (const timer of due) {
      try {
        const acted = await runInTenant({ companyId: timer.companyId }, () =>
          fireTimer(ctx, timer.companyId, timer.ticketId, kind, now),
        );
        if (acted) fired += 1;
      } catch (error) {
        ctx.log.error({ err: error, ticketId: timer.ticketId, kind }, 'lifecycle timer failed in the sweep');
      }
    }
  }
  return fired;
}
