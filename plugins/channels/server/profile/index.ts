import type { ConnectionProfile, ConnectionsService, PluginContext } from '@balcao/plugin-sdk/server';
import { CHANNEL_PLAN_FLAGS } from '@balcao/plugin-sdk/server';
import { defaultSchedules, type ServiceHours } from '@balcao/plugin-sdk/shared';
import { connectionRow } from '../connections/serializer';
import type { ChannelsArea } from '../index';

/**
 * The `connections` service (plugin-sdk/src/server/connections.ts): a connection's configuration as the
 * automation of every conversation reads it — the chatbot on each inbound message, the inbox when it
 * closes or reopens a ticket. Read often, changed rarely: cached per process for a few seconds and dropped
 * everywhere at once when a connection is saved or deleted (`invalidateConnectionProfile`).
 */

/** How long a profile is trusted without a change notice (a lost notice heals within this). */
const PROFILE_TTL_MS = 5_000;
/** The broadcast topic of "this connection changed". */
const CHANGED_TOPIC = 'connection-changed';

interface CachedProfile {
  profile: ConnectionProfile | null;
  expiresAt: number;
}

const caches = new WeakMap<object, Map<string, CachedProfile>>();

/** This app's cache (keyed by its inbox service: two apps in one test process keep their own). */
function cacheOf(ctx: PluginContext): Map<string, CachedProfile> {
  const key = ctx.services.use('inbox');
  let cache = caches.get(key);
  if (!cache) {
    cache = new Map();
    caches.set(key, cache);
  }
  return cache;
}

const cacheKey = (companyId: number, connectionId: number) => `${companyId}:${connectionId}`;

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const minutes = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** A `whatsapps` row (camelCase, as knex answers it) and its queue ids as the profile. */
export function profileFromRow(row: Record<string, unknown>, queueIds: number[]): ConnectionProfile {
  const schedules =
    Array.isArray(row.schedules) && row.schedules.length > 0 ? (row.schedules as ServiceHours[]) : defaultSchedules();
  return {
    id: row.id as number,
    companyId: row.companyId as number,
    name: text(row.name),
    channel: text(row.channel),
    status: text(row.status),
    isDefault: row.isDefault === true,
    allowGroup: row.allowGroup === true,
    groupAsTicket: row.groupAsTicket === 'enabled' ? 'enabled' : 'disabled',
    greetingMessage: text(row.greetingMessage),
    complationMessage: text(row.complationMessage),
    outOfHoursMessage: text(row.outOfHoursMessage),
    ratingMessage: text(row.ratingMessage),
    collectiveVacationMessage: text(row.collectiveVacationMessage),
    collectiveVacationStart: (row.collectiveVacationStart as string | null) ?? null,
    collectiveVacationEnd: (row.collectiveVacationEnd as string | null) ?? null,
    maxUseBotQueues: minutes(row.maxUseBotQueues),
    timeUseBotQueues: minutes(row.timeUseBotQueues),
    maxUseBotQueuesNPS: minutes(row.maxUseBotQueuesNPS),
    expiresTicket: minutes(row.expiresTicket),
    whenExpiresTicket: row.whenExpiresTicket === 1 ? 1 : 0,
    expiresTicketNPS: minutes(row.expiresTicketNPS),
    expiresInactiveMessage: text(row.expiresInactiveMessage),
    timeInactiveMessage: minutes(row.timeInactiveMessage),
    inactiveMessage: text(row.inactiveMessage),
    timeCreateNewTicket: minutes(row.timeCreateNewTicket),
    timeSendQueue: minutes(row.timeSendQueue),
    sendIdQueue: (row.sendIdQueue as number | null) ?? null,
    queueIds,
    schedules,
    lgpdMessage: text(row.lgpdMessage),
    integrationId: (row.integrationId as number | null) ?? null,
    promptId: (row.promptId as number | null) ?? null,
    flowIdWelcome: (row.flowIdWelcome as number | null) ?? null,
    flowIdNotPhrase: (row.flowIdNotPhrase as number | null) ?? null,
  };
}

/** Reads a profile from the database: the row and its queues in the queues' menu order. */
async function loadProfile(ctx: PluginContext, companyId: number, connectionId: number): Promise<ConnectionProfile | null> {
  const { knex } = ctx.db;
  const [row, queueIds] = await Promise.all([
    knex('whatsapps').where({ companyId, id: connectionId }).first(),
    knex('whatsappQueues as wq')
      .join('queues as q', 'q.id', 'wq.queueId')
      .where({ 'wq.companyId': companyId, 'wq.whatsappId': connectionId })
      .orderByRaw('q.order_queue ASC NULLS LAST, q.name ASC, q.id ASC')
      .pluck('q.id'),
  ]);
  // connectionRow: knex's case mapping answers the `…NPS` columns as `…Nps`
  return row ? profileFromRow(connectionRow(row) as unknown as Record<string, unknown>, queueIds as number[]) : null;
}

/** The service the plugin provides as `connections`. */
export function createConnectionsService(ctx: PluginContext): ConnectionsService {
  return {
    async profile(companyId, connectionId) {
      const cache = cacheOf(ctx);
      const key = cacheKey(companyId, connectionId);
      const hit = cache.get(key);
      if (hit && hit.expiresAt > Date.now()) return hit.profile;
      const profile = await loadProfile(ctx, companyId, connectionId);
      cache.set(key, { profile, expiresAt: Date.now() + PROFILE_TTL_MS });
      return profile;
    },
    async hasAny(companyId) {
      const rows = (await ctx.db.knex('whatsapps').where({ companyId }).distinct('channel')) as Array<{ channel: string }>;
      if (rows.length === 0) return false;
      const flags = await ctx.plans.flags(companyId);
      return rows.some(({ channel }) => {
        const flag = CHANNEL_PLAN_FLAGS[channel];
        return !flag || flags[flag];
      });
    },
    async byToken(token) {
      const row = (await ctx.db.knex('whatsapps').where({ token }).first('id', 'companyId')) as
        | { id: number; companyId: number }
        | undefined;
      return row ? { companyId: row.companyId, whatsappId: row.id } : null;
    },
  };
}

/**
 * Call after every write to a connection (or its queues): this process forgets it at once, the others when
 * the broadcast arrives (a fraction of a millisecond on one host; at most PROFILE_TTL_MS if it is lost).
 */
export async function invalidateConnectionProfile(ctx: PluginContext, companyId: number, connectionId: number): Promise<void> {
  cacheOf(ctx).delete(cacheKey(companyId, connectionId));
  await ctx.broadcast.publish(CHANGED_TOPIC, { companyId, whatsappId: connectionId });
}

const listeners = new WeakMap<PluginContext, () => Promise<void>>();

/** Provides the `connections` service and listens for other processes' changes. */
export const profileArea: ChannelsArea = {
  async register(_app, ctx) {
    ctx.services.provide('connections', createConnectionsService(ctx));
    const cache = cacheOf(ctx);
    const stop = await ctx.broadcast.subscribe(CHANGED_TOPIC, (payload) => {
      const { companyId, whatsappId: connectionId } = payload as { companyId: number; whatsappId: number };
      cache.delete(cacheKey(companyId, connectionId));
    });
    listeners.set(ctx, stop);
  },
  async close(ctx) {
    await listeners.get(ctx)?.();
    listeners.delete(ctx);
  },
};
