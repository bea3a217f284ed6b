import type { ChannelDriver, OutboundTarget, PluginContext } from '@balcao/plugin-sdk/server';
import { inboxState } from './inbox-state';

/**
 * The channel drivers of a running app (ARCHITECTURE §7): the channels plugin registers one per channel
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
  const { knex } = ctx.db;
  const [contact, identities] = await Promise.all([
    knex('contacts').where({ companyId, id: ticket.contactId }).first('id', 'number'),
    knex('contactIdentities')
      .where({ companyId, contactId: ticket.contactId, channel: ticket.channel })
      .orderBy('id')
      .pluck('identifier'),
  ]);
  return {
    companyId,
    whatsappId: ticket.whatsappId,
    channel: ticket.channel,
    ticket: { id: ticket.id, uuid: ticket.uuid, isGroup: ticket.isGroup },
    contact: { id: ticket.contactId, number: contact?.number ?? null, identifiers: identities as string[] },
  };
}
