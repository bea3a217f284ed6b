import type { BalcaoEvents, PluginContext } from '@balcao/plugin-sdk/server';
import type { QueuesConfig } from '../config';
import { AdminQueue, ChatbotTicket } from '../models';
import { change, persistState, send, type Turn } from './conversation';

/**
 * Queue rotation (docs/product/administration.md#entities ativarRoteador, tempoRoteador): a ticket waiting in a queue with
 * rotation on goes to the queue's next agent every tempoRoteador minutes until someone takes it. Each
 * step is a delayed job in Redis (it survives restarts); its jobId makes enqueueing a step twice one job,
 * and the step number stored on the ticket's bot row makes a step act at most once. The bot lands a ticket
 * here (`afterLanding`), where a queue's other ways of reaching an agent — a random member, the place in
 * line — are decided too.
 */

/** One minute of tempoRoteador; ADMIN_ROTATION_MINUTE_MS shortens it for tests of the timing. */
function minuteMs(ctx: PluginContext): number {
  // the administration's areas share the feature's one context, which holds the queues' variables
  return (ctx as PluginContext<QueuesConfig>).config.ADMIN_ROTATION_MINUTE_MS;
}

/** Schedules rotation step `step` of a ticket waiting in `queue`. */
export async function scheduleRotation(
  ctx: PluginContext,
  companyId: number,
  ticketId: number,
  queue: Pick<AdminQueue, 'id' | 'tempoRoteador'>,
  step: number,
): Promise<void> {
  await ctx.jobs.enqueue(
    'rotate-ticket',
    { ticketId, queueId: queue.id, step },
    { companyId, delayMs: queue.tempoRoteador * minuteMs(ctx), jobId: `rotate-${ticketId}-${step}` },
  );
}

/**
 * The `rotate-ticket` job: when the ticket still waits (pending) in the same queue and rotation is still
 * on, it goes to the member after its current agent (by id, wrapping around) and the next step is
 * scheduled. Anything else (accepted, closed, moved, rotation off) ends the rotation.
 */
export async function rotateTicketJob(data: Record<string, unknown>, ctx: PluginContext): Promise<void> {
  const ticketId = Number(data.ticketId);
  const queueId = Number(data.queueId);
  const step = Number(data.step);
  const queue = await AdminQueue.query().findById(queueId);
  if (!queue?.ativarRoteador || queue.tempoRoteador <= 0) return;
  const companyId = queue.companyId;
  const { knex } = ctx.db;
  const ticket = await knex('tickets').where({ companyId, id: ticketId }).first('status', 'queueId', 'userId');
  if (ticket?.status !== 'pending' || ticket.queueId !== queueId) return;
  // claim the step: a second run of the same step (or an older one) finds it taken
  const claimed = await ChatbotTicket.query()
    .findById(ticketId)
    .where('rotationStep', step - 1)
    .patch({ rotationStep: step });
  if (claimed === 0) return;
  const members: number[] = await knex('userQueues as uq')
    .join('users as u', 'u.id', 'uq.userId')
    .where({ 'uq.companyId': companyId, 'uq.queueId': queueId })
    .orderBy('u.id')
    .pluck('u.id');
  const candidates = members.filter((id) => id !== ticket.userId);
  if (candidates.length === 0) return;
  const next = candidates.find((id) => ticket.userId !== null && id > ticket.userId) ?? (candidates[0] as number);
  const moved = await ctx.services.use('inbox').applyTicketChange({
    ticketId,
    userId: next,
    logs: [{ type: 'redirect', userId: next, queueId }],
    expect: { status: 'pending', queueId, userId: ticket.userId },
  });
  if (moved) await scheduleRotation(ctx, companyId, ticketId, queue, step + 1);
}

/**
 * `ticket.updated`: a ticket that comes to wait unassigned in a queue with rotation on (an agent returned
 * or transferred it there) starts rotating. Tickets the bot is still talking to are left to the bot, which
 * starts the rotation when the ticket lands.
 */
export async function rotationOnTicketUpdated(ctx: PluginContext, event: BalcaoEvents['ticket.updated']): Promise<void> {
  if (event.status !== 'pending' || event.queueId === null || event.userId !== null) return;
  const queue = await AdminQueue.query().findById(event.queueId);
  if (!queue?.ativarRoteador || queue.tempoRoteador <= 0) return;
  const state = await ChatbotTicket.query().findById(event.ticketId);
  // the bot moved it into the queue it is offering options of: the bot starts the rotation when it lands
  if (state && state.stage === 'options' && state.queueId === event.queueId) return;
  if (state && state.stage !== 'done') {
    // an agent placed a ticket the bot was still asking about: the bot is done with it
    await ChatbotTicket.query().findById(event.ticketId).patch({ stage: 'done', updatedAt: new Date() });
  } else if (!state) {
    await ctx.db
      .knex('chatbotTickets')
      .insert({ ticketId: event.ticketId, companyId: event.companyId, stage: 'done' })
      .onConflict('ticketId')
      .ignore();
  }
  await scheduleRotation(ctx, event.companyId, event.ticketId, queue, (state?.rotationStep ?? 0) + 1);
}

/**
 * After the ticket lands in a queue with nobody on it: a random agent of the queue (userRandom), or the
 * contact's place in line (sendQueuePosition), and the rotation's first step (ativarRoteador).
 */
export async function afterLanding(turn: Turn, queue: AdminQueue): Promise<void> {
  const { knex } = turn.ctx.db;
  if (turn.settings.userRandom === 'enabled') {
    const rows: Array<{ userId: number }> = await knex('userQueues')
      .where({ companyId: turn.companyId, queueId: queue.id })
      .select('userId');
    const members = rows.map((row) => row.userId);
    if (members.length > 0) {
      const userId = members[Math.floor(Math.random() * members.length)] as number;
      await change(turn, { userId, expect: { status: 'pending', userId: null } });
    }
  } else if (turn.settings.sendQueuePosition === 'enabled') {
    const [{ count }] = (await knex('tickets')
      .where({ companyId: turn.companyId, queueId: queue.id, status: 'pending' })
      .whereNull('userId')
      .where('id', '<=', turn.ticket.id)
      .count({ count: '*' })) as [{ count: string | number }];
    const intro = turn.settings.sendQueuePositionMessage ?? '';
    await send(turn, `${intro.trim()} *${Number(count)}*`.trim());
  }
  if (queue.ativarRoteador && queue.tempoRoteador > 0) {
    // the rotation reads the bot's state
    await persistState(turn);
    await scheduleRotation(turn.ctx, turn.companyId, turn.ticket.id, queue, 1);
  }
}
