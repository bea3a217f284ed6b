import { AppError, companyEvent, type PluginContext } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { type AdminQueueShape, defaultSchedules, type ServiceHours } from '../../../shared/queues';
import { AdminQueue } from '../models';
import { buildTree, type ChatbotInput, checkFileList, queueOptionRows, replaceOptions } from './chatbot-tree';
import { requireCompanyIntegrations } from './integration-refs';
import { normalizeSchedules } from './schedules';

/** What POST and PUT /queue take (docs/product/administration.md#entities Queue). */
export interface QueueInput {
  name?: string;
  color?: string;
  greetingMessage?: string;
  outOfHoursMessage?: string;
  orderQueue?: number | null;
  tempoRoteador?: number;
  ativarRoteador?: boolean;
  integrationId?: number | null;
  fileListId?: number | null;
  closeTicket?: boolean;
  schedules?: ServiceHours[];
  chatbots?: ChatbotInput[];
}

/** One advisory lock namespace for a company's queue writes (colour uniqueness, the plan limit). */
const QUEUE_WRITE_LOCK = 740_001;

/** A queue's own fields as the API answers them. */
function queueFields(queue: AdminQueue): Omit<AdminQueueShape, 'chatbots'> {
  return {
    id: queue.id,
    name: queue.name,
    color: queue.color,
    orderQueue: queue.orderQueue,
    greetingMessage: queue.greetingMessage ?? '',
    outOfHoursMessage: queue.outOfHoursMessage ?? '',
    tempoRoteador: queue.tempoRoteador,
    ativarRoteador: queue.ativarRoteador,
    integrationId: queue.integrationId,
    fileListId: queue.fileListId,
    closeTicket: queue.closeTicket,
    schedules: queue.schedules ?? defaultSchedules(),
  };
}

/** The queue as `GET /queue/:queueId` answers it, with its option tree. */
export async function loadQueue(queueId: number, trx?: Knex.Transaction): Promise<AdminQueueShape> {
  const queue = await AdminQueue.query(trx).findById(queueId);
  if (!queue) throw new AppError('ERR_NO_QUEUE_FOUND');
  const rows = await queueOptionRows(queue.id, trx);
  return { ...queueFields(queue), chatbots: buildTree(rows, null) };
}

/**
 * The rules of a queue as it will be (docs/product/administration.md#validation, #errors): its colour is the company's only one
 * (compared without case), a greeting is required once the company has more than one queue, and with
 * scheduleType queue an out-of-hours message is required.
 */
async function checkQueue(
  companyId: number,
  queue: { id: number | null; color: string; greetingMessage: string; outOfHoursMessage: string },
  scheduleType: string | null,
  trx: Knex.Transaction,
): Promise<void> {
  const others = trx('queues').where({ companyId });
  if (queue.id !== null) others.whereNot('id', queue.id);
  const sameColor = await others.clone().whereRaw('lower(color) = lower(?)', [queue.color]).first('id');
  // a duplicate is a conflict (409), as every other duplicate of the API; the form shows the code's text
  // whatever the status (docs/product/administration.md#errors)
  if (sameColor) throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  const [{ count }] = (await others.clone().count({ count: '*' })) as [{ count: string | number }];
  if (Number(count) >= 1 && queue.greetingMessage.trim() === '') throw new AppError('ERR_WAPP_GREETING_REQUIRED');
  if (scheduleType === 'queue' && queue.outOfHoursMessage.trim() === '') {
    throw new AppError('ERR_OUT_OF_HOURS_MESSAGE_REQUIRED');
  }
}

/** Refuses a new queue beyond the plan's `queues` (ERR_QUEUE_PLAN_LIMIT). */
async function checkPlanLimit(companyId: number, trx: Knex.Transaction): Promise<void> {
  const plan = await trx('companies as c').join('plans as p', 'p.id', 'c.planId').where('c.id', companyId).first('p.queues');
  const [{ count }] = (await trx('queues').where({ companyId }).count({ count: '*' })) as [{ count: string | number }];
  if (!plan || Number(count) >= Number(plan.queues)) throw new AppError('ERR_QUEUE_PLAN_LIMIT', { limit: plan?.queues ?? 0 });
}

/** The queue columns of an input (the tree is saved apart). */
function columnsOf(input: QueueInput) {
  const { chatbots: _tree, schedules, ...columns } = input;
  return schedules === undefined ? columns : { ...columns, schedules: normalizeSchedules(schedules) };
}

