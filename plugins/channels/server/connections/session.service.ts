import { AppError, type PluginContext } from '@balcao/plugin-sdk/server';
import { CHANNEL_PLAN_FLAGS, type ConnectionChannel, type ConnectionShape } from '../../shared/connection';
import { type ChannelDefinition, type ConnectionStatus, channelRegistry } from '../drivers/registry';
import { invalidateConnectionProfile } from '../profile';
import { findConnection } from './lookup';
import { emitSessionUpdate } from './realtime';
import { type ConnectionRow, channelConnectionOf, connectionRow, shapesOf } from './serializer';

/**
 * A connection's session (docs/product/administration.md#screens-and-routes per-status buttons, #calls-and-realtime-events `/whatsappsession`, `/whatsapp-restart`):
 * the actions call the channel's definition (drivers/registry.ts) and persist what it answers; a channel
 * with no definition in this installation answers 409 ERR_CHANNEL_NOT_AVAILABLE and changes nothing.
 */

/** Refuses a channel the company's plan doesn't allow (403 ERR_PLAN_FEATURE_DISABLED, as the access hook). */
export async function requireChannelAllowed(ctx: PluginContext, companyId: number, channel: string): Promise<void> {
  const flag = channelRegistry(ctx).get(channel)?.planFlag ?? CHANNEL_PLAN_FLAGS[channel as ConnectionChannel] ?? null;
  if (flag) await ctx.plans.require(companyId, flag);
}

/** What a channel (or the session actions) may change of a connection's session. */
export interface ConnectionStatusPatch {
  status?: ConnectionStatus;
  qrcode?: string;
  retries?: number;
  /** The number, page or account the session turned out to be (WhatsApp learns it on connecting). */
  number?: string;
  /** Why the session stopped by itself (an `ERR_...` code), or null to clear it. */
  sessionError?: string | null;
  /** The code to type on the phone while pairing by number, or null. */
  pairingCode?: string | null;
}

/**
 * Changes a connection's session fields, stamps `updatedAt`, drops its cached profile in every process and
 * emits `company-{id}-whatsappSession` to the connection's audience. For the channels (webchat, WhatsApp)
 * as their sessions move; 404 ERR_NO_WAPP_FOUND for a connection that isn't the company's.
 */
export async function updateConnectionStatus(
  ctx: PluginContext,
  companyId: number,
  connectionId: number,
  patch: ConnectionStatusPatch,
): Promise<ConnectionShape> {
  // the database's clock at this statement (not a transaction's start): the screens order a connection's
  // states by updatedAt, and a session's changes follow each other within milliseconds
  const columns: Record<string, unknown> = { updatedAt: ctx.db.knex.raw('clock_timestamp()') };
  for (const field of ['status', 'qrcode', 'retries', 'number', 'sessionError', 'pairingCode'] as const)
    if (patch[field] !== undefined) columns[field] = patch[field];
  const updated = await ctx.db.knex('whatsapps').where({ companyId, id: connectionId }).update(columns);
  if (updated === 0) throw new AppError('ERR_NO_WAPP_FOUND');
  await invalidateConnectionProfile(ctx, companyId, connectionId);
  const row = await findConnection(ctx.db.knex, companyId, connectionId);
  const shape = (await shapesOf(ctx, [row]))[0] as ConnectionShape;
  await emitSessionUpdate(ctx, shape);
  return shape;
}

/** The connection as it is now, without writing or telling anything (a channel that wrote its status itself). */
async function currentShape(ctx: PluginContext, companyId: number, connectionId: number): Promise<ConnectionShape> {
  const row = await findConnection(ctx.db.knex, companyId, connectionId);
  return (await shapesOf(ctx, [row]))[0] as ConnectionShape;
}

function definitionOf(ctx: PluginContext, row: ConnectionRow): ChannelDefinition {
  const definition = channelRegistry(ctx).get(row.channel);
  if (!definition) throw new AppError('ERR_CHANNEL_NOT_AVAILABLE');
  return definition;
}

/**
 * The status a channel answered to an admin's action, persisted: a QR or pairing code means nothing once
 * connected or disconnected, and the reason of an earlier stop is over once someone acted.
 */
function persistStatus(ctx: PluginContext, row: ConnectionRow, status: ConnectionStatus): Promise<ConnectionShape> {
  if (channelRegistry(ctx).get(row.channel)?.managesStatus) return currentShape(ctx, row.companyId, row.id);
  const patch: ConnectionStatusPatch = { status, sessionError: null };
  if (status === 'CONNECTED' || status === 'DISCONNECTED') {
    patch.qrcode = '';
    patch.pairingCode = null;
  }
  return updateConnectionStatus(ctx, row.companyId, row.id, patch);
}

