import { createValidatorCompiler } from '@balcao/server';
import type { InjectOptions } from 'fastify';
import type { BaseRequest, Query } from './requests';
import { fillUrl, partSchema, urlParams } from './routes';
import type { JsonSchema } from './sample';

/**
 * One hostile request and what it may get: `reject` — the input breaks the route's schema, so a 4xx
 * `{ error: 'ERR_…' }`; `any` — the schema allows it, so anything but a 5xx.
 */
export interface BadInputCase {
  label: string;
  request: InjectOptions;
  expect: 'reject' | 'any';
  /** Refused by the body parser before the route's validation runs (so it proves nothing about it). */
  parser?: boolean;
}

type Part = 'params' | 'querystring' | 'body';

const compile = createValidatorCompiler();
const compiled = new Map<Part, WeakMap<object, (data: unknown) => boolean>>();

/**
 * Whether the server would accept `value` for a part of the route: the same compiler the core uses
 * (bodies strict, params and queries coerced from text). The value is copied first: the validators
 * fill defaults and coerce in place.
 */
export function accepts(schema: JsonSchema | undefined, part: Part, value: unknown): boolean {
  if (!schema) return true;
  let cache = compiled.get(part);
  if (!cache) {
    cache = new WeakMap();
    compiled.set(part, cache);
  }
  let validate = cache.get(schema);
  if (!validate) {
    const check = compile({ schema, method: 'POST', url: '/walk', httpPart: part }) as (data: unknown) => { error?: unknown };
    validate = (data) => !check(data).error;
    cache.set(schema, validate);
  }
  return validate(value === undefined ? null : structuredClone(value));
}

/** Odd but well-formed text: what users paste, attackers try and parsers trip on. */
export const ODD_STRINGS: ReadonlyArray<[string, string]> = [
  ['a NUL byte', 'a\u0000b'],
  ['a lone surrogate', 'a\ud800b'],
  ['RTL and zero-width marks', '\u202eabc\u200f\u200b\u202c'],
  ['emoji', '😀👍🏽👨‍👩‍👧'],
  ['SQL-looking text', "x' OR '1'='1'; DROP TABLE users; --"],
  ['HTML-looking text', '<script>alert(1)</script><img src=x onerror=alert(1)>'],
  ['unbalanced brackets', '([{\\'],
  ['a path traversal', '../../../etc/passwd'],
  ['percent escapes', '%00%ff%E0%A4%A'],
  ['whitespace only', ' \t\n '],
  ['an empty string', ''],
];

/** Numbers at and past the edges of 32-bit, 53-bit and double ranges. */
export const EDGE_NUMBERS: ReadonlyArray<[string, number]> = [
  ['-1', -1],
  ['0', 0],
  ['2^31', 2 ** 31],
  ['-2^31-1', -(2 ** 31) - 1],
  ['2^53', 2 ** 53],
  ['1e308', 1e308],
  ['-1e308', -1e308],
  ['1.5', 1.5],
];

/** The odd strings no text column can hold: refused by every route, not only where a schema says so. */
const UNSTORABLE = new Set(['a NUL byte', 'a lone surrogate']);

/** Whether a field takes integers only (no text): an id, a page number, a count. */
function isIntegerOnly(schema: JsonSchema | undefined): boolean {
  if (!schema) return false;
  const branches = [schema, ...(((schema.anyOf ?? schema.oneOf ?? []) as JsonSchema[]) ?? [])];
  const types = branches.flatMap((branch) => (Array.isArray(branch.type) ? branch.type : [branch.type]));
  return types.includes('integer') && !types.includes('string') && !types.includes('number');
}

/**
 * Other ways of writing the integer `id` that Number() reads as the same number (`0x1`, `1e0`, ` 1`,
 * `+1`, `01`, `0b1`, `1.0`), percent-encoded for a URL.
 */
function looseNumbers(id: string): Array<[string, string]> {
  const n = Number(id);
  const value = Number.isSafeInteger(n) && n >= 0 ? n : 1;
  return [
    ['an id in hexadecimal', `0x${value.toString(16)}`],
    ['an id with an exponent', `${value}e0`],
    ['an id after a space', `%20${value}`],
    ['an id with a plus sign', `%2B${value}`],
    ['an id with a leading zero', `0${value}`],
    ['an id in binary', `0b${value.toString(2)}`],
    ['an id with a decimal point', `${value}.0`],
  ];
}

