import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import { boundModelKnex, currentTenant, requireCompanyId, TenantScopeError } from './tenancy';

/**
 * The database role of tenant transactions. Row-level security policies on every table with a
 * `company_id` (created by the core's migrations, and by the migration runner for features' tables) let
 * this role see and write only the rows of the transaction's company. It can't log in: the app's own
 * user switches to it for one transaction.
 */
export const TENANT_DB_ROLE = 'balcao_tenant';

/** The transaction-local setting that holds the company row-level security lets through. */
export const TENANT_COMPANY_SETTING = 'balcao.company_id';

/** The open tenant transaction of the running code and its company. */
interface HeldTransaction {
  companyId: number;
  trx: Knex.Transaction;
}

/**
 * One store per process under a global symbol, like the tenant scope's (tenancy.ts): the bundled core and
 * a plugin importing the SDK from source see the same open transaction. `TenantQueryBuilder` reads it
 * through the same symbol.
 */
const TRANSACTION_KEY = Symbol.for('balcao.sdk.tenantTransaction');
const globals = globalThis as typeof globalThis & { [TRANSACTION_KEY]?: AsyncLocalStorage<HeldTransaction> };
globals[TRANSACTION_KEY] ??= new AsyncLocalStorage<HeldTransaction>();
const held: AsyncLocalStorage<HeldTransaction> = globals[TRANSACTION_KEY];

/**
 * The company a tenant scope of the database is entered for: the current tenant scope's, or `companyId`
 * when given (code that holds its company outside any scope, a batch of one company's reads); a given one
 * that differs from the open scope's is refused.
 */
function scopeCompany(companyId: number | undefined): number {
  const scoped = currentTenant()?.companyId;
  const company = companyId ?? requireCompanyId();
  if (scoped !== undefined && scoped !== company) throw new TenantScopeError("another company than the scope's");
  if (!Number.isSafeInteger(company) || company <= 0) throw new TenantScopeError(`not a company id: ${company}`);
  return company;
}

/**
 * What enters a tenant transaction, in one simple-protocol message (one round trip): the role and the
 * company, local to the transaction (`set_config(…, true)` is `SET LOCAL`), then BEGIN. Postgres runs a
 * message's statements in one implicit transaction that a BEGIN among them turns into the transaction
 * block, settings included; if a setting fails, BEGIN never runs and the connection is left idle and clean.
 * The company is a checked integer, written as a literal.
 */
const beginTenant = (companyId: number) =>
  `SELECT set_config('role', '${TENANT_DB_ROLE}', true), set_config('${TENANT_COMPANY_SETTING}', '${companyId}', true); BEGIN`;

/** The parts of knex's transaction object `tenantTransaction` replaces: how it begins. */
interface BeginnableTransaction {
  begin(connection: unknown): Promise<unknown>;
  query(connection: unknown, sql: string): Promise<unknown>;
}

/**
 * Runs `work` in a transaction guarded by PostgreSQL row-level security for the current tenant scope's
 * company: the transaction runs as `balcao_tenant` with the company set for it (both local to it), so any
 * statement in it — a raw `trx('tickets')` with no company filter included — reads only that company's rows,
 * and writing a row of another company fails (`new row violates row-level security policy`). Tenant models
 * queried inside `work` (written inside it) run on this transaction without being passed `trx`.
 *
 * Use it for a feature's reads and writes of its own company's data, above all hand-written SQL, where the
 * models' company filter doesn't reach. Don't use it for work across companies (super-user screens, system
 * jobs, `crossTenant()` queries): inside it they see one company only. It costs a transaction: one round trip
 * that begins it and sets the role and the company, and COMMIT (docs/benchmarks.md, "Row-level security");
 * a single read is cheaper with `tenantStatement`. Nested calls for the same company share the outer
 * transaction; for another company they throw. Throws `TenantScopeError` outside a tenant scope. `work` may
 * return a query builder: it runs when awaited here.
 */
export async function tenantTransaction<T>(
  work: (trx: Knex.Transaction) => PromiseLike<T>,
  options: { knex?: Knex } = {},
): Promise<T> {
  const companyId = scopeCompany(undefined);
  const outer = held.getStore();
  if (outer && !outer.trx.isCompleted()) {
    if (outer.companyId !== companyId) throw new TenantScopeError('a tenant transaction of another company is open');
    return await work(outer.trx);
  }
  const knex = options.knex ?? boundModelKnex();
  if (!knex) throw new Error('tenantTransaction: no knex instance is bound (bindModelKnex) and none was given');
  const transaction = knex.transaction((trx) =>
    // a query builder is a thenable (PromiseLike): awaited here, it runs inside the transaction
    held.run({ companyId, trx }, async () => await work(trx)),
  ) as unknown as Promise<T> & Partial<BeginnableTransaction>;
  const { begin, query } = transaction;
  if (typeof begin !== 'function' || typeof query !== 'function') {
    throw new Error('tenantTransaction: knex transactions no longer begin as this SDK expects');
  }
  // knex begins the transaction after this tick: its BEGIN becomes the one message that also enters the scope
  transaction.begin = async (connection: unknown) => {
    await query.call(transaction, connection, beginTenant(companyId));
    // knex's query has already rejected the transaction with the error: `work` must not run
    if ((transaction as unknown as Knex.Transaction).isCompleted()) throw new TenantScopeError('the tenant scope failed');
  };
  return await transaction;
}

/** A statement for `tenantStatement`: node-pg's query config (a `name` prepares it once per connection). */
export interface TenantStatementQuery {
  /** The SQL, with `$n` placeholders. */
  text: string;
  /** A prepared statement's name: parsed and planned once per connection. */
  name?: string;
  /** The placeholders' values. */
  values?: unknown[];
  /** `'array'`: rows as arrays of values instead of objects. */
  rowMode?: 'array';
  /** node-pg's type parsers for this statement (`getTypeParser`). */
  types?: unknown;
}

