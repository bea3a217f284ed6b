import { foreignIdError } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';

/**
 * A queue's `integrationId` and its integration options' `optIntegrationId` name rows of the integrations
 * feature's table (`queueIntegrations`, the flow builder's), as the connections' references do: each must be
 * a row of the company, else 404 (`ERR_NO_INTEGRATION_FOUND` where that code exists). Without the feature
 * installed there is nothing to name, so any id is refused. (`hasTable` takes the table's name in Postgres,
 * which knex's camelCase mapping doesn't reach.)
 */
export async function requireCompanyIntegrations(
  trx: Knex.Transaction,
  companyId: number,
  ids: Array<number | null | undefined>,
) {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  if (wanted.length === 0) return;
  const installed = await trx.schema.hasTable('queue_integrations');
  const found: number[] = installed ? await trx('queueIntegrations').where({ companyId }).whereIn('id', wanted).pluck('id') : [];
  if (found.length !== wanted.length) throw foreignIdError('integration');
}
