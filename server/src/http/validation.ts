import { isStorableText } from '@balcao/plugin-sdk/server';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: false,
    strict: false,
    useDefaults: true,
    removeAdditional: false,
    ...options,
  });
  addFormats.default(ajv);
  // ajv-formats also takes `urn:uuid:`-prefixed uuids: a uuid is its 36 characters and nothing else
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  return ajv;
}

/** A validation issue in ajv's shape, so the error handler reports it like the schema's own. */
interface Issue {
  instancePath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

const isBadText = (text: string) => !isStorableText(text);

/**
 * Every string of a request part (keys too) that carries a NUL, a lone surrogate or — in a query
 * string — invalid UTF-8 (`queryStringParser` marks it): text no column may hold, refused for every
 * route here rather than by each route or, worse, by Postgres with a 500.
 */
function badText(data: unknown, path = '', depth = 0, issues: Issue[] = []): Issue[] {
  const issue = (at: string) =>
    issues.push({ instancePath: at, keyword: 'text', message: 'must be valid text without NUL characters', params: {} });
  if (typeof data === 'string') {
    if (isBadText(data)) issue(path);
  } else if (data !== null && typeof data === 'object' && depth < 64) {
    if ((data as Record<symbol, unknown>)[INVALID_TEXT] === true) issue(path);
    for (const [key, value] of Object.entries(data)) {
      const at = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (isBadText(key)) issue(at);
      badText(value, at, depth + 1, issues);
    }
  }
  return issues;
}

/** Marks a parsed query string that had text which is not UTF-8 (see `queryStringParser`). */
const INVALID_TEXT = Symbol.for('balcao.http.invalidText');

/**
 * Fastify's query string parser (`a=1&a=2&b` → `{ a: ['1', '2'], b: '' }`, `+` a space) that notices
 * percent-escapes which are not UTF-8: the default one keeps them as raw `%FF` text, which then passes
 * any string schema. The result is marked, and the validators refuse it.
 */
export function queryStringParser(text: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  let invalid = false;
  const decode = (raw: string) => {
    const plus = raw.replaceAll('+', ' ');
    if (!plus.includes('%')) return plus;
    try {
      return decodeURIComponent(plus);
    } catch {
      invalid = true;
      return plus;
    }
  };
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const key = decode(at === -1 ? pair : pair.slice(0, at));
    const value = at === -1 ? '' : decode(pair.slice(at + 1));
    const previous = query[key];
    query[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  if (invalid) Object.defineProperty(query, INVALID_TEXT, { value: true });
  return query;
}

type Schema = Record<string, unknown>;

/**
 * The kinds of scalar a schema allows (`integer`, `number`, `string` …), looking through unions and array
 * items. A schema without a type allows text too.
 */
function numberKinds(schema: Schema | undefined, depth = 0): Set<string> {
  const kinds = new Set<string>();
  if (!schema || depth > 8) return kinds;
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  for (const type of types) if (typeof type === 'string') kinds.add(type);
  if (schema.type === undefined && !schema.anyOf && !schema.oneOf && !schema.allOf && !schema.items) kinds.add('string');
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    for (const branch of (schema[key] ?? []) as Schema[]) for (const kind of numberKinds(branch, depth + 1)) kinds.add(kind);
  }
  if (schema.items && typeof schema.items === 'object')
    for (const kind of numberKinds(schema.items as Schema, depth + 1)) kinds.add(kind);
  return kinds;
}

/** Numbers as text the way people write them: no `0x`, `0b`, exponents, signs `+`, spaces or leading zeros. */
const INTEGER_TEXT = /^-?(0|[1-9][0-9]*)$/;
const NUMBER_TEXT = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/**
 * The strict reading of numbers in path parameters and query strings. ajv coerces text with `Number()`,
 * which reads `0x1`, `1e0`, ` 1`, `+1`, `01`, `0b1` and `1.0` all as 1 — a careless client or a fuzzer
 * then reaches record 1. Text for a number field must be written plainly, or it is refused.
 */
function looseNumbers(schema: Schema, data: unknown): Issue[] {
  if (data === null || typeof data !== 'object') return [];
  const issues: Issue[] = [];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
    const kinds = numberKinds(properties[name]);
    // a field that also takes text (an id or a uuid) is left to the schema
    if (kinds.has('string') || !(kinds.has('integer') || kinds.has('number'))) continue;
    const pattern = kinds.has('number') ? NUMBER_TEXT : INTEGER_TEXT;
    const items = Array.isArray(value) ? value : [value];
    if (items.some((item) => typeof item === 'string' && !pattern.test(item))) {
      issues.push({
        instancePath: `/${name}`,
        keyword: 'type',
        message: kinds.has('number') ? 'must be number' : 'must be integer',
        params: {},
      });
    }
  }
  return issues;
}