async function restartWith(ctx: PluginContext, definition: ChannelDefinition, row: ConnectionRow): Promise<ConnectionStatus> {
  const connection = channelConnectionOf(row);
  if (definition.restart) return definition.restart(ctx, connection);
  await definition.stop(ctx, connection);
  return definition.start(ctx, { ...connection, status: 'DISCONNECTED' });
}

/** `POST /whatsappsession/:whatsappId`: start (try again). The plan must allow the channel. */
export async function startSession(ctx: PluginContext, companyId: number, connectionId: number): Promise<ConnectionShape> {
  const row = await findConnection(ctx.db.knex, companyId, connectionId);
  await requireChannelAllowed(ctx, companyId, row.channel);
  const definition = definitionOf(ctx, row);
  return persistStatus(ctx, row, await definition.start(ctx, channelConnectionOf(row)));
}

/** `PUT /whatsappsession/:whatsappId`: a new pairing (new QR). The plan must allow the channel. */
export async function restartSession(ctx: PluginContext, companyId: number, connectionId: number): Promise<ConnectionShape> {
  const row = await findConnection(ctx.db.knex, companyId, connectionId);
  await requireChannelAllowed(ctx, companyId, row.channel);
  const definition = definitionOf(ctx, row);
  return persistStatus(ctx, row, await restartWith(ctx, definition, row));
}

/**
 * `POST /whatsappsession/:whatsappId/pairing-code` (ours): pair by phone number instead of a QR code. The plan
 * must allow the channel, and the channel must pair that way (WhatsApp) — else 409 ERR_CHANNEL_NOT_AVAILABLE.
 */
export async function pairSession(
  ctx: PluginContext,
  companyId: number,
  connectionId: number,
  number: string,
): Promise<ConnectionShape> {
  const row = await findConnection(ctx.db.knex, companyId, connectionId);
  await requireChannelAllowed(ctx, companyId, row.channel);
  const definition = definitionOf(ctx, row);
  if (!definition.pair) throw new AppError('ERR_CHANNEL_NOT_AVAILABLE');
  return persistStatus(ctx, row, await definition.pair(ctx, channelConnectionOf(row), number));
}

/** `DELETE /whatsappsession/:whatsappId`: disconnect (allowed whatever the plan: ending costs nothing). */
export async function stopSession(ctx: PluginContext, companyId: number, connectionId: number): Promise<ConnectionShape> {
  const row = await findConnection(ctx.db.knex, companyId, connectionId);
  const definition = definitionOf(ctx, row);
  return persistStatus(ctx, row, await definition.stop(ctx, channelConnectionOf(row)));
}

/**
 * `POST /whatsapp-restart/`: restarts every connection of the company that can be: its channel has a
 * definition and the plan allows it. The others, and any whose restart fails, are listed as skipped.
 */
export async function restartAllSessions(
  ctx: PluginContext,
  companyId: number,
): Promise<{ restarted: number[]; skipped: number[] }> {
  const rows = ((await ctx.db.knex('whatsapps').where({ companyId }).orderBy('id')) as Array<Record<string, unknown>>).map(
    connectionRow,
  );
  const restarted: number[] = [];
  const skipped: number[] = [];
  for (const row of rows) {
    const definition = channelRegistry(ctx).get(row.channel);
    const flag = definition?.planFlag ?? CHANNEL_PLAN_FLAGS[row.channel] ?? null;
    if (!definition || (flag && !(await ctx.plans.has(companyId, flag)))) {
      skipped.push(row.id);
      continue;
    }
    try {
      const status = definition.reconnect
        ? await definition.reconnect(ctx, channelConnectionOf(row))
        : await restartWith(ctx, definition, row);
      await persistStatus(ctx, row, status);
      restarted.push(row.id);
    } catch (error) {
      ctx.log.warn({ err: error, whatsappId: row.id }, 'a connection did not restart');
      skipped.push(row.id);
    }
  }
  return { restarted, skipped };
}

/**
 * docs/product/administration.md#states-and-transitions: saving a WhatsApp connection with message import turned on while it is connected
 * ends the session and asks for the QR code again (the import runs on a fresh pairing).
 */
export async function disconnectForImport(ctx: PluginContext, row: ConnectionRow): Promise<void> {
  const definition = channelRegistry(ctx).get(row.channel);
  if (!definition) {
    await updateConnectionStatus(ctx, row.companyId, row.id, { status: 'qrcode' });
    return;
  }
  // a new pairing: the import runs on the history the phone sends to a newly linked device
  const status = await restartWith(ctx, definition, row);
  if (!definition.managesStatus) await updateConnectionStatus(ctx, row.companyId, row.id, { status });
}
