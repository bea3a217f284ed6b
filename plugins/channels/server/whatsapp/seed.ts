import type { PluginContext } from '@balcao/plugin-sdk/server';
import { newConnectionToken } from '../connections/token';

/** The demo WhatsApp connection's name. */
export const DEMO_WHATSAPP_NAME = 'WhatsApp Acme (demo)';

/**
 * Acme's demo WhatsApp connection (idempotent): DISCONNECTED — there is no phone behind it — and the owner
 * of the demo's WhatsApp conversations that have none, so that the Connections page shows where they come
 * from and a message sent on one fails at once with why (`ERR_WAPP_NOT_INITIALIZED`) instead of waiting
 * for ever. Not the default connection: new conversations go to one that works.
 */
export async function seedWhatsappDemo(ctx: PluginContext, demo: { companies: Record<string, number> }): Promise<number | null> {
  const companyId = demo.companies.acme;
  if (!companyId) return null;
  const { knex } = ctx.db;
  const existing = (await knex('whatsapps').where({ companyId, channel: 'whatsapp', name: DEMO_WHATSAPP_NAME }).first('id')) as
    | { id: number }
    | undefined;
  const connectionId =
    existing?.id ??
    ((
      await knex('whatsapps')
        .insert({
          companyId,
          name: DEMO_WHATSAPP_NAME,
          channel: 'whatsapp',
          status: 'DISCONNECTED',
          isDefault: false,
          token: newConnectionToken(),
        })
        .returning('id')
    )[0].id as number);
  const tickets = knex('tickets').where({ companyId, channel: 'whatsapp' }).whereNull('whatsappId').select('id');
  await knex('messages')
    .where({ companyId })
    .whereIn('ticketId', tickets.clone())
    .whereNull('whatsappId')
    .update({ whatsappId: connectionId });
  await knex('tickets').where({ companyId, channel: 'whatsapp' }).whereNull('whatsappId').update({ whatsappId: connectionId });
  return connectionId;
}
