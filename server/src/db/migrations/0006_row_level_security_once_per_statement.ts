import type { Knex } from 'knex';
import { FIRST_POLICY_CONDITION, secureTenantTables, setPolicyCondition, tenantTables } from '../row-level-security';

/**
 * The tenant policy's company computed once per statement (docs/architecture.md#tenancy, "Row-level
 * security"): `secureTenantTables` brings every tenant table's policy to the current form.
 */
export async function up(knex: Knex): Promise<void> {
  await secureTenantTables(knex);
}

export async function down(knex: Knex): Promise<void> {
  for (const state of await tenantTables(knex)) {
    if (state.policy) await setPolicyCondition(knex, `"${state.table.replaceAll('"', '""')}"`, FIRST_POLICY_CONDITION);
  }
}
