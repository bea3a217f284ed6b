import { createValidatorCompiler } from '@balcao/server';
import { RegexSampleError, sampleFromPattern } from './regex-sample';

/** A JSON schema as routes declare them (TypeBox output or plain objects). */
export type JsonSchema = { [keyword: string]: unknown };

/** Options of `sampleValue`. */
export interface SampleOptions {
  /** Also fill optional properties (default: only required ones). */
  optional?: boolean;
  /**
   * A value for a named property (or path parameter), or undefined to let the generator choose. Used to
   * put real ids where a schema can only say "an integer". A hint the schema refuses is ignored.
   */
  hint?: (name: string, schema: JsonSchema) => unknown;
}

/** Thrown when no value satisfies a schema the generator understands; names the place. */
export class SampleError extends Error {
  override name = 'SampleError';
}

const FORMAT_SAMPLES: Record<string, string> = {
  email: 'walker@example.com',
  'idn-email': 'walker@example.com',
  date: '2024-01-15',
  'date-time': '2024-01-15T10:30:00.000Z',
  'iso-date-time': '2024-01-15T10:30:00.000Z',
  time: '10:30:00Z',
  'iso-time': '10:30:00Z',
  duration: 'P1D',
  uri: 'https://example.com/walker',
  url: 'https://example.com/walker',
  'uri-reference': '/walker',
  'uri-template': '/walker/{id}',
  iri: 'https://example.com/walker',
  'iri-reference': '/walker',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'd2Fsa2Vy',
  regex: '^walker$',
  'json-pointer': '/walker',
  'relative-json-pointer': '0/walker',
  password: 'Walker-1234',
  binary: 'walker',
};

const compile = createValidatorCompiler();
const validators = new WeakMap<object, (value: unknown) => boolean>();

/**
 * Whether `value` satisfies `schema` under the core's own body validator (no coercion, formats on).
 * The value is copied first: the validator fills defaults in place.
 */
export function satisfies(schema: object | boolean, value: unknown): boolean {
  if (typeof schema === 'boolean') return schema;
  let validate = validators.get(schema);
  if (!validate) {
    const compiled = compile({ schema, method: 'POST', url: '/sample', httpPart: 'body' }) as (data: unknown) => {
      error?: unknown;
    };
    validate = (data) => !compiled(data).error;
    validators.set(schema, validate);
  }
  return validate(value === undefined ? undefined : structuredClone(value));
}

function types(schema: JsonSchema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (schema.properties || schema.required) return ['object'];
  if (schema.items || schema.prefixItems) return ['array'];
  return [];
}

interface Context {
  root: JsonSchema;
  options: SampleOptions;
}

function resolveRef(ref: string, context: Context, path: string): JsonSchema {
  if (!ref.startsWith('#')) throw new SampleError(`${path || '(root)'}: external $ref '${ref}' is not supported`);
  let target: unknown = context.root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    target = (target as Record<string, unknown> | undefined)?.[key];
  }
  if (!target || typeof target !== 'object') throw new SampleError(`${path || '(root)'}: $ref '${ref}' points nowhere`);
  return target as JsonSchema;
}

function sampleNumber(schema: JsonSchema, integer: boolean, path: string, variant: number): number {
  let low = Number.NEGATIVE_INFINITY;
  let high = Number.POSITIVE_INFINITY;
  let lowExclusive = false;
  let highExclusive = false;
  if (typeof schema.minimum === 'number') low = schema.minimum;
  if (typeof schema.maximum === 'number') high = schema.maximum;
  if (typeof schema.exclusiveMinimum === 'number' && schema.exclusiveMinimum >= low) {
    low = schema.exclusiveMinimum;
    lowExclusive = true;
  } else if (schema.exclusiveMinimum === true) lowExclusive = true;
  if (typeof schema.exclusiveMaximum === 'number' && schema.exclusiveMaximum <= high) {
    high = schema.exclusiveMaximum;
    highExclusive = true;
  } else if (schema.exclusiveMaximum === true) highExclusive = true;
  const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : integer ? 1 : 0;
  const fits = (n: number) =>
    (lowExclusive ? n > low : n >= low) && (highExclusive ? n < high : n <= high) && (!integer || Number.isInteger(n));
  let candidate: number;
  if (Number.isFinite(low)) candidate = lowExclusive ? low + (step || 0.5) : low;
  else if (Number.isFinite(high) && high < 1) candidate = highExclusive ? high - (step || 0.5) : high;
  else candidate = 1;
  candidate += variant * (step || 1);
  if (integer) candidate = Math.ceil(candidate);
  if (step) candidate = Math.ceil(candidate / step) * step;
  if (!fits(candidate) && Number.isFinite(high)) {
    candidate = highExclusive ? high - (step || 0.5) : high;
    if (integer) candidate = Math.floor(candidate);
    if (step) candidate = Math.floor(candidate / step) * step;
  }
  if (!fits(candidate)) throw new SampleError(`${path || '(root)'}: no ${integer ? 'integer' : 'number'} satisfies the schema`);
  return candidate;
}

