import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import {
  ErrorResponse,
  foreignIdError,
  idFieldEntity,
  NoBody,
  PRODUCT_VERSION,
  type RouteErrors,
} from '@balcao/plugin-sdk/server';
import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import type { DiscoveredPlugin } from '../plugins/discover';
import type { RegisteredRoute, RouteRegistry } from './route-registry';

/**
 * The OpenAPI document the core serves at `<prefix>/docs/json` (docs/api.md, "The API document"): built
 * by @fastify/swagger from the route schemas, then completed here from what the core knows of every
 * route — operation ids, one tag per feature, security from the route's access, the error codes the
 * core's own hooks answer beside the route's `schema.errors`, multipart bodies, and named component
 * schemas from every schema with a `title`. Only the document changes: validation and serialization
 * keep using the route schemas as they are.
 */

type Json = Record<string, unknown>;
type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Json[];
  requestBody?: { content?: Record<string, { schema: Json }>; required?: boolean };
  responses?: Record<string, Json>;
};

/** The core's own tags; a feature's tag is its id, described by its package.json description. */
const CORE_TAGS = [
  { name: 'auth', description: 'Log in, sessions, sign-up and password reset.' },
  { name: 'platform', description: 'Product version, public plans and settings, the enabled plugins, signed media.' },
];

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** A feature's tag: its id, with the package description (and the plan flag that gates it). */
export function featureTags(features: DiscoveredPlugin[]): { name: string; description: string }[] {
  return features.map((feature) => {
    let description = `The ${feature.manifest.id} feature.`;
    try {
      const pkg = JSON.parse(readFileSync(path.join(feature.root, 'package.json'), 'utf8')) as { description?: string };
      if (pkg.description) description = pkg.description;
    } catch {
      // a bundled feature without its package.json on disk keeps the plain description
    }
    const flag = feature.manifest.planFlag ? ` Plan flag \`${feature.manifest.planFlag}\`.` : '';
    return { name: feature.manifest.id, description: `${description.replace(/\.$/, '')}.${flag}` };
  });
}

/** The document path of a route URL: without the API prefix (it is the server's URL), `:param` as `{param}`. */
export function documentPath(url: string, apiPrefix: string): string {
  const relative = url.startsWith(`${apiPrefix}/`) ? url.slice(apiPrefix.length) : url;
  return relative.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, '{$1}');
}

/**
 * A readable, stable operation id from the method and the path, unless the route names one
 * (`schema.operationId`): `GET /tickets/{id}` → `getTicketsById`, `PUT /contacts/toggleAcceptAudio/{contactId}`
 * → `putContactsToggleAcceptAudioByContactId`. Unique because method and path are (a test holds it).
 */
export function operationIdOf(method: string, documentUrl: string): string {
  const words = documentUrl
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      const parts = (param?.[1] ?? segment).split(/[^A-Za-z0-9]+/).filter(Boolean);
      const camel = parts.map((part) => part.charAt(0).toUpperCase() + part.slice(1));
      return param ? ['By', ...camel] : camel;
    });
  return method.toLowerCase() + words.join('');
}

