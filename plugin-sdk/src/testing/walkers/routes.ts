import type { RegisteredRoute } from '@balcao/server';
import { type AnyPlanFlag, can, isPlanFlag, type PermissionTable } from '../../server';
import type { JsonSchema } from './sample';

/** What the walkers read of a route: the registry's entries, or a hand-made one in unit tests. */
export type WalkedRoute = Pick<RegisteredRoute, 'method' | 'url' | 'owner' | 'schema' | 'config'>;

/** `GET /api/tickets/:ticketId (owner tickets)`: how every walker message names a route. */
export function routeName(route: WalkedRoute): string {
  return `${route.method} ${route.url} (owner ${route.owner})`;
}

/** The path parameters of a URL, in order (`*` for a wildcard). */
export function urlParams(url: string): string[] {
  const names = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] as string);
  if (url.includes('*')) names.push('*');
  return names;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Whether the method changes data (everything but GET, HEAD and OPTIONS). */
export function isMutating(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method);
}

/** The route's schema of one request part, when it declares one. */
export function partSchema(route: WalkedRoute, part: 'params' | 'querystring' | 'body'): JsonSchema | undefined {
  const schema = route.schema as Record<string, unknown> | undefined;
  const found = schema?.[part] ?? (part === 'querystring' ? schema?.query : undefined);
  return found && typeof found === 'object' ? (found as JsonSchema) : undefined;
}

/** What the contract check needs to know besides the route. */
export interface ContractContext {
  /** The plan flag of each loaded feature by id (null when always on). */
  planFlags: ReadonlyMap<string, AnyPlanFlag | null>;
  /** The merged permission table. */
  permissions: PermissionTable;
}

function isKnownPermission(permission: string, table: PermissionTable): boolean {
  return table[permission] !== undefined || can({ profile: 'admin', super: true }, permission, table);
}

function declares(schema: JsonSchema | undefined, name: string): boolean {
  const properties = schema?.properties as Record<string, unknown> | undefined;
  return properties !== undefined && Object.hasOwn(properties, name);
}

/**
 * Everything wrong with one route against the route-table contract (docs/plugin-authoring.md, "Test
 * walkers"), each message naming the route and saying what to add. Empty when the route is fine.
 */
export function contractProblems(route: WalkedRoute, context: ContractContext): string[] {
  const problems: string[] = [];
  const say = (problem: string) => problems.push(`${routeName(route)}: ${problem}`);
  const { config } = route;
  const access = config.access;

  if (access === undefined) say("declares no config.access ('public' | 'authenticated' | 'admin' | 'super' | { permission })");
  else if (typeof access === 'object') {
    const permission = (access as { permission?: unknown }).permission;
    if (typeof permission !== 'string' || permission === '') say('config.access.permission must name a permission');
    else if (!isKnownPermission(permission, context.permissions)) {
      say(`config.access requires permission '${permission}', which no feature defines (definePlugin({ permissions }))`);
    }
  } else if (!['public', 'authenticated', 'admin', 'super'].includes(access))
    say(`config.access '${String(access)}' is not an access rule`);

  if (config.planFlag !== undefined && !isPlanFlag(config.planFlag) && ![...context.planFlags.values()].includes(config.planFlag))
    say(`config.planFlag '${config.planFlag}' is not a plan flag`);
  const featureFlag = context.planFlags.get(route.owner);
  if (featureFlag && config.planFlag !== featureFlag) {
    say(`belongs to plugin '${route.owner}' gated by ${featureFlag} but requires ${config.planFlag ?? 'no plan flag'}`);
  }

  if (config.infra === true) {
    // infrastructure routes (static files, API docs) are exempt from the walkers: only the core may say so
    if (route.owner !== 'core') say('only the core may mark a route config.infra');
    if (access !== 'public') say('an infra route serves code, never data: its access must be public');
    return problems;
  }

  const params = urlParams(route.url);
  const paramsSchema = partSchema(route, 'params');
  if (params.length > 0) {
    if (!paramsSchema) say(`has path parameters (${params.map((p) => `:${p}`).join(', ')}) but no schema.params`);
    else for (const name of params) if (!declares(paramsSchema, name)) say(`schema.params does not declare :${name}`);
  }
  if (paramsSchema) {
    const extra = Object.keys((paramsSchema.properties ?? {}) as object).filter((name) => !params.includes(name));
    if (extra.length > 0) say(`schema.params declares ${extra.join(', ')}, which the URL doesn't have`);
  }
  for (const name of Object.keys(config.fixtureParams ?? {})) {
    if (!params.includes(name)) say(`config.fixtureParams maps '${name}', which is not a path parameter`);
  }

  const response = (route.schema as Record<string, unknown> | undefined)?.response as Record<string, unknown> | undefined;
  const success = Object.keys(response ?? {}).filter((status) => /^2(\d\d|xx)$/.test(status));
  if (success.length === 0) say('has no schema.response for its success status (200, 201, 204 …)');

  const body = partSchema(route, 'body');
  if (BODY_METHODS.has(route.method) && !body) say('has no schema.body: declare the body it reads, or NoBody when it reads none');
  if ((route.method === 'GET' || route.method === 'HEAD') && body)
    say('a GET route cannot take a body (proxies and clients drop it)');

  const query = partSchema(route, 'querystring');
  if (route.method === 'GET' && !query)
    say('has no schema.querystring: declare the query it reads, or NoQuery when it reads none');
  if (query && !(query.type === 'object' || query.properties)) say('schema.querystring must be an object schema');
  return problems;
}

