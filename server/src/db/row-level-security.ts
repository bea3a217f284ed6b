import { TENANT_COMPANY_SETTING, TENANT_DB_ROLE } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';

/**
 * PostgreSQL row-level security on the tenant tables (docs/architecture.md#tenancy, "Row-level
 * security"): a defence behind the models' company filter. The app connects as the tables' owner (in
 * development a superuser), and owners and superusers bypass row-level security, so the policies name a
 * role of their own, `balcao_tenant` (NOLOGIN): the SDK's `tenantTransaction` switches to it for one
 * transaction and sets the company there. Everything else (platform screens, workers across companies,
 * migrations) runs as the owner, untouched.
 */

/** The name of the policy on every tenant table. */
export const TENANT_POLICY = 'balcao_tenant_isolation';

/**
 * The company of the transaction, or null when none is set. `current_setting(…, true)` answers null for a
 * setting never set on the connection but '' after a transaction that set it locally ended: both mean none.
 * Behind a scalar subquery it is an init plan, computed once per statement: as a bare expression it was
 * computed again for every row the policy filtered (the setting looked up, the text cast), and an index on
 * `company_id` takes it as its condition either way.
 */
export const COMPANY_OF_TRANSACTION = `(SELECT NULLIF(current_setting('${TENANT_COMPANY_SETTING}', true), '')::int)`;

/** The policy's condition, `USING` and `WITH CHECK` alike. */
const POLICY_CONDITION = `company_id = ${COMPANY_OF_TRANSACTION}`;

/** The condition of the first form of the policy (migration 0005): brought to `POLICY_CONDITION`. */
export const FIRST_POLICY_CONDITION = `company_id = NULLIF(current_setting('${TENANT_COMPANY_SETTING}', true), '')::int`;

/**
 * Creates the role when the cluster has none. Roles are cluster-wide: every database of the cluster (each
 * test's throwaway one too) shares it, and two migrating at once may both find it missing, so losing that
 * race is fine. A non-superuser owner must be a member of the role to `SET ROLE` to it.
 */
const ENSURE_ROLE = `
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${TENANT_DB_ROLE}') THEN
    BEGIN
      CREATE ROLE ${TENANT_DB_ROLE} NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
     AND NOT pg_has_role(current_user, '${TENANT_DB_ROLE}', 'MEMBER') THEN
    EXECUTE format('GRANT ${TENANT_DB_ROLE} TO %I', current_user);
  END IF;
END
$$`;

/** A table's name as an SQL identifier. */
const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** One table with a `company_id` column, and whether row-level security guards it. */
export interface TenantTableState {
  table: string;
  /** Row-level security is enabled on the table. */
  rowSecurity: boolean;
  /** The table has the tenant policy. */
  policy: boolean;
  /** The policy's condition as Postgres prints it (`USING`; `WITH CHECK` is kept the same), null without one. */
  condition: string | null;
}

/**
 * Every table (plain or partitioned) of the current schema with a `company_id` column: the tenant tables,
 * found from the catalog rather than a list, so that a feature's new table is never forgotten.
 */
export async function tenantTables(db: Knex): Promise<TenantTableState[]> {
  const { rows } = (await db.raw(
    `SELECT c.relname AS "table", c.relrowsecurity AS "rowSecurity",
            p.oid IS NOT NULL AS "policy", pg_get_expr(p.polqual, p.polrelid) AS "condition"
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped
       LEFT JOIN pg_policy p ON p.polrelid = c.oid AND p.polname = ?
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
      ORDER BY c.relname`,
    [TENANT_POLICY],
  )) as { rows: TenantTableState[] };
  return rows;
}

/**
 * Brings the schema to the state row-level security needs, idempotently: the role exists; it may use the
 * schema and read and write every table and sequence (and those created later, through default
 * privileges); every tenant table has row-level security enabled and the tenant policy. Returns the tables
 * it secured now. The core migration runs it once, and the migration runner again after any migration of
 * any feature, so a plugin's table is secured the moment it exists.
 */
