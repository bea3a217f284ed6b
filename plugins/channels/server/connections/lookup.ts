import { AppError } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { type ConnectionRow, connectionRow } from './serializer';

/** A connection row of the company, or 404 ERR_NO_WAPP_FOUND (another company's id included). */
export async function findConnection(
  knex: Knex | Knex.Transaction,
  companyId: number,
  connectionId: number,
  options: { lock?: boolean } = {},
): Promise<ConnectionRow> {
  const query = knex('whatsapps').where({ companyId, id: connectionId }).first();
  if (options.lock) query.forUpdate();
  const row = (await query) as Record<string, unknown> | undefined;
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
  return connectionRow(row);
}