/** Tells the company's screens (`company-{id}-queue`, docs/product/tickets-and-inbox.md#calls-and-realtime-events). */
function emitQueue(ctx: PluginContext, companyId: number, payload: Record<string, unknown>): void {
  ctx.realtime.emit(companyId, companyEvent(companyId, 'queue'), payload);
}

/**
 * The queue's members carry its name and colour in their session (`queues`, docs/product/tickets-and-inbox.md#entities): drop their cached
 * sessions and tell the inbox its audience changed.
 */
async function refreshMembers(ctx: PluginContext, companyId: number, userIds: number[]): Promise<void> {
  for (const userId of userIds) {
    await ctx.session.invalidateUser(userId);
    await ctx.events.publish('user.updated', { companyId, userId });
  }
}

async function memberIds(ctx: PluginContext, companyId: number, queueId: number): Promise<number[]> {
  const rows: Array<{ userId: number }> = await ctx.db.knex('userQueues').where({ companyId, queueId }).select('userId');
  return rows.map((row) => row.userId);
}

/** `POST /queue`: creates a queue with its options, within the plan's limit. */
export async function createQueue(ctx: PluginContext, companyId: number, input: QueueInput & { name: string; color: string }) {
  // read before the transaction: it holds its connection while waiting for the company's write lock
  const scheduleType = await ctx.settings.get(companyId, 'scheduleType');
  const queue = await ctx.db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?, ?)', [QUEUE_WRITE_LOCK, companyId]);
    await checkPlanLimit(companyId, trx);
    await requireCompanyIntegrations(trx, companyId, [input.integrationId]);
    await checkQueue(
      companyId,
      {
        id: null,
        color: input.color,
        greetingMessage: input.greetingMessage ?? '',
        outOfHoursMessage: input.outOfHoursMessage ?? '',
      },
      scheduleType,
      trx,
    );
    if (input.fileListId) await checkFileList(ctx, companyId, input.fileListId);
    const created = await AdminQueue.query(trx).insert({ schedules: defaultSchedules(), ...columnsOf(input) });
    await replaceOptions(ctx, companyId, created.id, null, input.chatbots ?? [], trx);
    return loadQueue(created.id, trx);
  });
  emitQueue(ctx, companyId, { action: 'update', queue });
  return queue;
}

/** `PUT /queue/:queueId`: changes the fields given; `chatbots`, when given, replaces the option tree. */
export async function updateQueue(ctx: PluginContext, companyId: number, queueId: number, input: QueueInput) {
  const scheduleType = await ctx.settings.get(companyId, 'scheduleType');
  const { queue, renamed } = await ctx.db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?, ?)', [QUEUE_WRITE_LOCK, companyId]);
    const current = await AdminQueue.query(trx).findById(queueId);
    if (!current) throw new AppError('ERR_NO_QUEUE_FOUND');
    await requireCompanyIntegrations(trx, companyId, [input.integrationId]);
    await checkQueue(
      companyId,
      {
        id: queueId,
        color: input.color ?? current.color,
        greetingMessage: input.greetingMessage ?? current.greetingMessage ?? '',
        outOfHoursMessage: input.outOfHoursMessage ?? current.outOfHoursMessage ?? '',
      },
      scheduleType,
      trx,
    );
    if (input.fileListId && input.fileListId !== current.fileListId) await checkFileList(ctx, companyId, input.fileListId);
    await AdminQueue.query(trx)
      .findById(queueId)
      .patch({ ...columnsOf(input), updatedAt: new Date() });
    if (input.chatbots !== undefined) await replaceOptions(ctx, companyId, queueId, null, input.chatbots, trx);
    const renamed =
      (input.name !== undefined && input.name !== current.name) || (input.color !== undefined && input.color !== current.color);
    return { queue: await loadQueue(queueId, trx), renamed };
  });
  emitQueue(ctx, companyId, { action: 'update', queue });
  if (renamed) await refreshMembers(ctx, companyId, await memberIds(ctx, companyId, queueId));
  return queue;
}

/**
 * `DELETE /queue/:queueId`: its options and memberships go with it; its tickets stay, without a queue.
 * The former members' sessions lose it at once.
 */
export async function deleteQueue(ctx: PluginContext, companyId: number, queueId: number): Promise<void> {
  const members = await memberIds(ctx, companyId, queueId);
  const deleted = await AdminQueue.query().deleteById(queueId);
  if (deleted === 0) throw new AppError('ERR_NO_QUEUE_FOUND');
  emitQueue(ctx, companyId, { action: 'delete', queueId });
  await refreshMembers(ctx, companyId, members);
}