/** The codes a route can answer from the core's hooks, before its handler runs, by status. */
export function coreErrors(route: RegisteredRoute): Map<number, Set<string>> {
  const errors = new Map<number, Set<string>>();
  const add = (status: number, ...codes: string[]) => {
    const set = errors.get(status) ?? new Set<string>();
    for (const code of codes) set.add(code);
    errors.set(status, set);
  };
  const schema = route.schema ?? {};
  const access = route.config.access;
  if (schema.params || schema.querystring || schema.body || schema.multipart || schema.headers) add(400, 'ERR_VALIDATION');
  // Fastify's body parsing, before validation: malformed JSON, over the body limit, another content type
  if (schema.body || schema.multipart) {
    add(400, 'ERR_BAD_REQUEST');
    add(413, 'ERR_PAYLOAD_TOO_LARGE');
    add(415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
  }
  // an API key is refused where the route declares no scope for keys, and checked where it does
  if (route.config.apiKeyScope) add(401, 'ERR_API_KEY_INVALID', 'ERR_API_KEY_REVOKED');
  if (route.config.apiKeyScope || (access !== undefined && access !== 'public')) add(403, 'ERR_API_KEY_SCOPE');
  if (access !== undefined && access !== 'public') {
    add(401, 'ERR_UNAUTHENTICATED', 'ERR_TOKEN_INVALID', 'ERR_SESSION_EXPIRED');
    add(403, 'ERR_TOKEN_EXPIRED', 'ERR_COMPANY_INACTIVE');
    if (!route.config.allowExpired) add(402, 'ERR_SUBSCRIPTION_EXPIRED');
    if (access !== 'authenticated') add(403, 'ERR_NO_PERMISSION');
    if (route.config.planFlag) add(403, 'ERR_PLAN_FEATURE_DISABLED');
    // the foreign-id guard (docs/architecture.md#tenancy) answers another company's ids as missing rows
    if (access !== 'super') {
      for (const name of [...propertyNames(schema.querystring), ...propertyNames(schema.body)]) {
        const found = idFieldEntity(name);
        if (!found) continue;
        add(404, found.entity === 'company' ? 'ERR_NO_COMPANY_FOUND' : foreignIdError(found.entity).code);
      }
    }
  }
  return errors;
}

/** Property names of an object schema and of the objects inside it (unions and arrays included), a few levels deep. */
function propertyNames(schema: unknown, depth = 0): string[] {
  if (schema === null || typeof schema !== 'object' || depth > 4) return [];
  const node = schema as Json;
  const names: string[] = [];
  const properties = node.properties as Record<string, unknown> | undefined;
  if (properties) {
    for (const [name, value] of Object.entries(properties)) names.push(name, ...propertyNames(value, depth + 1));
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const item of (node[key] as unknown[] | undefined) ?? []) names.push(...propertyNames(item, depth + 1));
  }
  if (node.items) names.push(...propertyNames(node.items, depth + 1));
  return names;
}

/**
 * The route's codes by status: its own `schema.errors` and the core's. The list is closed (an enum in
 * the document) only for a route that declares `schema.errors`; for another, the codes known are in the
 * response's description and its schema stays the open `Error`.
 */
export function routeErrors(route: RegisteredRoute): Map<number, string[]> {
  const all = coreErrors(route);
  const own: RouteErrors = route.schema?.errors ?? {};
  for (const [status, codes] of Object.entries(own)) {
    const set = all.get(Number(status)) ?? new Set<string>();
    for (const code of codes) set.add(code);
    all.set(Number(status), set);
  }
  return new Map([...all].sort(([a], [b]) => a - b).map(([status, codes]) => [status, [...codes].sort()]));
}

function errorResponse(status: number, codes: string[], closed: boolean): Json {
  const text = STATUS_CODES[status] ?? 'Error';
  if (!closed) {
    return {
      description: `${text}${codes.length > 0 ? `: ${codes.join(', ')} or another code` : ''}`,
      content: { 'application/json': { schema: ERROR_REF } },
    };
  }
  return {
    description: `${text}: ${codes.join(', ')}`,
    content: {
      'application/json': {
        schema: {
          allOf: [ERROR_REF, { type: 'object', required: ['error'], properties: { error: { type: 'string', enum: codes } } }],
        },
      },
    },
  };
}

/** Whether a body schema is the SDK's `NoBody` (a route that reads no JSON body). */
function readsNoBody(body: unknown): boolean {
  return body === NoBody || (body as Json | undefined)?.description === (NoBody as unknown as Json).description;
}

/** A JSON body schema without its `null` alternative (a route that also takes multipart allows an empty JSON body). */
function withoutNull(schema: Json): Json {
  const alternatives = (schema.anyOf as Json[] | undefined)?.filter((item) => item.type !== 'null');
  if (!alternatives || alternatives.length === (schema.anyOf as Json[]).length) return schema;
  return alternatives.length === 1 ? (alternatives[0] as Json) : { ...schema, anyOf: alternatives };
}

