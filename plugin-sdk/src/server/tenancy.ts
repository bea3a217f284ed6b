import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import { type Constructor, Model, type Page, QueryBuilder, type QueryContext, type TransactionOrKnex } from 'objection';

/** Whose data the current code works on: set by the core from the session, a job or a socket. */
export interface TenantScope {
  companyId: number;
  /** The acting user, when a user acts. Jobs and inbound messages have none. */
  userId?: number;
}

/**
 * One store per process, even when two copies of the SDK are loaded (the bundled core and a plugin
 * outside the bundle importing the SDK from source): both find it under the same global symbol.
 */
const STORAGE_KEY = Symbol.for('balcao.sdk.tenantStorage');
const globals = globalThis as typeof globalThis & { [STORAGE_KEY]?: AsyncLocalStorage<TenantScope> };
globals[STORAGE_KEY] ??= new AsyncLocalStorage<TenantScope>();
const storage: AsyncLocalStorage<TenantScope> = globals[STORAGE_KEY];

/**
 * The open tenant transaction (tenant-transaction.ts owns it: `tenantTransaction`), read here under its
 * global symbol so that tenant models written inside one run on it.
 */
const TRANSACTION_KEY = Symbol.for('balcao.sdk.tenantTransaction');
const transactionSlot = globalThis as typeof globalThis & {
  [TRANSACTION_KEY]?: AsyncLocalStorage<{ trx: Knex.Transaction }>;
};
function openTenantTransaction(): Knex.Transaction | undefined {
  const trx = transactionSlot[TRANSACTION_KEY]?.getStore()?.trx;
  return trx && !trx.isCompleted() ? trx : undefined;
}

/** The tenant scope of the running request, job, socket event or event handler, if any. */
export function currentTenant(): TenantScope | undefined {
  return storage.getStore();
}

/** The current scope's company id; throws when the code runs outside any tenant scope. */
export function requireCompanyId(): number {
  const scope = storage.getStore();
  if (!scope) throw new TenantScopeError('no tenant scope');
  return scope.companyId;
}

/**
 * Runs `fn` inside the given company's scope. The core does this for requests, jobs, socket events and
 * event handlers; features call it only for system work that acts for a company it already holds.
 */
export function runInTenant<T>(scope: TenantScope, fn: () => T): T {
  return storage.run(scope, fn);
}

const TENANT_SCOPE_ERROR_BRAND: unique symbol = Symbol.for('balcao.sdk.tenantScopeError');

/** Thrown when a tenant-scoped query runs with no company in scope: a bug, never user input. */
export class TenantScopeError extends Error {
  /** Brand that survives duplicate copies of the SDK (see `isTenantScopeError`). */
  readonly [TENANT_SCOPE_ERROR_BRAND] = true;

  constructor(detail: string) {
    super(`Tenant-scoped query refused: ${detail}`);
    this.name = 'TenantScopeError';
  }
}

/** Whether `error` is a TenantScopeError from any copy of the SDK. */
export function isTenantScopeError(error: unknown): error is TenantScopeError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[TENANT_SCOPE_ERROR_BRAND] === true;
}

/**
 * Query builder of tenant-scoped models. Every query it builds is filtered by the scope's company, and
 * building one with no scope throws. `crossTenant()` is the explicit escape hatch for super-user routes
 * and system jobs: grep for it when reviewing.
 */
export class TenantQueryBuilder<M extends Model, R = M[]> extends QueryBuilder<M, R> {
  declare ArrayQueryBuilderType: TenantQueryBuilder<M, M[]>;
  declare SingleQueryBuilderType: TenantQueryBuilder<M, M>;
  declare MaybeSingleQueryBuilderType: TenantQueryBuilder<M, M | undefined>;
  declare NumberQueryBuilderType: TenantQueryBuilder<M, number>;
  declare PageQueryBuilderType: TenantQueryBuilder<M, Page<M>>;

  /**
   * The scope the query was written in. Objection builders are lazy: `runInTenant(s, () => M.query())`
   * returns the builder and it runs when awaited, outside `s`. It runs in the scope it was written in.
   */
  private readonly writtenIn: TenantScope | undefined;