const LONG_STRING = 'x'.repeat(100_000);
/** More than the 1 MB body limit once inside JSON. */
const HUGE_STRING = 'x'.repeat(1_048_576);
const WRONG_TYPES: unknown[] = [12345, 'text', true, { walker: 1 }, ['walker'], null];

type Path = Array<string | number>;

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], value);
}

function setAt(value: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) {
    const child = node[key];
    // an earlier change of the same body replaced a parent (an array's object item) with a scalar: nothing to set
    if (child === null || typeof child !== 'object') return copy;
    node = child as Record<string | number, unknown>;
  }
  node[path[path.length - 1] as string | number] = next;
  return copy;
}

function deleteAt(value: unknown, path: Path): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  delete node[path[path.length - 1] as string | number];
  return copy;
}

const label = (path: Path) => path.map((key) => (typeof key === 'number' ? `[${key}]` : key)).join('.');

function asObject(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema) return undefined;
  if (schema.type === 'object' || schema.properties) return schema;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return branches?.find((branch) => branch.type === 'object' || branch.properties);
}

/**
 * The fields a part can carry: every declared property, recursing into objects the base value holds
 * and into the first item of its arrays (three levels deep).
 */
export function leaves(schema: JsonSchema | undefined, base: unknown, path: Path = [], depth = 0): Path[] {
  const object = asObject(schema);
  if (!object || depth > 3) return [];
  const found: Path[] = [];
  for (const [name, child] of Object.entries((object.properties ?? {}) as Record<string, JsonSchema>)) {
    const here = [...path, name];
    const value = getAt(base, here);
    found.push(here);
    if (value && typeof value === 'object' && !Array.isArray(value)) found.push(...leaves(child, base, here, depth + 1));
    if (Array.isArray(value) && value.length > 0) {
      const items = (child.items ?? {}) as JsonSchema;
      found.push([...here, 0]);
      if (value[0] && typeof value[0] === 'object') found.push(...leaves(items, base, [...here, 0], depth + 1));
    }
  }
  return found;
}

/** The object paths of the base value whose schema refuses unknown fields, and required fields present. */
function objectPaths(
  schema: JsonSchema | undefined,
  base: unknown,
  path: Path = [],
  depth = 0,
): Array<{ path: Path; required: string[] }> {
  const object = asObject(schema);
  const value = getAt(base, path);
  if (!object || !value || typeof value !== 'object' || Array.isArray(value) || depth > 3) return [];
  const found = [{ path, required: ((object.required ?? []) as string[]).filter((name) => name in value) }];
  for (const [name, child] of Object.entries((object.properties ?? {}) as Record<string, JsonSchema>)) {
    found.push(...objectPaths(child, base, [...path, name], depth + 1));
    const item = getAt(base, [...path, name, 0]);
    if (item && typeof item === 'object')
      found.push(...objectPaths((child.items ?? {}) as JsonSchema, base, [...path, name, 0], depth + 1));
  }
  return found;
}

function queryUrl(url: string, query: Query | undefined): { url: string; seen: Query } {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, item);
  }
  const text = search.toString();
  // what the server will see: the query as it parses back (lone surrogates become U+FFFD on the way)
  const seen: Query = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const previous = seen[name];
    seen[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return { url: text ? `${url}?${text}` : url, seen };
}

/**
 * Every hostile variation of a valid request: one part broken at a time, the others valid. Path
 * parameters get wrong types, edge numbers, odd, long and badly encoded text; the query and the body get
 * unknown and missing fields, wrong types, odd and huge strings and edge numbers in each field; the body
 * also comes as the wrong JSON type, invalid or empty JSON, deeply nested JSON and other content types.
 */
