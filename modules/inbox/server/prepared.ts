import { tenantStatement } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';

/**
 * The inbox's hot statements run straight through node-pg on a connection of the knex pool (or of a knex
 * transaction): their SQL text is fixed, written once, and prepared once per connection under its name.
 * The query builder's compilation and knex's binding rewrites (`?` and `:name` to `$n`, scanned per call)
 * were a visible part of the server's CPU per request (docs/benchmarks.md, "Inbox").
 */

/** A statement with a fixed text, prepared once per connection under its name. */
export interface Statement {
  name: string;
  text: string;
}

/** A statement written with `:name` placeholders, compiled once to `$n` and the names in order. */
export interface NamedStatement extends Statement {
  keys: string[];
}

/**
 * Compiles `:name` placeholders (not `::type` casts, nothing inside quotes) to `$1`, `$2`… — one number per
 * name, however often it appears.
 */
export function named(name: string, sql: string): NamedStatement {
  const keys: string[] = [];
  const text = sql
    .split(/('(?:[^']|'')*')/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(/(^|[^:]):([A-Za-z_]\w*)/g, (_match, before: string, key: string) => {
            let position = keys.indexOf(key);
            if (position < 0) position = keys.push(key) - 1;
            return `${before}$${position + 1}`;
          }),
    )
    .join('');
  return { name, text, keys };
}

/** The values of a named statement, in the order of its placeholders (a missing one is an error). */
export function valuesOf(statement: NamedStatement, values: Record<string, unknown>): unknown[] {
  return statement.keys.map((key) => {
    const value = values[key];
    if (value === undefined) throw new Error(`${statement.name}: no value for :${key}`);
    return value;
  });
}

interface PooledClient {
  query(config: {
    name: string;
    text: string;
    values: unknown[];
    rowMode?: 'array';
    types?: { getTypeParser: () => (value: string) => string };
  }): Promise<{ rows: unknown[] }>;
}

interface KnexClient {
  acquireConnection(): Promise<PooledClient>;
  releaseConnection(connection: PooledClient): Promise<unknown>;
}

/** Every value as Postgres' text of it: the renderers write most of them as they are. */
const RAW_TEXT = { getTypeParser: () => (value: string) => value };

/**
 * Runs a prepared statement on a pooled connection of `db` (the transaction's own one for a knex
 * transaction). Rows come as objects of parsed values; `raw`: as arrays of Postgres' text (or null).
 * `tenant`: a company, whose rows alone the statement sees — it runs under row-level security for it
 * (the SDK's `tenantStatement`, in the same round trip), so a filter it forgets finds nothing of another
 * company (docs/architecture.md#tenancy, "Row-level security").
 */
export async function runStatement<Row>(
  db: Knex,
  statement: Statement,
  values: unknown[],
  options: { raw?: boolean; tenant?: number } = {},
): Promise<Row[]> {
  const query = {
    name: statement.name,
    text: statement.text,
    values,
    ...(options.raw ? { rowMode: 'array' as const, types: RAW_TEXT } : {}),
  };
  if (options.tenant !== undefined) return (await tenantStatement<Row>(db, query, { companyId: options.tenant })).rows;
  const client = db.client as unknown as KnexClient;
  const connection = await client.acquireConnection();
  try {
    const result = await connection.query(query);
    return result.rows as Row[];
  } finally {
    await client.releaseConnection(connection);
  }
}

/** `runStatement` with raw rows: arrays of Postgres' text of each value (or null); `tenant` as there. */
export function rawRows(
  db: Knex,
  statement: Statement,
  values: unknown[],
  tenant?: number,
): Promise<Array<Array<string | null>>> {
  return runStatement<Array<string | null>>(db, statement, values, { raw: true, tenant });
}
