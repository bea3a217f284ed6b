import { AppError, type ChannelConfigScope, type PluginContext } from '@balcao/plugin-sdk/server';
import { defaultSchedules } from '@balcao/plugin-sdk/shared';
import type { Knex } from 'knex';
import type { ConnectionChannel, ConnectionInput, ConnectionOfCompany, ConnectionShape } from '../../shared/connection';
import { channelRegistry } from '../drivers/registry';
import { invalidateConnectionProfile } from '../profile';
import { findConnection } from './lookup';
import { emitConnectionDelete, emitConnectionUpdate } from './realtime';
import {
  type ConnectionRow,
  channelConnectionOf,
  connectionRow,
  type ShapeOptions,
  shapesOf,
  shapesWithCompany,
} from './serializer';
import { disconnectForImport, requireChannelAllowed } from './session.service';
import { newConnectionToken } from './token';
import {
  checkConnectionRules,
  cleanName,
  type MergedConnection,
  normalizeSchedules,
  requireCompanyQueues,
  requireCompanyReferences,
} from './validation';

/**
 * Connections of a company (docs/product/administration.md#entities Connection, #validation, #calls-and-realtime-events Connections): list, read, create,
 * change, delete, token. Every write runs in one transaction holding the company's row lock — so the plan
 * limit and the one-default rule see one write at a time — then drops the connection's cached profile in
 * every process and tells the connection's audience (realtime.ts).
 */

/** Columns a body sets as they are (the rest need work: name, queues, schedules, channelConfig, isDefault). */
const PLAIN_COLUMNS = [
  'allowGroup',
  'groupAsTicket',
  'greetingMessage',
  'complationMessage',
  'outOfHoursMessage',
  'ratingMessage',
  'collectiveVacationMessage',
  'collectiveVacationStart',
  'collectiveVacationEnd',
  'maxUseBotQueues',
  'timeUseBotQueues',
  'maxUseBotQueuesNPS',
  'expiresTicket',
  'whenExpiresTicket',
  'expiresTicketNPS',
  'expiresInactiveMessage',
  'timeInactiveMessage',
  'inactiveMessage',
  'timeCreateNewTicket',
  'timeSendQueue',
  'sendIdQueue',
  'integrationId',
  'promptId',
  'flowIdWelcome',
  'flowIdNotPhrase',
  'lgpdMessage',
  'importOldMessages',
  'importRecentMessages',
  'importOldMessagesGroups',
  'closedTicketsPostImported',
  'queueIdImportMessages',
] as const satisfies ReadonlyArray<keyof ConnectionInput & keyof ConnectionRow>;

/** The defaults of a new connection (docs/product/administration.md#constants-and-limits) where the table's own defaults don't say them. */
const NEW_CONNECTION_DEFAULTS = {
  greetingMessage: '',
  ratingMessage: '',
  collectiveVacationMessage: '',
  collectiveVacationStart: null,
  collectiveVacationEnd: null,
  expiresTicketNPS: 0,
  timeSendQueue: 0,
  sendIdQueue: null,
  importOldMessages: null,
  importRecentMessages: null,
} satisfies Omit<MergedConnection, 'queueIds'>;

/** The company's connection as the API answers it. */
export async function loadConnection(
  ctx: PluginContext,
  companyId: number,
  connectionId: number,
  options: ShapeOptions = {},
): Promise<ConnectionShape> {
  const row = await findConnection(ctx.db.knex, companyId, connectionId);
  return (await shapesOf(ctx, [row], options))[0] as ConnectionShape;
}

/** `GET /whatsapp/`, `GET /whatsapp/filter`: the company's connections (one channel when asked), by name. */
export async function listConnections(
  ctx: PluginContext,
  companyId: number,
  options: ShapeOptions & { channel?: ConnectionChannel } = {},
): Promise<ConnectionShape[]> {
  const query = ctx.db.knex('whatsapps').where({ companyId });
  if (options.channel) query.where('channel', options.channel);
  const rows = ((await query.orderBy([{ column: 'name' }, { column: 'id' }])) as Array<Record<string, unknown>>).map(
    connectionRow,
  );
  return shapesOf(ctx, rows, options);
}

