import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { FIXTURE_PASSWORD, type TenantFixtures } from '../fixtures';
import type { TestApp } from '../index';
import { accepts, leaves } from './bad-input-cases';
import { type BaseRequest, baseRequest, entityOf, idHints, queryText, toInject } from './requests';
import { FixtureGapError, type Ids, isMutating, partSchema, routeName, type WalkedRoute } from './routes';
import { type JsonSchema, SampleError } from './sample';
import { SessionPool } from './sessions';
import { changedTables, snapshotCompany, tenantTables } from './tenant-snapshot';

type Role = 'aAdmin' | 'bAdmin' | 'bUser';
const B_ROLES = ['bAdmin', 'bUser'] as const;

/** What the cross-tenant walk found, by phase; every entry names the route and the role. */
export interface CrossTenantReport {
  /** Routes walked (with the request that exercised them). */
  walked: BaseRequest[];
  /** Routes whose ids nobody seeds, or whose query/body can't be generated. */
  gaps: string[];
  /** Reads company A's own admin could not make (the walk would not reach real rows). */
  control: string[];
  /** Whether A's own list answers showed the marker (the leak check can see A's rows). */
  markerSeenByA: boolean;
  /** B saw A's rows in a list, or a list failed. */
  lists: string[];
  /** B read with A's ids and was not refused, or saw A's data. */
  reads: string[];
  /** B wrote with A's ids and was not refused, saw A's data, or changed A's rows. */
  writes: string[];
  /** B's other writes (no ids in the path) showed A's data or changed A's rows. */
  otherWrites: string[];
  /**
   * B's own valid request with one body or query field naming A's row instead (`whatsappId`, `tagIds` …)
   * was accepted (2xx): every id a request names must be the caller's company's.
   */
  foreignIds: string[];
  /** How many single-field variants the foreign-id phase sent. */
  foreignIdCases: number;
}

/** Routes the cross-tenant walk covers: every authenticated route but the super user's and infra. */
export function isTenantWalked(route: WalkedRoute): boolean {
  const access = route.config.access;
  return route.config.infra !== true && access !== undefined && access !== 'public' && access !== 'super';
}

const describeResponse = (response: LightMyRequestResponse) => `${response.statusCode} ${response.body.slice(0, 300)}`;
const refusedOrHidden = (response: LightMyRequestResponse) =>
  [403, 404].includes(response.statusCode) ? null : `expected 403 or 404 for A's ids, got ${describeResponse(response)}`;
// deletions last, so the other writes still find A's rows if a deletion wrongly succeeded
const deletionsLast = (requests: BaseRequest[]) =>
  [...requests].sort((x, y) => Number(x.route.method === 'DELETE') - Number(y.route.method === 'DELETE'));

/**
 * Walks every route `include` keeps as company B (admin and user) with company A's ids — in the path,
 * and in every body or query field that names an entity — after checking that A's own admin reaches the
 * same rows. Reads first, then writes (deletions last), each write between two fingerprints of A's rows.
 */
export async function crossTenantWalk(
  t: TestApp,
  fx: TenantFixtures,
  include: (route: WalkedRoute) => boolean = () => true,
): Promise<CrossTenantReport> {
  const pool = new SessionPool<Role>(
    t,
    {
      aAdmin: { email: fx.a.admin.user.email, password: FIXTURE_PASSWORD },
      bAdmin: { email: fx.b.admin.user.email, password: FIXTURE_PASSWORD },
      bUser: { email: fx.b.user.user.email, password: FIXTURE_PASSWORD },
    },
    { aAdmin: fx.a.admin, bAdmin: fx.b.admin, bUser: fx.b.user },
  );
  const knex = t.balcao.core.knex;
  const tables = await tenantTables(knex);
  const report: CrossTenantReport = {
    walked: [],
    gaps: [],
    control: [],
    markerSeenByA: false,
    lists: [],
    reads: [],
    writes: [],
    otherWrites: [],
    foreignIds: [],
    foreignIdCases: 0,
  };

  const hints = idHints(fx.idsA);
  for (const route of t.balcao.routes.routes.filter((r) => isTenantWalked(r) && include(r))) {
    try {
      report.walked.push(baseRequest(route, fx.idsA, hints));
    } catch (error) {
      if (error instanceof FixtureGapError || error instanceof SampleError) report.gaps.push(error.message);
      else throw error;
    }
  }
  const reads = report.walked.filter((r) => !isMutating(r.route.method));
  const writes = report.walked.filter((r) => isMutating(r.route.method));

  // the positive control, before anything of B's runs: A's own admin gets a 2xx for every read
  for (const request of reads) {
    const response = await pool.inject('aAdmin', toInject(request));
    if (response.statusCode >= 200 && response.statusCode < 300) {
      if (response.body.includes(fx.marker)) report.markerSeenByA = true;
      continue;
    }
    const hint =
      request.tenantParams.length > 0
        ? 'does fixtureParams map to the right entity, and does seed.fixtures return a row A can read?'
        : 'if the generated query is refused, give config.fixtureQuery';
    report.control.push(`${routeName(request.route)} as A's admin: ${describeResponse(response)} — ${hint}`);
  }

  const asB = async (
    requests: BaseRequest[],
    into: string[],
    check: (response: LightMyRequestResponse) => string | null,
  ): Promise<void> => {
    for (const request of requests) {
      const before = await snapshotCompany(knex, tables, fx.a.companyId);
      const responses = await Promise.all(B_ROLES.map((role) => pool.inject(role, toInject(request))));
      const after = await snapshotCompany(knex, tables, fx.a.companyId);
      const name = routeName(request.route);
      B_ROLES.forEach((role, index) => {
        const response = responses[index] as LightMyRequestResponse;
        if (response.body.includes(fx.marker))
          into.push(`${name} as ${role}: A's data (marker) in the answer: ${describeResponse(response)}`);
        else if (response.statusCode >= 500) into.push(`${name} as ${role}: ${describeResponse(response)}`);
        const problem = check(response);
        if (problem) into.push(`${name} as ${role}: ${problem}`);
      });
      const changed = changedTables(before, after);
      if (changed.length > 0) into.push(`${name}: B's calls changed company A's rows in ${changed.join(', ')}`);
    }
  };

  await asB(
    reads.filter((r) => r.tenantParams.length === 0),
    report.lists,
    () => null,
  );
  await asB(
    reads.filter((r) => r.tenantParams.length > 0),
    report.reads,
    refusedOrHidden,
  );
  await asB(deletionsLast(writes.filter((r) => r.tenantParams.length > 0)), report.writes, refusedOrHidden);
  await asB(deletionsLast(writes.filter((r) => r.tenantParams.length === 0)), report.otherWrites, () => null);

  // last, as it lets B change B's own rows: B's own request with one field naming A's row instead
  const idsB = await seedCompanyB(t, fx);
  const own: BaseRequest[] = [];
  for (const route of t.balcao.routes.routes.filter((r) => isTenantWalked(r) && include(r))) {
    try {
      own.push(baseRequest(route, idsB, idHints(idsB)));
    } catch (error) {
      // a gap or an unbuildable request is reported above, for A's ids
      if (!(error instanceof FixtureGapError || error instanceof SampleError)) throw error;
    }
  }
  const variants = deletionsLast(own).flatMap((request) => foreignIdVariants(request, fx.idsA, idsB));
  report.foreignIdCases = variants.length;
  for (const variant of variants) {
    const response = await pool.inject('bAdmin', toInject(variant.request));
    const name = `${routeName(variant.request.route)} as bAdmin with A's ${variant.entity} in ${variant.field}`;
    if (response.statusCode >= 200 && response.statusCode < 300)
      report.foreignIds.push(`${name}: expected a refusal, got ${describeResponse(response)}`);
    else if (response.statusCode >= 500) report.foreignIds.push(`${name}: ${describeResponse(response)}`);
    else if (response.body.includes(fx.marker)) report.foreignIds.push(`${name}: A's data (marker) in the answer`);
  }
  return report;
}