/** The statement that enters the scope, prepared once per connection and bound before each scoped one. */
const SCOPE_STATEMENT = {
  name: 'balcao_tenant_scope',
  text: `SELECT set_config('role', '${TENANT_DB_ROLE}', true), set_config('${TENANT_COMPANY_SETTING}', $1, true)`,
};

/** The parts of node-pg's client and protocol connection `tenantStatement` uses. */
interface WireConnection {
  parsedStatements: Record<string, string | undefined>;
  stream: { cork?: () => void; uncork?: () => void };
  bind(config: { portal: string; statement: string; values: unknown[] }): void;
  execute(config: { portal: string }): void;
}
interface PgQuery {
  callback?: (error: Error | null, result?: { rows: unknown[] }) => void;
  submit(connection: WireConnection): Error | null;
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: WireConnection): void;
}
interface PgClient {
  connection: WireConnection;
  query(query: unknown): Promise<{ rows: unknown[] }> | undefined;
  constructor: { Query?: new (config: TenantStatementQuery) => PgQuery };
}
interface PooledKnexClient {
  acquireConnection(): Promise<PgClient>;
  releaseConnection(connection: PgClient): Promise<unknown>;
}

/** Scoped query classes, one per node-pg `Query` class (a second copy of node-pg gets its own). */
const scopedQueries = new WeakMap<object, new (companyId: number, config: TenantStatementQuery) => PgQuery>();

/**
 * node-pg's query with the scope's statement sent ahead of it in the same message batch: Bind and Execute
 * of the scope, then the query's own Parse (once per connection), Bind, Describe, Execute and one Sync.
 * Without BEGIN, Postgres runs everything up to a Sync as one implicit transaction, so the role and company
 * set by the scope hold for the query and end at its Sync, whatever happens. The scope's row and completion
 * are not the query's result: they are skipped.
 */
function scopedQueryClass(Query: new (config: TenantStatementQuery) => PgQuery) {
  let Scoped = scopedQueries.get(Query);
  if (!Scoped) {
    Scoped = class extends (Query as new (config: TenantStatementQuery) => PgQuery) {
      private scoping = true;
      constructor(
        private readonly companyId: number,
        config: TenantStatementQuery,
      ) {
        super(config);
      }
      override submit(connection: WireConnection): Error | null {
        connection.stream.cork?.();
        try {
          connection.bind({ portal: '', statement: SCOPE_STATEMENT.name, values: [String(this.companyId)] });
          connection.execute({ portal: '' });
          return super.submit(connection);
        } finally {
          connection.stream.uncork?.();
        }
      }
      override handleDataRow(message: unknown): void {
        if (!this.scoping) super.handleDataRow(message);
      }
      override handleCommandComplete(message: unknown, connection: WireConnection): void {
        if (this.scoping) this.scoping = false;
        else super.handleCommandComplete(message, connection);
      }
    };
    scopedQueries.set(Query, Scoped);
  }
  return Scoped;
}

/**
 * Runs one statement under row-level security for the current tenant scope's company (or `companyId`, see
 * below), on a pooled connection of `knex` and without a transaction: the role `balcao_tenant` and the
 * company are set by a statement that travels with it, in the same round trip, and end with it. A read
 * that forgets its company filter finds only that company's rows, as inside `tenantTransaction`, for a
 * fraction of its cost (docs/benchmarks.md, "Row-level security"). For hot single statements (a list, a
 * page); anything of several statements belongs in `tenantTransaction`.
 *
 * `companyId` names the company for code that holds it outside a tenant scope (a batch of reads of one
 * company gathered from several requests); inside a scope it must be the scope's. `knex` may be an open
 * `tenantTransaction` of that company, where the statement simply runs; any other transaction is refused
 * (the settings would outlive the statement there). Answers node-pg's result.
 */
export async function tenantStatement<Row = unknown>(
  knex: Knex,
  query: TenantStatementQuery,
  options: { companyId?: number } = {},
): Promise<{ rows: Row[] }> {
  const companyId = scopeCompany(options.companyId);
  const client = knex.client as unknown as PooledKnexClient;
  if (knex.isTransaction) {
    const outer = held.getStore();
    if (!outer || (outer.trx as Knex) !== knex || outer.trx.isCompleted() || outer.companyId !== companyId) {
      throw new TenantScopeError("tenantStatement runs on the pool or in its company's tenantTransaction");
    }
  }
  const connection = await client.acquireConnection();
  try {
    if (knex.isTransaction) return (await connection.query(query)) as { rows: Row[] };
    const Query = connection.constructor.Query;
    if (!Query) throw new Error('tenantStatement: the connection is not a node-pg client');
    if (connection.connection.parsedStatements[SCOPE_STATEMENT.name] === undefined) {
      // prepared (and run once, alone: its settings end with that statement)
      await connection.query({ ...SCOPE_STATEMENT, values: ['0'] });
    }
    const Scoped = scopedQueryClass(Query);
    return await new Promise<{ rows: Row[] }>((resolve, reject) => {
      const scoped = new Scoped(companyId, query);
      scoped.callback = (error, result) => (error ? reject(error) : resolve(result as { rows: Row[] }));
      connection.query(scoped);
    });
  } finally {
    await client.releaseConnection(connection);
  }
}

/** The open tenant transaction of the running code, if any (see `tenantTransaction`). */
export function currentTenantTransaction(): Knex.Transaction | undefined {
  const outer = held.getStore();
  return outer && !outer.trx.isCompleted() ? outer.trx : undefined;
}