/**
 * Who may call a route, as the document's security requirements (alternatives): a session's bearer token
 * unless the route is public, an API key when the route declares a scope for keys, and whatever the
 * route's own `schema.security` adds (the message API's connection token).
 */
function securityOf(route: RegisteredRoute): Json[] {
  const own = (route.schema as { security?: Json[] } | undefined)?.security ?? [];
  const session = route.config.access === 'public' ? [] : [{ bearer: [] }];
  const key = route.config.apiKeyScope ? [{ apiKey: [] }] : [];
  return [...session, ...key, ...own];
}

function completeOperation(operation: Operation, route: RegisteredRoute, documentUrl: string): void {
  const schema: FastifySchema = route.schema ?? {};
  operation.operationId = schema.operationId ?? operationIdOf(route.method, documentUrl);
  operation.tags = schema.tags ? [...schema.tags] : [route.owner === 'core' ? 'platform' : route.owner];
  operation.security = securityOf(route);
  if (route.config.apiKeyScope) {
    const scope = `API keys need the scope \`${route.config.apiKeyScope}\`.`;
    operation.description = operation.description ? `${operation.description}\n\n${scope}` : scope;
  }

  if (readsNoBody(schema.body)) delete operation.requestBody;
  if (schema.multipart) {
    const json = operation.requestBody?.content?.['application/json']?.schema;
    operation.requestBody = {
      required: true,
      content: {
        ...(json ? { 'application/json': { schema: withoutNull(json) } } : {}),
        'multipart/form-data': { schema: JSON.parse(JSON.stringify(schema.multipart)) as Json },
      },
    };
  }

  const responses: Record<string, Json> = { ...(operation.responses ?? {}) };
  // @fastify/swagger describes every answer as "Default Response": say the status instead
  for (const [status, response] of Object.entries(responses)) {
    if (response.description === 'Default Response')
      responses[status] = { ...response, description: STATUS_CODES[Number(status)] ?? status };
  }
  const closed = schema.errors !== undefined;
  const errors = routeErrors(route);
  for (const [status, codes] of errors) responses[String(status)] = errorResponse(status, codes, closed);
  // a status the route documents with the open `Error` and no code: still the open `Error`
  for (const status of Object.keys(responses)) {
    if (Number(status) >= 400 && !errors.has(Number(status))) responses[status] = errorResponse(Number(status), [], false);
  }
  operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Moves every schema with a `title` into `components.schemas[title]` and refers to it there, innermost
 * first (a Ticket's Contact is named too). A second, different schema with a title already taken stays
 * inline; the API document test fails on any titled schema left inline.
 */
export function hoistNamedSchemas(document: Json): void {
  const holder = document.components as Json;
  holder.schemas ??= {};
  const components = holder.schemas as Record<string, Json>;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const object = node as Json;
    const out: Json = {};
    for (const [key, value] of Object.entries(object)) {
      // a property named `title` is a schema, not the annotation: only a string `title` names a schema
      out[key] = key === 'properties' ? mapValues(value as Json, visit) : visit(value);
    }
    if (typeof out.title !== 'string' || !isSchema(out)) return out;
    const name = out.title;
    // `Type.Union([X, Type.Null()])` reaches the document as X with `nullable: true`: the same X, nullable
    const { nullable, ...schema } = out;
    const existing = components[name];
    if (existing === undefined) components[name] = schema;
    else if (JSON.stringify(existing) !== JSON.stringify(schema)) return out;
    const ref = { $ref: `#/components/schemas/${name}` };
    // OpenAPI 3.0 reads `nullable` only beside a `type`
    return nullable === true ? { type: schema.type, nullable: true, allOf: [ref] } : ref;
  };
  const paths = document.paths as Record<string, Record<string, Json>>;
  for (const [url, item] of Object.entries(paths)) paths[url] = mapValues(item, visit) as Record<string, Json>;
}

function mapValues(object: Json, map: (value: unknown) => unknown): Json {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value)]));
}