export function badInputCases(base: BaseRequest): BadInputCase[] {
  const { route } = base;
  const method = route.method as InjectOptions['method'];
  const paramsSchema = partSchema(route, 'params');
  const querySchema = partSchema(route, 'querystring');
  const bodySchema = partSchema(route, 'body');
  const cases: BadInputCase[] = [];

  const build = (over: {
    params?: Record<string, string>;
    raw?: Set<string>;
    query?: Query;
    body?: unknown;
    payload?: string;
    type?: string;
  }) => {
    const path = fillUrl(route.url, over.params ?? base.params, over.raw);
    const { url, seen } = queryUrl(path, 'query' in over ? over.query : base.query);
    const request: InjectOptions = { method, url };
    const body = 'body' in over ? over.body : base.body;
    if (over.payload !== undefined) {
      request.payload = over.payload;
      if (over.type) request.headers = { 'content-type': over.type };
    } else if (body !== undefined) {
      request.payload = JSON.stringify(body);
      request.headers = { 'content-type': 'application/json' };
    }
    return { request, seen };
  };
  const add = (text: string, over: Parameters<typeof build>[0], valid: boolean) =>
    cases.push({ label: text, request: build(over).request, expect: valid ? 'any' : 'reject' });

  add('the valid request', {}, true);

  // path parameters: text in the URL, coerced by the schema
  const paramValues: Array<[string, string, boolean?]> = [
    ['a word', 'abc'],
    ['a fraction', '1.5'],
    ...EDGE_NUMBERS.map(([name, value]): [string, string] => [name, String(value)]),
    ['NaN', 'NaN'],
    ...ODD_STRINGS.filter(([name]) => name !== 'a lone surrogate' && name !== 'an empty string'),
    ['400 characters', 'x'.repeat(400)],
    ['a badly encoded byte', '%ED%A0%80', true],
    ['600 characters (past the router limit)', 'x'.repeat(600)],
  ];
  const paramProperties = (paramsSchema?.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of urlParams(route.url)) {
    // an id is digits only: every other way of writing it is refused, whatever Number() makes of it
    if (isIntegerOnly(paramProperties[name])) {
      for (const [what, value] of looseNumbers(base.params[name] ?? '1')) {
        add(`params.${name}: ${what}`, { params: { ...base.params, [name]: value }, raw: new Set([name]) }, false);
      }
    }
    for (const [what, value, raw] of paramValues) {
      const params = { ...base.params, [name]: value };
      const decodable = !raw && value.length <= 500;
      add(
        `params.${name}: ${what}`,
        { params, raw: raw ? new Set([name]) : undefined },
        decodable && accepts(paramsSchema, 'params', params),
      );
    }
  }

  // the query string
  if (querySchema) {
    const check = (query: Query) => accepts(querySchema, 'querystring', build({ query }).seen);
    const unknown = { ...base.query, __walker: '1' };
    add('querystring: an unknown parameter', { query: unknown }, check(unknown));
    for (const name of (querySchema.required ?? []) as string[]) {
      const query = { ...base.query };
      delete query[name];
      add(`querystring.${name}: missing`, { query }, check(query));
    }
    const names = Object.keys((querySchema.properties ?? {}) as object);
    const queryProperties = (querySchema.properties ?? {}) as Record<string, JsonSchema>;
    for (const name of names.filter((field) => isIntegerOnly(queryProperties[field]))) {
      const [what, value] = looseNumbers(String(base.query?.[name] ?? '1'))[0] as [string, string];
      add(`querystring.${name}: ${what}`, { query: { ...base.query, [name]: value } }, false);
    }
    if (names.length > 0) {
      // percent-escapes that are not UTF-8, in every field at once: the parser must not keep them as text
      const raw = names.map((name) => `${encodeURIComponent(name)}=%FF%FE`).join('&');
      cases.push({
        label: `querystring ${names.join(', ')}: invalid UTF-8`,
        request: { ...build({}).request, url: `${fillUrl(route.url, base.params)}?${raw}` },
        expect: 'reject',
      });
    }
    const values: Array<[string, string | string[]]> = [
      ['a word', 'abc'],
      ['a fraction', '1.5'],
      ...EDGE_NUMBERS.map(([name, value]): [string, string] => [name, String(value)]),
      ['a boolean word', 'maybe'],
      ['a repeated parameter', ['1', '2']],
      ...ODD_STRINGS,
      ['10 000 characters', 'x'.repeat(10_000)],
    ];
    for (const [what, value] of values) {
      const ok = names.filter((name) => check({ ...base.query, [name]: value }));
      const refused = names.filter((name) => !ok.includes(name));
      for (const group of [ok, refused]) {
        if (group.length === 0) continue;
        const query = { ...base.query, ...Object.fromEntries(group.map((name) => [name, value])) };
        add(`querystring ${group.join(', ')}: ${what}`, { query }, check(query));
      }
    }
  }

  // the body
  if (bodySchema) {
    const check = (body: unknown) => accepts(bodySchema, 'body', body);
    const baseBody = base.body ?? null;
    for (const [what, body] of [
      ['an array', []],
      ['a string', 'walker'],
      ['a number', 12345],
      ['true', true],
      ['null', null],
      ['an empty object', {}],
    ] as Array<[string, unknown]>) {
      add(`body: ${what} instead`, { body, payload: JSON.stringify(body), type: 'application/json' }, check(body));
    }
    for (const { path, required } of objectPaths(bodySchema, baseBody)) {
      const extra = setAt(baseBody, [...path, '__walker'], 1);
      add(`body${path.length ? `.${label(path)}` : ''}: an unknown field`, { body: extra }, check(extra));
      for (const name of required) {
        const missing = deleteAt(baseBody, [...path, name]);
        add(`body.${label([...path, name])}: missing`, { body: missing }, check(missing));
      }
    }
    const fields = leaves(bodySchema, baseBody);
    for (const path of fields) {
      const wrong = WRONG_TYPES.map((value) => setAt(baseBody, path, value)).find((body) => !check(body));
      if (wrong !== undefined) add(`body.${label(path)}: a wrong type`, { body: wrong }, false);
    }
    const kinds: Array<[string, unknown]> = [...ODD_STRINGS, ['a 100 kB string', LONG_STRING], ...EDGE_NUMBERS];
    for (const [what, value] of kinds) {
      const ok = fields.filter((path) => check(setAt(baseBody, path, value)));
      const refused = fields.filter((path) => !ok.includes(path));
      for (const group of [ok, refused]) {
        if (group.length === 0) continue;
        const body = group.reduce<unknown>((current, path) => setAt(current, path, value), baseBody);
        // text no column can hold is refused by every route, whatever its schema says
        add(`body ${group.map(label).join(', ')}: ${what}`, { body }, !UNSTORABLE.has(what) && check(body));
      }
    }
    const textField = fields.find((path) => typeof getAt(baseBody, path) === 'string');
    if (textField) {
      const marked = JSON.stringify(setAt(baseBody, textField, 'a\u0001MARK\u0001b'));
      const [before, after] = marked.split('\\u0001MARK\\u0001');
      cases.push({
        label: `body.${label(textField)}: invalid UTF-8`,
        request: {
          ...build({}).request,
          payload: Buffer.concat([Buffer.from(before ?? ''), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(after ?? '')]),
          headers: { 'content-type': 'application/json' },
        },
        expect: 'reject',
        parser: true,
      });
    }
    const first = fields.find((path) => typeof getAt(baseBody, path) === 'string') ?? ['__walker'];
    add('body: over 1 MB', { body: setAt(baseBody ?? {}, first, HUGE_STRING) }, false);

    const json = JSON.stringify(baseBody);
    const nested = `${'['.repeat(1_000)}${']'.repeat(1_000)}`;
    add('body: invalid JSON', { payload: '{"walker":', type: 'application/json' }, false);
    add('body: empty with a JSON content type', { payload: '', type: 'application/json' }, false);
    add('body: a __proto__ key', { payload: '{"__proto__":{"walker":1}}', type: 'application/json' }, false);
    add('body: 1 000 levels of nesting', { payload: nested, type: 'application/json' }, check(JSON.parse(nested)));
    add('body: as text/plain', { payload: json, type: 'text/plain' }, check(json));
    add('body: as a form', { payload: 'walker=1', type: 'application/x-www-form-urlencoded' }, false);
    add('body: as XML', { payload: '<walker/>', type: 'application/xml' }, false);
    add('body: JSON with a charset', { payload: json, type: 'application/json; charset=utf-8' }, check(baseBody));
    cases.push({
      label: 'body: multipart without a boundary',
      request: build({
        payload: '--walker\r\nContent-Disposition: form-data; name="walker"\r\n\r\n1\r\n--walker--\r\n',
        type: 'multipart/form-data',
      }).request,
      expect: 'reject',
      parser: true,
    });
    add(
      'body: as multipart',
      {
        payload: '--walker\r\nContent-Disposition: form-data; name="walker"\r\n\r\n1\r\n--walker--\r\n',
        type: 'multipart/form-data; boundary=walker',
      },
      // a multipart request leaves the JSON body empty: only a route that reads none may take it
      check(null),
    );
  }
  return cases;
}