  // objection constructs builders with the model class; its typings declare no parameters, so the
  // arguments are forwarded untouched.
  constructor(...args: []) {
    super(...args);
    this.writtenIn = storage.getStore();
    this.onBuild((query) => {
      if (query.context().crossTenant) return;
      if (query.isInsert()) return; // inserts are checked per row in $beforeInsert
      const model = query.modelClass();
      const scope = storage.getStore();
      if (!scope) throw new TenantScopeError(`${model.tableName} queried outside a tenant scope`);
      query.where(`${query.tableRefFor(model)}.companyId`, scope.companyId);
    });
  }

  override execute(): Promise<R> {
    const scope = this.writtenIn;
    if (scope && storage.getStore() !== scope) return storage.run(scope, () => super.execute());
    return super.execute();
  }

  /** Lifts the company filter for this query only. For super-user routes and system jobs. */
  crossTenant(): this {
    return this.context({ crossTenant: true });
  }
}

/**
 * The process's knex instance for models, under a global symbol like the tenant store. Objection's own
 * binding (`Model.knex(knex)`) lives on one copy of objection: the production bundle carries its own,
 * while a plugin outside the repository imports objection (and this SDK) from its folder's
 * node_modules, whose `Model` nobody binds. Every copy of `BaseModel` reads this slot instead.
 */
const MODEL_KNEX_KEY = Symbol.for('balcao.sdk.modelKnex');
const knexSlot = globalThis as typeof globalThis & { [MODEL_KNEX_KEY]?: Knex };

/** Binds every model of every copy of the SDK to `knex` (the core calls it once per app). */
export function bindModelKnex(knex: Knex): void {
  knexSlot[MODEL_KNEX_KEY] = knex;
}

/** The knex instance models are bound to, if any. */
export function boundModelKnex(): Knex | undefined {
  return knexSlot[MODEL_KNEX_KEY];
}

/** Base of every model: camelCase in JS, snake_case in Postgres (the knex instance maps names). */
export class BaseModel extends Model {
  /**
   * A class bound on its own (`bindKnex`, `Model.knex(k)`) keeps that instance; any other takes the
   * process's, whichever copy of objection it extends. Unbound, objection's own answer (undefined)
   * stands, and objection reports it when a query runs.
   */
  static override knex(...args: [Knex?]): Knex {
    // biome-ignore lint/complexity/noThisInStatic: objection reads the binding of `this` class (a bound subclass's own)
    if (args.length > 0) return super.knex(...args);
    // biome-ignore lint/complexity/noThisInStatic: as above
    return (super.knex() as Knex | undefined) ?? (knexSlot[MODEL_KNEX_KEY] as Knex);
  }
}

/**
 * Base of every tenant table's model. The table has `company_id NOT NULL`; queries are scoped to the
 * current tenant, inserts take the tenant's company, and moving a row to another company is refused.
 */
export class TenantModel extends BaseModel {
  declare companyId: number;
  declare QueryBuilderType: TenantQueryBuilder<this>;
  static override QueryBuilder = TenantQueryBuilder;

  /**
   * Written inside `tenantTransaction`, a query given no transaction of its own runs on the tenant one, so
   * row-level security guards it too. objection builds instance and relation queries through this as well.
   */
  static override query<M extends Model>(this: Constructor<M>, trxOrKnex?: TransactionOrKnex): M['QueryBuilderType'] {
    return (Model.query as (this: unknown, trx?: TransactionOrKnex) => M['QueryBuilderType']).call(
      // biome-ignore lint/complexity/noThisInStatic: objection builds the query for `this` class (a subclass)
      this,
      trxOrKnex ?? openTenantTransaction(),
    );
  }

  override $beforeInsert(queryContext: QueryContext): void | Promise<void> {
    if (queryContext.crossTenant) return;
    const scope = storage.getStore();
    const table = (this.constructor as typeof Model).tableName;
    if (!scope) throw new TenantScopeError(`insert into ${table} outside a tenant scope`);
    if (this.companyId === undefined) this.companyId = scope.companyId;
    else if (this.companyId !== scope.companyId) throw new TenantScopeError(`insert into ${table} for another company`);
  }

  override $beforeUpdate(_options: unknown, queryContext: QueryContext): void | Promise<void> {
    if (queryContext.crossTenant) return;
    const scope = storage.getStore();
    if (this.companyId !== undefined && scope && this.companyId !== scope.companyId) {
      throw new TenantScopeError('a row cannot move to another company');
    }
  }
}