/**
 * Seeds company B's own rows with every feature's fixtures (as it seeds A's, with a marker of B's own),
 * so that B can make a request that is valid but for the one field naming A's row.
 */
async function seedCompanyB(t: TestApp, fx: TenantFixtures): Promise<Ids> {
  const marker = `OWNB${randomBytes(4).toString('hex').toUpperCase()}`;
  const companyB = { id: fx.b.companyId, adminId: fx.b.adminId, userId: fx.b.userId };
  const companyA = { id: fx.a.companyId, adminId: fx.a.adminId, userId: fx.a.userId };
  const idsB: Ids = { company: companyB.id, user: companyB.userId, admin: companyB.adminId };
  for (const plugin of t.balcao.plugins) {
    const seed = plugin.definition.seed?.fixtures;
    if (!seed) continue;
    Object.assign(idsB, await seed({ ctx: plugin.ctx, marker, companyA: companyB, companyB: companyA, seededA: { ...idsB } }));
  }
  return idsB;
}

interface ForeignIdVariant {
  request: BaseRequest;
  entity: string;
  field: string;
}

type FieldPath = Array<string | number>;

function withValue(value: unknown, path: FieldPath, next: unknown): unknown {
  const copy = structuredClone(value ?? {}) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) {
    const child = node[key];
    if (child === null || typeof child !== 'object') return undefined;
    node = child as Record<string | number, unknown>;
  }
  node[path[path.length - 1] as string | number] = next;
  return copy;
}

/**
 * B's own request once per id-like field of its query and body — declared in the schema, present or
 * not (`whatsappId` is optional on a new ticket) — with that field naming A's row: the id, a list of
 * it, or either as text, whichever the route's schema takes. Fields of entities B has no row of, and
 * fields whose id is the same for A and B (shared data), are not tried.
 */
export function foreignIdVariants(request: BaseRequest, idsA: Ids, idsB: Ids): ForeignIdVariant[] {
  const variants: ForeignIdVariant[] = [];
  const candidates = (id: number | string, many: boolean): unknown[] =>
    many ? [[id], JSON.stringify([id]), String(id)] : [id, String(id), [id]];
  for (const part of ['querystring', 'body'] as const) {
    const schema = partSchema(request.route, part);
    if (!schema) continue;
    const base = part === 'body' ? request.body : request.query;
    for (const path of leaves(schema, base ?? {})) {
      const name = path[path.length - 1];
      if (typeof name !== 'string') continue;
      const found = entityOf(name);
      const id = found ? idsA[found.entity] : undefined;
      if (!found || id === undefined || idsB[found.entity] === undefined || idsB[found.entity] === id) continue;
      for (const value of candidates(id, found.many)) {
        const changed = withValue(base, path, value);
        if (changed === undefined) continue;
        const text = part === 'querystring' ? queryText(changed) : changed;
        if (!accepts(schema as JsonSchema, part, text)) continue;
        const next: BaseRequest = part === 'body' ? { ...request, body: changed } : { ...request, query: queryText(changed) };
        variants.push({ request: next, entity: found.entity, field: `${part === 'body' ? 'body' : 'query'}.${path.join('.')}` });
        break;
      }
    }
  }
  return variants;
}
