import type { Knex } from 'knex';

/** One fingerprint per table: a hash of every row of the company (order-free) and the row count. */
export type TenantSnapshot = Map<string, { hash: string; rows: number }>;

/** Every table of the public schema with a `company_id` column: the tenant tables (docs/architecture.md#tenancy). */
export async function tenantTables(knex: Knex): Promise<string[]> {
  const rows: Array<{ tableName: string }> = await knex('information_schema.columns')
    .where({ tableSchema: 'public', columnName: 'company_id' })
    .distinct('tableName')
    .orderBy('tableName');
  return rows.map((row) => row.tableName);
}

/**
 * Fingerprints all of a company's rows — its row of `companies` and its rows of every tenant table — in
 * one query, so a walker can tell whether a request changed anything of that company.
 */
export async function snapshotCompany(knex: Knex, tables: string[], companyId: number): Promise<TenantSnapshot> {
  const part = (table: string, where: string) =>
    // one-word aliases: raw results bypass knex's camelCase mapping
    `select '${table}' as tbl, count(*)::int as n, ` +
    `md5(coalesce(string_agg(md5(x::text), ',' order by md5(x::text)), '')) as h from "${table}" x where ${where}`;
  const sql = [part('companies', 'x.id = :companyId'), ...tables.map((table) => part(table, 'x.company_id = :companyId'))].join(
    ' union all ',
  );
  const result = await knex.raw(sql, { companyId });
  const rows = result.rows as Array<{ tbl: string; n: number; h: string }>;
  const snapshot: TenantSnapshot = new Map(rows.map((row) => [row.tbl, { hash: row.h, rows: row.n }]));
  if (snapshot.size !== tables.length + 1) throw new Error(`snapshot of company ${companyId} misses tables`);
  return snapshot;
}

/** The tables whose rows differ between two snapshots, with the row counts before and after. */
export function changedTables(before: TenantSnapshot, after: TenantSnapshot): string[] {
  const changed: string[] = [];
  for (const [table, was] of before) {
    const now = after.get(table);
    if (!now || now.hash !== was.hash) changed.push(`${table} (${was.rows} → ${now?.rows ?? 0} rows)`);
  }
  return changed;
}
