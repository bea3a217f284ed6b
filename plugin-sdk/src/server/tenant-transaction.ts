import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import { boundModelKnex, requireCompanyId, TenantScopeError } from './tenancy';

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
 * Runs `work` in a transaction guarded by PostgreSQL row-level security for the current tenant scope's
 * company: the transaction runs as `balcao_tenant` with the company set for it (both local to it), so any
 * statement in it — a raw `trx('tickets')` with no company filter included — reads only that company's rows,
 * and writing a row of another company fails (`new row violates row-level security policy`). Tenant models
 * queried inside `work` (written inside it) run on this transaction without being passed `trx`.
 *
 * Use it for a feature's reads and writes of its own company's data, above all hand-written SQL, where the
 * models' company filter doesn't reach. Don't use it for work across companies (super-user screens, system
 * jobs, `crossTenant()` queries): inside it they see one company only. It costs a transaction (BEGIN, one
 * statement that sets the role and the company, COMMIT: docs/benchmarks.md, "Row-level security"). Nested
 * calls for the same company share the outer transaction; for another company they throw. Throws
 * `TenantScopeError` outside a tenant scope. `work` may return a query builder: it runs when awaited here.
 */
export async function tenantTransaction<T>(
  work: (trx: Knex.Transaction) => PromiseLike<T>,
  options: { knex?: Knex } = {},
): Promise<T> {
  const companyId = requireCompanyId();
  if (!Number.isSafeInteger(companyId) || companyId <= 0) throw new TenantScopeError(`not a company id: ${companyId}`);
  const outer = held.getStore();
  if (outer && !outer.trx.isCompleted()) {
    if (outer.companyId !== companyId) throw new TenantScopeError('a tenant transaction of another company is open');
    return await work(outer.trx);
  }
  const knex = options.knex ?? boundModelKnex();
  if (!knex) throw new Error('tenantTransaction: no knex instance is bound (bindModelKnex) and none was given');
  return knex.transaction(async (trx) => {
    // one round trip; `set_config(…, true)` is `SET LOCAL`: both end with the transaction, whatever happens
    await trx.raw('SELECT set_config(?, ?, true), set_config(?, ?, true)', [
      'role',
      TENANT_DB_ROLE,
      TENANT_COMPANY_SETTING,
      String(companyId),
    ]);
    // a query builder is a thenable (PromiseLike): awaited here, it runs inside the transaction
    return await held.run({ companyId, trx }, () => work(trx));
  });
}

/** The open tenant transaction of the running code, if any (see `tenantTransaction`). */
export function currentTenantTransaction(): Knex.Transaction | undefined {
  const outer = held.getStore();
  return outer && !outer.trx.isCompleted() ? outer.trx : undefined;
}