/** `GET /whatsapp/all/` (super user): every company's connections, with the company's name. */
export async function listAllConnections(ctx: PluginContext, options: ShapeOptions = {}): Promise<ConnectionOfCompany[]> {
  const rows = (await ctx.db
    .knex('whatsapps as w')
    .join('companies as c', 'c.id', 'w.companyId')
    .orderBy([{ column: 'c.name' }, { column: 'w.companyId' }, { column: 'w.name' }, { column: 'w.id' }])
    .select('w.*', 'c.name as companyName')) as Array<Record<string, unknown> & { companyName: string }>;
  return shapesWithCompany(
    ctx,
    rows.map((row) => ({ ...connectionRow(row), companyName: row.companyName })),
    options,
  );
}

/** `GET /whatsapp-admin/:whatsappId` (super user): any company's connection. */
export async function loadAnyConnection(
  ctx: PluginContext,
  connectionId: number,
  options: ShapeOptions = {},
): Promise<ConnectionShape> {
  const row = (await ctx.db.knex('whatsapps').where({ id: connectionId }).first()) as Record<string, unknown> | undefined;
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
  return (await shapesOf(ctx, [connectionRow(row)], options))[0] as ConnectionShape;
}

/**
 * The company's default connection, or 404 ERR_NO_DEF_WAPP_FOUND (for features that need one: a ticket
 * opened with no connection named).
 */
export async function requireDefaultConnection(ctx: PluginContext, companyId: number): Promise<ConnectionShape> {
  const row = (await ctx.db.knex('whatsapps').where({ companyId, isDefault: true }).first()) as
    | Record<string, unknown>
    | undefined;
  if (!row) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
  return (await shapesOf(ctx, [connectionRow(row)]))[0] as ConnectionShape;
}

/** Locks the company's row for the transaction: its connection writes happen one at a time. */
async function lockCompany(trx: Knex.Transaction, companyId: number): Promise<{ limit: number }> {
  const company = await trx('companies')
    .join('plans', 'plans.id', 'companies.planId')
    .where('companies.id', companyId)
    .forUpdate('companies')
    .first('plans.connections as limit');
  return { limit: Number(company?.limit ?? 0) };
}

/** A token no connection has (a clash of 62^30 values is unthinkable, but the index would refuse it). */
async function freeToken(trx: Knex.Transaction): Promise<string> {
  for (;;) {
    const token = newConnectionToken();
    if (!(await trx('whatsapps').where({ token }).first('id'))) return token;
  }
}

async function setQueues(trx: Knex.Transaction, companyId: number, connectionId: number, queueIds: number[]): Promise<void> {
  await trx('whatsappQueues').where({ companyId, whatsappId: connectionId }).delete();
  if (queueIds.length > 0)
    await trx('whatsappQueues').insert(queueIds.map((queueId) => ({ companyId, whatsappId: connectionId, queueId })));
}

/** The channel's settings of a connection being saved, through its definition. */
async function prepareChannelConfig(
  ctx: PluginContext,
  channel: string,
  input: Record<string, unknown> | undefined,
  previous: Record<string, unknown> | null,
  scope: ChannelConfigScope,
): Promise<Record<string, unknown> | undefined> {
  const definition = channelRegistry(ctx).get(channel);
  if (definition?.prepareConfig) {
    // a new connection always goes through it (the channel fills its defaults and secrets)
    if (input === undefined && previous !== null) return undefined;
    return definition.prepareConfig(input ?? {}, previous, scope);
  }
  if (input !== undefined && Object.keys(input).length > 0) throw new AppError('ERR_CHANNEL_CONFIG_INVALID');
  return previous === null ? {} : undefined;
}

function plainColumns(input: ConnectionInput): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const field of PLAIN_COLUMNS) if (input[field] !== undefined) columns[field] = input[field];
  return columns;
}

/** The queues that the body names (queueIds, sendIdQueue, queueIdImportMessages) must be the company's. */
async function requireNamedQueues(trx: Knex.Transaction, companyId: number, input: ConnectionInput): Promise<void> {
  const named = [...(input.queueIds ?? [])];
  if (input.sendIdQueue != null) named.push(input.sendIdQueue);
  if (input.queueIdImportMessages != null) named.push(input.queueIdImportMessages);
  await requireCompanyQueues(trx, companyId, named);
}

