import { type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import { updateConnectionStatus } from '../connections/session.service';

/**
 * `POST /closedimported/:id` and the end of an import with `closedTicketsPostImported`: closes the tickets an
 * import opened that are still open (each with its log entry and events, through the inbox), and clears the
 * list's button. Answers how many were closed.
 */
export async function closeImportedTickets(ctx: PluginContext, companyId: number, connectionId: number): Promise<number> {
  const { knex } = ctx.db;
  const rows = (await knex('whatsappImportedTickets')
    .where({ companyId, whatsappId: connectionId })
    .select('ticketId')) as Array<{
    ticketId: number;
  }>;
  const ids = rows.map((row) => row.ticketId);
  let closed = 0;
  await runInTenant({ companyId }, async () => {
    const inbox = ctx.services.use('inbox');
    for (const ticketId of ids) {
      for (const status of ['pending', 'open'] as const) {
        const changed = await inbox.applyTicketChange({
          ticketId,
          status: 'closed',
          logs: [{ type: 'closed', userId: null }],
          expect: { status },
        });
        if (changed) {
          closed += 1;
          break;
        }
      }
    }
  });
  await knex('whatsappImportedTickets').where({ companyId, whatsappId: connectionId }).delete();
  await knex('whatsapps').where({ companyId, id: connectionId }).update({ statusImportMessages: null });
  await updateConnectionStatus(ctx, companyId, connectionId, {});
  return closed;
}
