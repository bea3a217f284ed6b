import type { InjectOptions } from 'fastify';
import { fillUrl, type Ids, override, partSchema, resolveParams, routeName, type WalkedRoute } from './routes';
import { type JsonSchema, SampleError, sampleValue } from './sample';

/** A query string as the walkers send it: names to text (or repeated text). */
export type Query = Record<string, string | string[]>;

/** A valid request for a route, built from the fixtures and the route's schemas. */
export interface BaseRequest {
  route: WalkedRoute;
  params: Record<string, string>;
  /** Parameters that carry company A's ids (empty for lists and other routes without ids). */
  tenantParams: string[];
  query: Query | undefined;
  /** The JSON body; undefined sends none. */
  body: unknown;
}

/** The fixture entity a body or query field names (`contactId` → contact, `tagIds` → many tags), or null. */
export function entityOf(name: string): { entity: string; many: boolean } | null {
  if (name === 'companyId') return { entity: 'company', many: false };
  if (name === 'userId') return { entity: 'user', many: false };
  const many = /^(.+?)(Ids|_ids)$/.exec(name);
  if (many?.[1]) return { entity: many[1], many: true };
  const one = /^(.+?)(Id|_id)$/.exec(name);
  return one?.[1] ? { entity: one[1], many: false } : null;
}

/**
 * A sample hint that puts fixture ids where a body or query names an entity: `contactId` → ids.contact,
 * `tagIds` → [ids.tag]. The generator drops a hint the schema refuses.
 */
export function idHints(ids: Ids): (name: string, schema: JsonSchema) => unknown {
  return (name) => {
    const found = entityOf(name);
    if (!found) return undefined;
    const id = ids[found.entity];
    if (id === undefined) return undefined;
    return found.many ? [id] : id;
  };
}

/** Turns a sampled query object into text the way a browser would send it. */
export function queryText(value: unknown): Query {
  const query: Query = {};
  for (const [name, item] of Object.entries((value ?? {}) as Record<string, unknown>)) {
    if (item === undefined || item === null) continue;
    query[name] = Array.isArray(item)
      ? item.map((entry) => String(entry))
      : typeof item === 'object'
        ? JSON.stringify(item)
        : String(item);
  }
  return query;
}

/**
 * Builds a valid request for `route`: path parameters from company A's fixture ids (FixtureGapError
 * when nobody seeds them), query and body from the route's `fixtureQuery`/`fixtureBody` or generated
 * from its schemas with `hints` (SampleError, named after the route, when no sample satisfies them).
 * `lenient` fills ids nobody seeds with schema samples instead of failing.
 */
export function baseRequest(
  route: WalkedRoute,
  idsA: Ids,
  hints: (name: string, schema: JsonSchema) => unknown,
  lenient = false,
): BaseRequest {
  const sample = (part: 'params' | 'querystring' | 'body', schema: JsonSchema) => {
    try {
      return sampleValue(schema, { hint: hints });
    } catch (error) {
      if (!(error instanceof SampleError)) throw error;
      const key = part === 'body' ? 'fixtureBody' : part === 'querystring' ? 'fixtureQuery' : 'fixtureParams';
      throw new SampleError(`${routeName(route)}: cannot generate schema.${part} (${error.message}); give config.${key}`);
    }
  };
  const paramsSchema = partSchema(route, 'params');
  const { params, tenant } = resolveParams(
    route,
    idsA,
    (name) => {
      const schema = (paramsSchema?.properties as Record<string, JsonSchema> | undefined)?.[name] ?? {};
      return String(sample('params', schema));
    },
    lenient,
  );
  const querySchema = partSchema(route, 'querystring');
  const queryValue =
    route.config.fixtureQuery !== undefined
      ? override(route.config.fixtureQuery, idsA)
      : querySchema
        ? sample('querystring', querySchema)
        : undefined;
  const bodySchema = partSchema(route, 'body');
  const bodyValue =
    route.config.fixtureBody !== undefined
      ? override(route.config.fixtureBody, idsA)
      : bodySchema
        ? sample('body', bodySchema)
        : undefined;
  return {
    route,
    params,
    tenantParams: tenant,
    query: queryValue === undefined ? undefined : queryText(queryValue),
    body: bodyValue === null ? undefined : bodyValue,
  };
}

/** The inject options of a request: URL with parameters and query, JSON body when there is one. */
export function toInject(request: BaseRequest): InjectOptions {
  const options: InjectOptions = {
    method: request.route.method as InjectOptions['method'],
    url: fillUrl(request.route.url, request.params),
  };
  if (request.query && Object.keys(request.query).length > 0) options.query = request.query;
  if (request.body !== undefined) {
    options.payload = JSON.stringify(request.body);
    options.headers = { 'content-type': 'application/json' };
  }
  return options;
}