/** Makes `whatsappId` the company's one default (the partial unique index allows one at a time). */
async function makeDefault(trx: Knex.Transaction, companyId: number, connectionId: number): Promise<void> {
  await trx('whatsapps').where({ companyId, isDefault: true }).whereNot({ id: connectionId }).update({ isDefault: false });
  await trx('whatsapps').where({ companyId, id: connectionId }).update({ isDefault: true });
}

/** After a write: every process forgets the cached profile, and the audience gets the new state. */
async function announce(ctx: PluginContext, companyId: number, connectionId: number): Promise<ConnectionShape> {
  await invalidateConnectionProfile(ctx, companyId, connectionId);
  const shape = await loadConnection(ctx, companyId, connectionId);
  await emitConnectionUpdate(ctx, shape);
  return shape;
}

/** `POST /whatsapp`: the defaults of docs/product/administration.md#constants-and-limits for what the body leaves out; the company's first is its default. */
export async function createConnection(
  ctx: PluginContext,
  companyId: number,
  input: ConnectionInput & { name: string; channel: ConnectionChannel },
): Promise<ConnectionShape> {
  const name = cleanName(input.name);
  await requireChannelAllowed(ctx, companyId, input.channel);
  const schedules = normalizeSchedules(input.schedules ?? defaultSchedules());
  const queueIds = input.queueIds ?? [];
  // a channel's preparation may call its platform (seconds): done before the company's row is locked
  const channelConfig = await prepareChannelConfig(ctx, input.channel, input.channelConfig, null, {
    companyId,
    connectionId: null,
  });
  const connectionId = await ctx.db.transaction(async (trx) => {
    const { limit } = await lockCompany(trx, companyId);
    const counted = await trx('whatsapps').where({ companyId }).count<Array<{ count: string | number }>>('id as count');
    const count = Number(counted[0]?.count ?? 0);
    if (count >= limit) throw new AppError('ERR_CONNECTION_PLAN_LIMIT', { limit });
    await requireNamedQueues(trx, companyId, input);
    await requireCompanyReferences(trx, companyId, input);
    await checkConnectionRules(ctx, companyId, { ...NEW_CONNECTION_DEFAULTS, ...plainColumns(input), queueIds }, input, true);
    const [row] = await trx('whatsapps')
      .insert({
        ...plainColumns(input),
        companyId,
        name,
        channel: input.channel,
        status: 'DISCONNECTED',
        isDefault: false,
        token: await freeToken(trx),
        schedules: JSON.stringify(schedules),
        channelConfig: JSON.stringify(channelConfig ?? {}),
      })
      .returning('id');
    await setQueues(trx, companyId, row.id, queueIds);
    // the first connection is the default whatever the body says; another becomes it when asked
    if (input.isDefault === true || count === 0) await makeDefault(trx, companyId, row.id);
    return row.id as number;
  });
  return announce(ctx, companyId, connectionId);
}

/** `PUT /whatsapp/:whatsappId`: a partial change. */
export async function updateConnection(
  ctx: PluginContext,
  companyId: number,
  connectionId: number,
  input: ConnectionInput,
): Promise<ConnectionShape> {
  const name = input.name === undefined ? undefined : cleanName(input.name);
  const schedules = input.schedules === undefined ? undefined : normalizeSchedules(input.schedules);
  // a channel's preparation may call its platform (seconds): done on the stored config before the
  // company's row is locked; a concurrent save of the same connection is last-writer-wins, as a PUT is
  const read = await findConnection(ctx.db.knex, companyId, connectionId);
  const channelConfig = await prepareChannelConfig(ctx, read.channel, input.channelConfig, read.channelConfig ?? {}, {
    companyId,
    connectionId,
  });
  const { before, after } = await ctx.db.transaction(async (trx) => {
    await lockCompany(trx, companyId);
    const current = await findConnection(trx, companyId, connectionId, { lock: true });
    const queueIds =
      input.queueIds ??
      // not `pluck('queueId')`: knex plucks the key before the snake-case mapping renames it (it answers undefined)
      (
        (await trx('whatsappQueues').where({ companyId, whatsappId: connectionId }).select('queueId')) as Array<{
          queueId: number;
        }>
      ).map((row) => row.queueId);
    await requireNamedQueues(trx, companyId, input);
    await requireCompanyReferences(trx, companyId, input);
    await checkConnectionRules(ctx, companyId, { ...current, ...plainColumns(input), queueIds }, input, false);
    // a company with connections always has a default: it moves by making another one default
    if (input.isDefault === false && current.isDefault) throw new AppError('ERR_NO_OTHER_WHATSAPP');
    const columns: Record<string, unknown> = { ...plainColumns(input), updatedAt: trx.fn.now() };
    if (name !== undefined) columns.name = name;
    if (schedules !== undefined) columns.schedules = JSON.stringify(schedules);
    if (channelConfig !== undefined) columns.channelConfig = JSON.stringify(channelConfig);
    await trx('whatsapps').where({ companyId, id: connectionId }).update(columns);
    if (input.queueIds !== undefined) await setQueues(trx, companyId, connectionId, input.queueIds);
    if (input.isDefault === true && !current.isDefault) await makeDefault(trx, companyId, connectionId);
    return { before: current, after: await findConnection(trx, companyId, connectionId) };
  });
  // docs/product/administration.md#states-and-transitions: turning the message import on while connected asks for the QR again
  const importTurnedOn = input.importOldMessages != null && after.importOldMessages !== before.importOldMessages;
  if (importTurnedOn && after.channel === 'whatsapp' && before.status === 'CONNECTED') {
    await disconnectForImport(ctx, after);
  }
  return announce(ctx, companyId, connectionId);
}

