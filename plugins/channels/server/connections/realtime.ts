import { companyEvent, type PluginContext, ROOMS } from '@balcao/plugin-sdk/server';
import type { ConnectionEvent, ConnectionSessionEvent, ConnectionShape, ImportProgressEvent } from '../../shared/connection';

/**
 * The connections' realtime events (docs/product/tickets-and-inbox.md#calls-and-realtime-events): `company-{id}-whatsapp` (update / delete) and
 * `company-{id}-whatsappSession` (status, qrcode, retries). A connection carries its token and its
 * channel's secrets, so they go only to the sockets of users who may see connections (docs/product/roles-and-permissions.md#roles-in-the-inbox: admins,
 * super users of the company, profile users with allowConnections) — never to the whole company.
 */

/** The rooms of the company's users who may see connections. */
export async function connectionAudience(ctx: PluginContext, companyId: number): Promise<string[]> {
  const ids: number[] = await ctx.db
    .knex('users')
    .where({ companyId })
    .andWhere((query) => query.where('profile', 'admin').orWhere('super', true).orWhere('allowConnections', 'enabled'))
    .pluck('id');
  return ids.map((id) => ROOMS.user(id));
}

async function emitToAudience(ctx: PluginContext, companyId: number, channel: string, payload: unknown): Promise<void> {
  const rooms = await connectionAudience(ctx, companyId);
  // no rooms would mean "the whole namespace": with nobody entitled, nothing is sent
  if (rooms.length === 0) return;
  ctx.realtime.emit(companyId, companyEvent(companyId, channel), payload, { rooms });
}

/** A connection was created or changed. */
export function emitConnectionUpdate(ctx: PluginContext, connection: ConnectionShape): Promise<void> {
  return emitToAudience(ctx, connection.companyId, 'whatsapp', {
    action: 'update',
    whatsapp: connection,
  } satisfies ConnectionEvent);
}

/** A connection was deleted. */
export function emitConnectionDelete(ctx: PluginContext, companyId: number, connectionId: number): Promise<void> {
  return emitToAudience(ctx, companyId, 'whatsapp', { action: 'delete', whatsappId: connectionId } satisfies ConnectionEvent);
}

/** A connection's session changed (status, qrcode, retries). */
export function emitSessionUpdate(ctx: PluginContext, session: ConnectionShape): Promise<void> {
  return emitToAudience(ctx, session.companyId, 'whatsappSession', {
    action: 'update',
    session,
  } satisfies ConnectionSessionEvent);
}

/** Import progress, to the users who may see connections (it names the connection). */
export async function emitImportProgress(ctx: PluginContext, companyId: number, event: ImportProgressEvent): Promise<void> {
  const rooms = await connectionAudience(ctx, companyId);
  if (rooms.length === 0) return;
  ctx.realtime.emit(companyId, `importMessages-${companyId}`, event, { rooms });
}
