import type { PluginContext } from '@balcao/plugin-sdk/server';
import { defaultSchedules } from '@balcao/plugin-sdk/shared';
import type { Knex } from 'knex';
import type { ConnectionOfCompany, ConnectionQueue, ConnectionShape } from '../../shared/connection';
import { type ChannelConnection, channelRegistry } from '../drivers/registry';
import { greetingMediaName } from './greeting-media';

/** A `whatsapps` row as knex answers it (camelCase). */
export interface ConnectionRow
  extends Omit<ConnectionShape, 'queueIds' | 'queues' | 'greetingMediaUrl' | 'updatedAt' | 'session' | 'whenExpiresTicket'> {
  whenExpiresTicket: number;
  /** The storage key of the greeting's media (see greeting-media.ts). */
  greetingMediaAttachment: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A row as read, with the two NPS columns under their documented names: the snake-case mapping writes
 * `expiresTicketNPS` to `expires_ticket_nps` but reads it back as `expiresTicketNps`.
 */
export function connectionRow(raw: Record<string, unknown>): ConnectionRow {
  const { maxUseBotQueuesNps, expiresTicketNps, ...rest } = raw;
  return {
    ...rest,
    maxUseBotQueuesNPS: (raw.maxUseBotQueuesNPS ?? maxUseBotQueuesNps) as number,
    expiresTicketNPS: (raw.expiresTicketNPS ?? expiresTicketNps) as number,
  } as ConnectionRow;
}

/** The queues of each connection, in the queues' menu order. */
export async function queuesByConnection(knex: Knex, connectionIds: number[]): Promise<Map<number, ConnectionQueue[]>> {
  const byConnection = new Map<number, ConnectionQueue[]>();
  if (connectionIds.length === 0) return byConnection;
  const rows: Array<ConnectionQueue & { whatsappId: number }> = await knex('whatsappQueues as wq')
    .join('queues as q', function joinSameCompany() {
      this.on('q.id', '=', 'wq.queueId').andOn('q.companyId', '=', 'wq.companyId');
    })
    .whereIn('wq.whatsappId', connectionIds)
    .orderByRaw('q.order_queue ASC NULLS LAST, q.name ASC, q.id ASC')
    .select('wq.whatsappId', 'q.id', 'q.name', 'q.color');
  for (const { whatsappId: connectionId, ...queue } of rows) {
    const list = byConnection.get(connectionId) ?? [];
    list.push(queue);
    byConnection.set(connectionId, list);
  }
  return byConnection;
}

/** A connection as a channel definition sees it. */
export function channelConnectionOf(row: ConnectionRow): ChannelConnection {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    channel: row.channel,
    status: row.status,
    channelConfig: row.channelConfig ?? {},
  };
}

/** Options of the answer. */
export interface ShapeOptions {
  /** `?session=1`: add the session (its keys never leave the server: null). */
  session?: boolean;
}

/** One connection as the API answers it (given its queues). */
export function shapeOf(
  ctx: PluginContext,
  row: ConnectionRow,
  queues: ConnectionQueue[],
  options: ShapeOptions = {},
): ConnectionShape {
  const definition = channelRegistry(ctx).get(row.channel);
  const config = row.channelConfig ?? {};
  const mediaName = row.greetingMediaAttachment ? greetingMediaName(row.greetingMediaAttachment) : null;
  const shape: ConnectionShape = {
    id: row.id,
    name: row.name,
    number: row.number,
    channel: row.channel,
    status: row.status,
    isDefault: row.isDefault,
    allowGroup: row.allowGroup,
    groupAsTicket: row.groupAsTicket === 'enabled' ? 'enabled' : 'disabled',
    token: row.token,
    greetingMessage: row.greetingMessage,
    complationMessage: row.complationMessage,
    outOfHoursMessage: row.outOfHoursMessage,
    ratingMessage: row.ratingMessage,
    collectiveVacationMessage: row.collectiveVacationMessage,
    collectiveVacationStart: row.collectiveVacationStart,
    collectiveVacationEnd: row.collectiveVacationEnd,
    maxUseBotQueues: row.maxUseBotQueues,
    timeUseBotQueues: row.timeUseBotQueues,
    maxUseBotQueuesNPS: row.maxUseBotQueuesNPS,
    expiresTicket: row.expiresTicket,
    whenExpiresTicket: row.whenExpiresTicket === 1 ? 1 : 0,
    expiresTicketNPS: row.expiresTicketNPS,
    expiresInactiveMessage: row.expiresInactiveMessage,
    timeInactiveMessage: row.timeInactiveMessage,
    inactiveMessage: row.inactiveMessage,
    timeCreateNewTicket: row.timeCreateNewTicket,
    timeSendQueue: row.timeSendQueue,
    sendIdQueue: row.sendIdQueue,
    integrationId: row.integrationId,
    promptId: row.promptId,
    flowIdWelcome: row.flowIdWelcome,
    flowIdNotPhrase: row.flowIdNotPhrase,
    queueIds: queues.map((queue) => queue.id),
    queues,
    // a row written before its week was chosen (or by a seed) works on the default week, as the profile does
    schedules: Array.isArray(row.schedules) && row.schedules.length > 0 ? row.schedules : defaultSchedules(),
    greetingMediaAttachment: mediaName,
    greetingMediaUrl:
      row.greetingMediaAttachment && mediaName
        ? ctx.storage.signedUrl(row.companyId, row.greetingMediaAttachment, { fileName: mediaName })
        : null,
    importOldMessages: row.importOldMessages,
    importRecentMessages: row.importRecentMessages,
    importOldMessagesGroups: row.importOldMessagesGroups,
    closedTicketsPostImported: row.closedTicketsPostImported,
    queueIdImportMessages: row.queueIdImportMessages,
    statusImportMessages: row.statusImportMessages,
    updatedAt: new Date(row.updatedAt).toISOString(),
    qrcode: row.qrcode,
    sessionError: row.sessionError ?? null,
    pairingCode: row.pairingCode ?? null,
    companyId: row.companyId,
    provider: row.provider,
    retries: row.retries,
    lgpdMessage: row.lgpdMessage,
    channelConfig: definition?.publicConfig ? definition.publicConfig(config) : config,
  };
  if (options.session) shape.session = null;
  return shape;
}

/** Rows as the API answers them, queues read in one query. */
export async function shapesOf(
  ctx: PluginContext,
  rows: ConnectionRow[],
  options: ShapeOptions = {},
): Promise<ConnectionShape[]> {
  const queues = await queuesByConnection(
    ctx.db.knex,
    rows.map((row) => row.id),
  );
  return rows.map((row) => shapeOf(ctx, row, queues.get(row.id) ?? [], options));
}

/** Rows of many companies (the super user's overview), each with its company's name. */
export async function shapesWithCompany(
  ctx: PluginContext,
  rows: Array<ConnectionRow & { companyName: string }>,
  options: ShapeOptions = {},
): Promise<ConnectionOfCompany[]> {
  const shapes = await shapesOf(ctx, rows, options);
  return shapes.map((shape, index) => ({ ...shape, companyName: (rows[index] as { companyName: string }).companyName }));
}