/**
 * What compiles a route's schemas: on the route's first request rather than when it is registered. Compiling
 * every route's validators (ajv) and response serializers (fast-json-stringify) was ~1.7 s of a 4.1 s start on
 * a slow machine (profiled) and kept the code of routes nobody calls; a route's schemas now cost their compile
 * once, at the first request that needs them. `compilePending` compiles the rest at once — the tests call it
 * for every route of every plugin, so a broken schema still fails there, not at its first request.
 */
export interface SchemaCompilers {
  /** For `app.setValidatorCompiler`. */
  validatorCompiler: FastifySchemaCompiler<unknown>;
  /** For Fastify's `schemaController.compilersFactory.buildSerializer`: its default serializers, built lazily. */
  buildSerializer: ReturnType<typeof SerializerSelector>;
  /** Compiles every registered schema no request has needed yet; returns how many it compiled. */
  compilePending(): number;
}

export function createSchemaCompilers(): SchemaCompilers {
  const pending = new Set<() => void>();
  /** `build` once, at the first call of the returned function or by `compilePending`. */
  function lazily<F>(build: () => F): () => F {
    let built: F | undefined;
    const compile = () => {
      pending.delete(compile);
      built = build();
    };
    pending.add(compile);
    return () => {
      if (built === undefined) compile();
      return built as F;
    };
  }
  const defaultSerializers = SerializerSelector();
  return {
    validatorCompiler: createValidatorCompiler(lazily),
    buildSerializer(externalSchemas, serializerOptions) {
      const compile = defaultSerializers(externalSchemas, serializerOptions);
      return (route) => {
        const serializer = lazily(() => compile(route));
        return (data) => serializer()(data);
      };
    },
    compilePending() {
      const compilations = [...pending];
      for (const compile of compilations) compile();
      return compilations.length;
    },
  };
}

/**
 * Validators per HTTP part. Bodies are JSON and must have the right types: no coercion, unknown fields
 * refused. Path parameters and query strings arrive as text, so they are coerced (`'7'` → 7, one value →
 * an array where the schema wants one) from plainly written numbers only, and still refuse unknown names.
 * No part may carry a NUL, a lone surrogate or invalid UTF-8 in any string. `defer` decides when each is compiled
 * (see `SchemaCompilers`; at once by default).
 */
export function createValidatorCompiler(
  defer: (build: () => ValidateFunction) => () => ValidateFunction = (build) => {
    const validate = build();
    return () => validate;
  },
): FastifySchemaCompiler<unknown> {
  // allErrors: a form gets every failing field at once, not one per round trip
  const strict = makeAjv({ coerceTypes: false, allErrors: true });
  const coercing = makeAjv({ coerceTypes: 'array', allErrors: true });
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    const validator = defer(() => ajv.compile(schema as object));
    const fail = (issues: unknown[]) => ({ error: Object.assign(new Error('validation failed'), { validation: issues }) });
    return (data: unknown) => {
      // before ajv: its coercion turns text into numbers in place, and its defaults add fields
      const early = [...badText(data), ...(httpPart === 'body' ? [] : looseNumbers(schema as Schema, data))];
      const validate = validator();
      const valid = validate(data);
      if (valid && early.length === 0) return { value: data };
      // every failure at once, each field once
      const flagged = new Set(early.map((issue) => issue.instancePath));
      return fail([...early, ...(validate.errors ?? []).filter((issue) => !flagged.has(issue.instancePath))]);
    };
  };
}
