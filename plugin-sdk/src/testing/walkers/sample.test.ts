import { describe, expect, it } from 'vitest';
import { Id, NoBody, NoQuery, StrictObject, Type } from '../../server';
import { RegexSampleError, sampleFromPattern } from './regex-sample';
import { type JsonSchema, SampleError, sampleValue, satisfies } from './sample';

const schema = (value: unknown) => value as JsonSchema;

describe('sampleFromPattern', () => {
  const patterns = [
    '^[a-z][a-z0-9-]{1,39}$',
    '^#[0-9a-fA-F]{6}$',
    '^\\d{2}:\\d{2}$',
    '^ERR_[A-Z0-9_]+$',
    '^(light|dark)$',
    '^(?:\\+?\\d{10,15})$',
    '^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$',
    '^\\S+$',
    '^(?!\\s*$).+',
    '^[\\w.-]+/[\\w.-]+$',
    '^\\p{L}+$',
    '^[α-ω]{3}$',
    '^a\\.b\\x41\\u0042$',
    '^(?<year>\\d{4})-(?<month>0[1-9]|1[0-2])$',
    '^[A-Za-z0-9][A-Za-z0-9._-]*(\\/[A-Za-z0-9][A-Za-z0-9._-]*)*$',
    '^\\b\\w{3}\\b$',
    'x{2,}y?z*',
    '^[-+]?\\d+(\\.\\d+)?$',
  ];
  it.each(patterns)('builds a string matching /%s/', (pattern) => {
    const value = sampleFromPattern(pattern);
    expect(new RegExp(pattern, 'u').test(value)).toBe(true);
  });

  it('stretches quantifiers to reach a length, within their maximum', () => {
    expect(sampleFromPattern('^a+$', 4)).toBe('aaaaa');
    expect(sampleFromPattern('^a{1,3}$', 10)).toBe('aaa');
    expect(sampleFromPattern('^ab?$', 5)).toBe('ab');
  });

  it('refuses a pattern it cannot read, naming it', () => {
    expect(() => sampleFromPattern('^(ab$')).toThrow(RegexSampleError);
    expect(() => sampleFromPattern('^(ab$')).toThrow(/\^\(ab\$/);
  });
});

describe('sampleValue', () => {
  const cases: Array<[string, unknown]> = [
    ['a strict object with required fields only', StrictObject({ a: Type.String(), b: Type.Optional(Type.Integer()) })],
    ['string lengths', Type.String({ minLength: 12, maxLength: 14 })],
    ['a maximum length below the default sample', Type.String({ maxLength: 3 })],
    ['an empty-only string', Type.String({ maxLength: 0 })],
    [
      'formats',
      StrictObject(
        Object.fromEntries(
          ['email', 'date', 'date-time', 'time', 'uri', 'uuid', 'ipv4', 'ipv6', 'hostname'].map((f) => [
            f,
            Type.String({ format: f }),
          ]),
        ),
      ),
    ],
    ['a pattern with a minimum length', Type.String({ pattern: '^[a-z]+$', minLength: 8 })],
    ['a pattern and a format together', Type.String({ pattern: '@example\\.com$', format: 'email' })],
    ['a password pattern with lookaheads', Type.String({ pattern: '^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d).{8,50}$' })],
    ['an integer range', Type.Integer({ minimum: 10, maximum: 20 })],
    ['an exclusive range', Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 })],
    ['a negative maximum', Type.Integer({ maximum: -5 })],
    ['a multiple', Type.Integer({ minimum: 7, multipleOf: 5 })],
    ['an id', Id],
    ['a literal union', Type.Union([Type.Literal('open'), Type.Literal('closed')])],
    ['an enum', schema({ type: 'string', enum: ['x', 'y'] })],
    ['a nullable string', Type.Union([Type.Null(), Type.String({ minLength: 2 })])],
    ['arrays with minItems and unique items', Type.Array(Type.Integer({ minimum: 1 }), { minItems: 3, uniqueItems: true })],
    ['unique strings', Type.Array(Type.String({ maxLength: 10 }), { minItems: 2, uniqueItems: true })],
    ['an array with maxItems 0', Type.Array(Type.String(), { maxItems: 0 })],
    ['nested objects', StrictObject({ inner: StrictObject({ deep: Type.Array(StrictObject({ n: Type.Number() })) }) })],
    ['minProperties', Type.Object({ a: Type.Optional(Type.String()), b: Type.Optional(Type.String()) }, { minProperties: 1 })],
    [
      'a $ref into $defs',
      schema({
        $defs: { name: { type: 'string', minLength: 3 } },
        type: 'object',
        required: ['n'],
        properties: { n: { $ref: '#/$defs/name' } },
      }),
    ],
    [
      'allOf of objects',
      schema({
        allOf: [
          { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } },
          { type: 'object', required: ['b'], properties: { b: { type: 'boolean' } } },
        ],
      }),
    ],
    ['a default that is valid', Type.Integer({ minimum: 1, default: 42 })],
    ['NoBody', NoBody],
    ['NoQuery', NoQuery],
    ['an empty schema', schema({})],
    ['a type array', schema({ type: ['null', 'number'], minimum: 3 })],
  ];

  it.each(cases)('satisfies %s', (_label, input) => {
    const value = sampleValue(input as JsonSchema);
    expect(satisfies(input as JsonSchema, value)).toBe(true);
  });

  it('fills required fields and leaves optional ones out unless asked', () => {
    const body = StrictObject({ name: Type.String({ minLength: 2 }), note: Type.Optional(Type.String()) });
    expect(sampleValue(body)).toEqual({ name: 'sample' });
    expect(sampleValue(body, { optional: true })).toEqual({ name: 'sample', note: 'sample' });
  });

  it('takes the first value of an enum or const, and the lower bound of a range', () => {
    expect(sampleValue(Type.Union([Type.Literal('pending'), Type.Literal('open')]))).toBe('pending');
    expect(sampleValue(Type.Integer({ minimum: 18, maximum: 99 }))).toBe(18);
    expect(sampleValue(Type.Number({ exclusiveMinimum: 5 }))).toBeGreaterThan(5);
    expect(sampleValue(Type.Integer({ exclusiveMinimum: 5 }))).toBe(6);
  });

  it('prefers a non-null branch of a nullable field', () => {
    expect(sampleValue(Type.Union([Type.Null(), Type.Integer({ minimum: 3 })]))).toBe(3);
  });

  it('uses hints for named fields when the schema allows them, and ignores refused hints', () => {
    const body = StrictObject({ queueId: Id, userId: Id, color: Type.String({ pattern: '^#[0-9a-f]{6}$' }) });
    const hint = (name: string) => ({ queueId: 77, userId: -1, color: 'red' })[name];
    expect(sampleValue(body, { hint })).toEqual({ queueId: 77, userId: 1, color: expect.stringMatching(/^#[0-9a-f]{6}$/) });
  });

  it('fails with the path of a field nothing can satisfy', () => {
    const impossible = StrictObject({ inner: StrictObject({ n: Type.Integer({ minimum: 5, maximum: 4 }) }) });
    expect(() => sampleValue(impossible)).toThrow(SampleError);
    expect(() => sampleValue(impossible)).toThrow(/inner\.n: no integer/);
    expect(() => sampleValue(Type.String({ minLength: 5, maxLength: 2 }))).toThrow(/cannot build a string for lengths/);
    expect(() => sampleValue(schema({ $ref: 'https://example.com/x.json' }))).toThrow(/external \$ref/);
  });

  it('validates with the core body rules: no coercion, unknown fields refused', () => {
    const body = StrictObject({ n: Type.Integer() });
    expect(satisfies(body, { n: 1 })).toBe(true);
    expect(satisfies(body, { n: '1' })).toBe(false);
    expect(satisfies(body, { n: 1, extra: true })).toBe(false);
    expect(satisfies(Type.String({ format: 'email' }), 'nope')).toBe(false);
  });

  it('does not let the validator fill defaults into the value it checks', () => {
    const body = StrictObject({ n: Type.Optional(Type.Integer({ default: 3 })) });
    const value = {};
    expect(satisfies(body, value)).toBe(true);
    expect(value).toEqual({});
  });
});