function isSchema(node: Json): boolean {
  return 'type' in node || 'properties' in node || 'anyOf' in node || 'oneOf' in node || 'allOf' in node || 'enum' in node;
}

/** Every titled schema still inline in the document's paths (two different schemas sharing a title). */
export function inlineNamedSchemas(document: Json): string[] {
  const found: string[] = [];
  const visit = (node: unknown, where: string) => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, `${where}/${index}`);
    } else if (node !== null && typeof node === 'object') {
      const object = node as Json;
      if (typeof object.title === 'string' && isSchema(object)) found.push(`${object.title} at ${where}`);
      for (const [key, value] of Object.entries(object)) visit(value, `${where}/${key}`);
    }
  };
  visit(document.paths, '#/paths');
  return found;
}

/** The options of @fastify/swagger: the document's frame and the completion described above. */
export function openapiOptions(options: {
  apiPrefix: string;
  features: DiscoveredPlugin[];
  routes: RouteRegistry;
}): SwaggerOptions {
  const { apiPrefix, routes } = options;
  const tags = [...CORE_TAGS, ...featureTags(options.features)];
  return {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Balcão API',
        version: PRODUCT_VERSION,
        description: [
          'The HTTP API of Balcão, a multi-tenant customer-service platform: the UI uses exactly these calls.',
          '',
          'Send the access token of `POST /auth/login` as `Authorization: Bearer <token>`; refresh it with',
          '`POST /auth/refresh_token`. Every error is `{ "error": "ERR_..." }` with a 4xx status; each',
          "operation lists the codes it can answer per status, the core's (session, plan, validation) included.",
          "Conventions (paging, ids, uploads, realtime events) are in the repository's docs/api.md.",
          '',
          'Machine clients use an API key instead (`POST /api-keys`, scheme `apiKey`): it reaches only the operations',
          'that list that scheme, each with the scope it names in its description.',
        ].join('\n'),
      },
      servers: [{ url: apiPrefix, description: 'This installation (same origin as the UI)' }],
      tags,
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: "A person's access token (`POST /auth/login`)",
          },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'blc_<id>_<secret>',
            description:
              'An API key of a machine client (`POST /api-keys`), sent as `Authorization: Bearer blc_…`. It acts as the admin who created it, only on operations that list this scheme and only with the operation\'s scope (docs/api.md, "API keys"); elsewhere it gets 403 ERR_API_KEY_SCOPE.',
          },
          connectionToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              "A connection's 30-character token (the connection's settings), for the message API: the message goes through that connection.",
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transformObject: (documentObject) => {
      const openapiObject = 'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject;
      const document = openapiObject as unknown as Json;
      const paths = document.paths as Record<string, Record<string, Operation>>;
      // trailing-slash twins (`/whatsapp/all/` beside `/whatsapp/all`) answer the same: the document keeps one
      for (const url of Object.keys(paths)) {
        if (url.length > 1 && url.endsWith('/') && paths[url.slice(0, -1)]) delete paths[url];
      }
      for (const route of routes.routes) {
        const url = documentPath(route.url, apiPrefix);
        const operation = paths[url]?.[route.method.toLowerCase()];
        if (!operation) continue;
        // CORS preflights are the browser's, not a call a client makes
        if (route.method === 'OPTIONS') {
          delete paths[url]?.options;
          continue;
        }
        completeOperation(operation, route, url);
      }
      for (const url of Object.keys(paths)) if (Object.keys(paths[url] ?? {}).length === 0) delete paths[url];
      hoistNamedSchemas(document);
      const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
      schemas.Error ??= JSON.parse(JSON.stringify(ErrorResponse)) as unknown;
      const used = new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? [])));
      document.tags = tags.filter((tag) => used.has(tag.name));
      return openapiObject;
    },
  };
}
