import type { Knex } from 'knex';
import { secureTenantTables, unsecureTenantTables } from '../row-level-security';

/**
 * Row-level security on every tenant table (docs/architecture.md#tenancy, "Row-level security"): the role
 * `balcao_tenant`, its grants, and the policy keyed by the transaction's company. Features' tables created
 * later are secured by the migration runner after their migrations.
 */
export async function up(knex: Knex): Promise<void> {
  await secureTenantTables(knex);
}

export async function down(knex: Knex): Promise<void> {
  await unsecureTenantTables(knex);
}