function sampleString(schema: JsonSchema, path: string, variant: number): string {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  const fits = (value: string) => satisfies(schema, value);
  const suffix = variant > 0 ? String(variant) : '';
  const candidates: string[] = [];
  if (typeof schema.pattern === 'string') {
    for (let stretch = 0; stretch <= Math.max(3, minLength); stretch++) {
      try {
        candidates.push(sampleFromPattern(schema.pattern, stretch + variant));
      } catch (error) {
        if (!(error instanceof RegexSampleError)) throw error;
        break;
      }
    }
  }
  if (typeof schema.format === 'string') {
    const base = FORMAT_SAMPLES[schema.format] ?? 'sample';
    if (variant > 0 && schema.format === 'email') candidates.push(`walker${variant}@example.com`);
    candidates.push(base);
  }
  if (typeof schema.pattern === 'string') {
    // strings that satisfy common patterns the sampler can't construct (lookaheads: "a lower, an upper, a digit")
    for (const rich of ['Walker-1234', 'Walker1234', 'walker', 'WALKER', '12345678', 'Walker 1234!']) {
      candidates.push(rich, rich.padEnd(minLength, rich));
    }
  }
  let plain = `sample${suffix}`;
  if (plain.length < minLength) plain = plain.padEnd(minLength, 'a');
  if (plain.length > maxLength) plain = plain.slice(0, maxLength);
  candidates.push(plain, 'a'.repeat(Math.min(Math.max(minLength, 1), maxLength)));
  const preferred = candidates.find(fits);
  if (preferred === undefined) {
    const what = schema.pattern ? `pattern /${String(schema.pattern)}/` : schema.format ? `format '${schema.format}'` : 'lengths';
    throw new SampleError(`${path || '(root)'}: cannot build a string for ${what}`);
  }
  return preferred;
}

function sampleObject(schema: JsonSchema, context: Context, path: string): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const result: Record<string, unknown> = {};
  const fill = (name: string) => {
    const child = properties[name] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {});
    result[name] = sample(child as JsonSchema, context, path ? `${path}.${name}` : name, 0, name);
  };
  for (const name of Object.keys(properties)) if (required.has(name) || context.options.optional) fill(name);
  for (const name of required) if (!(name in result)) fill(name);
  const minProperties = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
  for (const name of Object.keys(properties)) {
    if (Object.keys(result).length >= minProperties) break;
    if (!(name in result)) fill(name);
  }
  return result;
}

function sampleArray(schema: JsonSchema, context: Context, path: string): unknown[] {
  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : Number.POSITIVE_INFINITY;
  const prefix = (
    Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : []
  ) as JsonSchema[];
  const rest = (Array.isArray(schema.items) ? schema.additionalItems : schema.items) as JsonSchema | boolean | undefined;
  const count = Math.min(Math.max(minItems, 1, prefix.length), maxItems);
  const items: unknown[] = [];
  for (let index = 0; index < count; index++) {
    const itemSchema = prefix[index] ?? rest;
    if (itemSchema === false) break;
    const variant = schema.uniqueItems ? index : 0;
    items.push(sample(itemSchema === undefined || itemSchema === true ? {} : itemSchema, context, `${path}[${index}]`, variant));
  }
  return items;
}

function sample(schema: JsonSchema, context: Context, path: string, variant = 0, name?: string): unknown {
  if (typeof schema.$ref === 'string') return sample(resolveRef(schema.$ref, context, path), context, path, variant, name);
  if (name !== undefined && context.options.hint) {
    const hinted = context.options.hint(name, schema);
    if (hinted !== undefined && satisfies(schema, hinted)) return hinted;
  }
  if ('const' in schema) return structuredClone(schema.const);
  if (Array.isArray(schema.enum)) {
    const values = schema.enum as unknown[];
    return structuredClone(values.find((value) => value !== null) ?? values[0]);
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0 && satisfies(schema, schema.examples[0])) {
    return structuredClone(schema.examples[0]);
  }
  if ('default' in schema && satisfies(schema, schema.default)) return structuredClone(schema.default);
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches)) {
    // prefer a branch that isn't null: a richer value exercises more of the route
    const ordered = [...branches].sort((a, b) => Number(types(a).includes('null')) - Number(types(b).includes('null')));
    let failure: unknown = null;
    for (const branch of ordered) {
      try {
        const value = sample(branch, context, path, variant, name);
        if (satisfies(schema, value)) return value;
      } catch (error) {
        failure = error;
      }
    }
    throw failure ?? new SampleError(`${path || '(root)'}: no branch of anyOf/oneOf can be sampled`);
  }
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as JsonSchema[]).map((part) => sample(part, context, path, variant, name));
    if (parts.every((part) => part && typeof part === 'object' && !Array.isArray(part))) return Object.assign({}, ...parts);
    return parts[0];
  }
  const type = types(schema).find((t) => t !== 'null') ?? types(schema)[0];
  switch (type) {
    case 'string':
      return sampleString(schema, path, variant);
    case 'integer':
      return sampleNumber(schema, true, path, variant);
    case 'number':
      return sampleNumber(schema, false, path, variant);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'object':
      return sampleObject(schema, context, path);
    case 'array':
      return sampleArray(schema, context, path);
    default:
      return variant > 0 ? `sample${variant}` : 'sample';
  }
}

/**
 * A value that satisfies `schema`: required properties (and optional ones with `optional`), the first
 * enum value or const, formats, patterns, lengths, ranges and multiples, unions (preferring non-null
 * branches), `$ref` within the schema. Throws SampleError naming the field it can't satisfy.
 */
export function sampleValue(schema: object, options: SampleOptions = {}): unknown {
  const value = sample(schema as JsonSchema, { root: schema as JsonSchema, options }, '');
  if (!satisfies(schema, value)) {
    throw new SampleError(`the generated sample ${JSON.stringify(value).slice(0, 200)} does not satisfy the schema`);
  }
  return value;
}