/**
 * `DELETE /whatsapp/:whatsappId`: the channel drops its session and keys first, then the row and its queue
 * links go (the tickets stay, keeping the old `whatsappId`), the oldest remaining connection becomes the
 * default if this one was, and its greeting media is removed.
 */
export async function deleteConnection(ctx: PluginContext, companyId: number, connectionId: number): Promise<void> {
  const row = await findConnection(ctx.db.knex, companyId, connectionId);
  const definition = channelRegistry(ctx).get(row.channel);
  if (definition?.remove) await definition.remove(ctx, channelConnectionOf(row));
  const newDefault = await ctx.db.transaction(async (trx) => {
    await lockCompany(trx, companyId);
    const current = await findConnection(trx, companyId, connectionId, { lock: true });
    await trx('whatsapps').where({ companyId, id: connectionId }).delete();
    if (!current.isDefault) return null;
    const oldest = await trx('whatsapps')
      .where({ companyId })
      .orderBy([{ column: 'createdAt' }, { column: 'id' }])
      .first('id');
    if (!oldest) return null;
    await trx('whatsapps').where({ companyId, id: oldest.id }).update({ isDefault: true, updatedAt: trx.fn.now() });
    return oldest.id as number;
  });
  if (row.greetingMediaAttachment) await ctx.storage.delete(companyId, row.greetingMediaAttachment).catch(() => {});
  await invalidateConnectionProfile(ctx, companyId, connectionId);
  await emitConnectionDelete(ctx, companyId, connectionId);
  if (newDefault !== null) await announce(ctx, companyId, newDefault);
}

/** `POST /whatsapp/:whatsappId/token`: a new token; the old one stops working at once. */
export async function regenerateToken(ctx: PluginContext, companyId: number, connectionId: number): Promise<{ token: string }> {
  const token = await ctx.db.transaction(async (trx) => {
    await findConnection(trx, companyId, connectionId, { lock: true });
    const fresh = await freeToken(trx);
    await trx('whatsapps').where({ companyId, id: connectionId }).update({ token: fresh, updatedAt: trx.fn.now() });
    return fresh;
  });
  await announce(ctx, companyId, connectionId);
  return { token };
}

/** Sets (or clears, with null) the greeting's media key; the replaced file is removed. */
export async function setGreetingMedia(
  ctx: PluginContext,
  companyId: number,
  connectionId: number,
  key: string | null,
): Promise<ConnectionShape> {
  const previous = await ctx.db.transaction(async (trx) => {
    const current = await findConnection(trx, companyId, connectionId, { lock: true });
    await trx('whatsapps')
      .where({ companyId, id: connectionId })
      .update({ greetingMediaAttachment: key, updatedAt: trx.fn.now() });
    return current.greetingMediaAttachment;
  });
  if (previous && previous !== key) await ctx.storage.delete(companyId, previous).catch(() => {});
  return announce(ctx, companyId, connectionId);
}
