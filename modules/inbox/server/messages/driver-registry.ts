import type { ChannelDriver, OutboundTarget, PluginContext } from '@balcao/plugin-sdk/server';
import { inboxState } from '../state';

/**
 * The channel drivers of a running app (docs/architecture.md#the-channels-plugin): the channels plugin registers one per channel
 * name through `ctx.services.use('inbox').registerDriver(channel, driver)`. Registering a channel again
 * replaces its driver; the returned function unregisters it (only if it is still the one registered).
 */
export function registerDriver(ctx: PluginContext, channel: string, driver: ChannelDriver): () => void {
  const { drivers } = inboxState(ctx);
  drivers.set(channel, driver);
  return () => {
    if (drivers.get(channel) === driver) drivers.delete(channel);
  };
}

/** The driver registered for a channel, if any. */
export function driverFor(ctx: PluginContext, channel: string): ChannelDriver | undefined {
  return inboxState(ctx).drivers.get(channel);
}

/** The ticket fields a target is built from. */
export interface TargetTicket {
  id: number;
  uuid: string;
  isGroup: boolean;
  channel: string;
  whatsappId: number | null;
  contactId: number;
}

/**
 * Where an outbound operation on a ticket goes: its connection, channel, and its contact with every
 * identifier the channel knows them by (in the order they were learnt).
 */
export async function outboundTarget(ctx: PluginContext, companyId: number, ticket: TargetTicket): Promise<OutboundTarget> {
  // one round trip: every delivery asks (a round trip costs more than the query)
  const row = (await ctx.db
    .knex('contacts as c')
    .where({ 'c.companyId': companyId, 'c.id': ticket.contactId })
    .first(
      'c.number',
      ctx.db.knex.raw(
        `coalesce((SELECT array_agg(ci.identifier ORDER BY ci.id) FROM contact_identities ci
          WHERE ci.company_id = c.company_id AND ci.contact_id = c.id AND ci.channel = ?), '{}') AS identifiers`,
        [ticket.channel],
      ),
    )) as { number: string | null; identifiers: string[] } | undefined;
  return {
    companyId,
    whatsappId: ticket.whatsappId,
    channel: ticket.channel,
    ticket: { id: ticket.id, uuid: ticket.uuid, isGroup: ticket.isGroup },
    contact: { id: ticket.contactId, number: row?.number ?? null, identifiers: row?.identifiers ?? [] },
  };
}