export async function secureTenantTables(db: Knex): Promise<string[]> {
  await db.raw(ENSURE_ROLE);
  const { rows } = (await db.raw('SELECT current_schema() AS schema')) as { rows: Array<{ schema: string }> };
  const schema = identifier(rows[0]?.schema ?? 'public');
  const role = TENANT_DB_ROLE;
  await db.raw(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
  await db.raw(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
  await db.raw(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`);
  // tables a later migration creates (as this same user) get the grants at birth
  await db.raw(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role}`);
  await db.raw(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${role}`);

  const secured: string[] = [];
  const current = await printedCondition(db, POLICY_CONDITION);
  for (const state of await tenantTables(db)) {
    if (state.rowSecurity && state.policy && state.condition === current) continue;
    const table = `${schema}.${identifier(state.table)}`;
    if (!state.rowSecurity) await db.raw(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
    if (!state.policy) {
      // USING hides other companies' rows; WITH CHECK refuses writing a row into another company
      await db.raw(
        `CREATE POLICY ${TENANT_POLICY} ON ${table} AS PERMISSIVE FOR ALL TO ${role}
           USING (${POLICY_CONDITION}) WITH CHECK (${POLICY_CONDITION})`,
      );
    } else if (state.condition !== current) {
      // an older form of the policy: the same rows, computed as today
      await setPolicyCondition(db, table, POLICY_CONDITION);
    }
    secured.push(state.table);
  }
  return secured;
}

/** Sets the tenant policy of `table` (an SQL name) to `condition`, for reads and writes. */
export async function setPolicyCondition(db: Knex, table: string, condition: string): Promise<void> {
  await db.raw(`ALTER POLICY ${TENANT_POLICY} ON ${table} USING (${condition}) WITH CHECK (${condition})`);
}

/**
 * A condition as Postgres prints a policy's (`pg_get_expr`), to compare a policy with: it is written on a
 * throwaway table of this session, which row-level security never sees.
 */
async function printedCondition(db: Knex, condition: string): Promise<string> {
  // one transaction (a savepoint inside the caller's): the table lives on one connection, and is gone after
  return db.transaction(async (trx) => {
    await trx.raw('CREATE TEMPORARY TABLE balcao_policy_probe (company_id int)');
    await trx.raw(`CREATE POLICY probe ON pg_temp.balcao_policy_probe USING (${condition})`);
    const { rows } = (await trx.raw(
      "SELECT pg_get_expr(polqual, polrelid) AS condition FROM pg_policy WHERE polrelid = 'pg_temp.balcao_policy_probe'::regclass",
    )) as { rows: Array<{ condition: string }> };
    await trx.raw('DROP TABLE pg_temp.balcao_policy_probe');
    return rows[0]?.condition ?? condition;
  });
}

/** Undoes `secureTenantTables` on this database (the role, shared by the cluster, stays). */
export async function unsecureTenantTables(db: Knex): Promise<void> {
  const { rows } = (await db.raw('SELECT current_schema() AS schema')) as { rows: Array<{ schema: string }> };
  const schema = identifier(rows[0]?.schema ?? 'public');
  for (const state of await tenantTables(db)) {
    const table = `${schema}.${identifier(state.table)}`;
    if (state.policy) await db.raw(`DROP POLICY ${TENANT_POLICY} ON ${table}`);
    if (state.rowSecurity) await db.raw(`ALTER TABLE ${table} DISABLE ROW LEVEL SECURITY`);
  }
  const role = TENANT_DB_ROLE;
  await db.raw(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} REVOKE ALL ON TABLES FROM ${role}`);
  await db.raw(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} REVOKE ALL ON SEQUENCES FROM ${role}`);
  await db.raw(`REVOKE ALL ON ALL TABLES IN SCHEMA ${schema} FROM ${role}`);
  await db.raw(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${schema} FROM ${role}`);
  await db.raw(`REVOKE ALL ON SCHEMA ${schema} FROM ${role}`);
}