/** Where a path parameter's value comes from in the walkers. */
export type ParamSource =
  /** An id of company A's data: `idsA[entity]`; B must not reach it. */
  | { kind: 'tenant'; entity: string }
  /** An id of data A and B share (`shared:plan`): B may read it. */
  | { kind: 'shared'; entity: string }
  /** A fixed value (`=open`). */
  | { kind: 'literal'; value: string }
  /** Not an id: a value generated from the parameter's schema. */
  | { kind: 'free' }
  /** Named like an id but mapped to nothing: the route must say which entity it is. */
  | { kind: 'unmapped' };

/** Entities of parameter names whose name alone says it (besides the `<entity>Id` rule). */
const DEFAULT_ENTITIES: Record<string, string> = { companyId: 'company', userId: 'user' };

/**
 * Maps a path parameter to its fixture source: `config.fixtureParams` first, then the defaults
 * (`companyId` → company, `userId` → user, `<entity>Id` / `<entity>_id` → entity, `<entity>Uuid` → the
 * fixture key `<entity>Uuid`). A bare `:id` must be mapped; any other name is not an id and gets a value
 * from its schema.
 */
export function paramSource(route: WalkedRoute, name: string): ParamSource {
  const mapped = route.config.fixtureParams?.[name];
  if (mapped !== undefined) {
    if (mapped.startsWith('=')) return { kind: 'literal', value: mapped.slice(1) };
    if (mapped.startsWith('shared:')) return { kind: 'shared', entity: mapped.slice('shared:'.length) };
    return { kind: 'tenant', entity: mapped };
  }
  const known = DEFAULT_ENTITIES[name];
  if (known) return { kind: 'tenant', entity: known };
  const match = /^(.+?)(Id|_id)$/.exec(name);
  if (match?.[1]) return { kind: 'tenant', entity: match[1] };
  // a uuid naming its entity (`:ticketUuid`) is an id too: the fixture key is the parameter's name
  if (/^.+Uuid$/.test(name)) return { kind: 'tenant', entity: name };
  if (name === 'id' || name === 'uuid') return { kind: 'unmapped' };
  return { kind: 'free' };
}

/** Thrown when a route's ids can't be found among the fixtures: the message tells the author what to do. */
export class FixtureGapError extends Error {
  override name = 'FixtureGapError';
}

/** The fixture ids of one company, by entity name. */
export type Ids = Record<string, number | string>;

/**
 * The value of every path parameter of a route for company A: fixture ids for id parameters, `free`
 * values from `freeValue` (a schema sample). Throws FixtureGapError when an id is unmapped or unseeded,
 * unless `lenient`, which takes a schema sample instead.
 */
export function resolveParams(
  route: WalkedRoute,
  idsA: Ids,
  freeValue: (name: string) => string,
  lenient = false,
): { params: Record<string, string>; tenant: string[] } {
  const params: Record<string, string> = {};
  const tenant: string[] = [];
  for (const name of urlParams(route.url)) {
    const source = paramSource(route, name);
    const unseeded = (source.kind === 'tenant' || source.kind === 'shared') && idsA[source.entity] === undefined;
    if (lenient && (source.kind === 'unmapped' || unseeded)) {
      // the cross-tenant walk reports the gap; other walkers still exercise the route
      params[name] = freeValue(name);
      continue;
    }
    if (source.kind === 'unmapped') {
      throw new FixtureGapError(
        `${routeName(route)}: path parameter :${name} does not say which fixture entity it is. ` +
          `Declare config.fixtureParams: { ${name}: '<entity>' } naming an entity your seed.fixtures returns.`,
      );
    }
    if (source.kind === 'tenant' || source.kind === 'shared') {
      const id = idsA[source.entity];
      if (id === undefined) {
        throw new FixtureGapError(
          `${routeName(route)}: path parameter :${name} refers to fixture entity '${source.entity}', which no feature seeds. ` +
            `The feature that owns '${source.entity}' rows must return { ${source.entity}: <id> } from ` +
            `definePlugin({ seed: { fixtures } }) — a row of company A whose text contains the marker — ` +
            `or the route must map :${name} to a seeded entity with config.fixtureParams. ` +
            `Seeded: ${Object.keys(idsA).sort().join(', ')}.`,
        );
      }
      params[name] = String(id);
      if (source.kind === 'tenant') tenant.push(name);
    } else if (source.kind === 'literal') params[name] = source.value;
    else params[name] = freeValue(name);
  }
  return { params, tenant };
}

/** The URL with its parameters filled in (each encoded unless `raw` says it already is). */
export function fillUrl(url: string, params: Record<string, string>, raw: ReadonlySet<string> = new Set()): string {
  return url
    .replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
      const value = params[name] ?? '';
      return raw.has(name) ? value : encodeURIComponent(value);
    })
    .replace('*', () => params['*'] ?? '');
}

/** A per-route override the route's config gives (`fixtureBody`, `fixtureQuery`): a value or a function of A's ids. */
export function override(value: unknown, idsA: Ids): unknown {
  return typeof value === 'function' ? (value as (ids: Ids) => unknown)(idsA) : value;
}

/** Fastify's own route table (`printRoutes`), as `METHOD url` pairs without the automatic HEADs. */
export function parsePrintedRoutes(printed: string): string[] {
  const found: string[] = [];
  const stack: string[] = [];
  for (const line of printed.split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + (match[2] ?? '');
    stack[depth] = path;
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method && method !== 'HEAD') found.push(`${method} ${path}`);
    }
  }
  return found;
}
