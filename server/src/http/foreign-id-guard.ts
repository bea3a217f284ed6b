import { entityTables, foreignIdError, idFieldEntity, requireOwnIds } from '@balcao/plugin-sdk/server';
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';

type Reference = { table: string; entity: string; ids: number[] };

const MAX_ID = 2_147_483_647;

/** The ids a field's value holds: a number, digits, a list of them, or a JSON list as text (`queueIds=[1,2]`). */
function idsOf(value: unknown): number[] {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 1 && value <= MAX_ID ? [value] : [];
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^\d{1,10}$/.test(text)) return idsOf(Number(text));
    if (/^\[[\d\s,]*\]$/.test(text)) return idsOf(JSON.parse(text) as unknown);
    return [];
  }
  if (Array.isArray(value)) return value.flatMap((item) => (typeof item === 'object' ? [] : idsOf(item)));
  return [];
}

/**
 * Every id-named field of a request part (`contactId`, `tagIds`, nested objects and arrays of objects
 * included, a few levels deep), grouped by the tenant table its entity lives in. `companyId` is kept apart:
 * it is compared with the caller's company, not looked up.
 */
function collect(
  value: unknown,
  tables: ReadonlySet<string>,
  into: Map<string, Reference>,
  companies: number[],
  depth = 0,
): void {
  if (value === null || typeof value !== 'object' || depth > 4) return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, tables, into, companies, depth + 1);
    return;
  }
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    const found = idFieldEntity(name);
    if (found) {
      const ids = idsOf(item);
      if (found.entity === 'company') companies.push(...ids);
      else {
        const table = entityTables(found.entity).find((candidate) => tables.has(candidate));
        if (table && ids.length > 0) {
          const reference = into.get(table) ?? { table, entity: found.entity, ids: [] };
          reference.ids.push(...ids);
          into.set(table, reference);
        }
      }
    }
    if (item !== null && typeof item === 'object') collect(item, tables, into, companies, depth + 1);
  }
}

/**
 * Tenant isolation for ids in the query string and the body (docs/architecture.md#tenancy), once for every route of
 * every feature: on a request of a company's user (not a public or super route, not a super user), each
 * field named like an entity id (`whatsappId`, `tagIds`, `queueIds=[1,2]`) whose entity has a tenant table
 * must not name another company's row, and `companyId` must be the caller's — or the request is a 404
 * before the handler runs. Ids that name no row pass (a stale filter, say): the route decides what a
 * missing row means, and routes still check the rows they use (`requireOwnIds`). Path parameters are the
 * routes' own (their queries are scoped by company).
 */
export function installForeignIdGuard(app: FastifyInstance, knex: Knex): void {
  let tenantTables: Promise<ReadonlySet<string>> | undefined;
  const tables = () => {
    tenantTables ??= knex('information_schema.columns')
      .where({ tableSchema: 'public', columnName: 'company_id' })
      .distinct('tableName')
      .then((rows: Array<{ tableName: string }>) => new Set(rows.map((row) => row.tableName)));
    return tenantTables;
  };
  app.addHook('preHandler', async (request) => {
    const access = request.routeOptions.config?.access;
    const auth = request.auth;
    if (!auth || access === 'public' || access === 'super' || auth.user.super) return;
    if (request.query === null && request.body === null) return;
    const references = new Map<string, Reference>();
    const companies: number[] = [];
    const known = await tables();
    collect(request.query, known, references, companies);
    collect(request.body, known, references, companies);
    if (companies.some((id) => id !== auth.user.companyId)) throw foreignIdError('company');
    await requireOwnIds(knex, auth.user.companyId, [...references.values()]);
  });
}
