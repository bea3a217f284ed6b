import { StrictObject, Type } from '@balcao/plugin-sdk/server';
import { describe, expect, it } from 'vitest';
import { createSchemaCompilers, createValidatorCompiler, queryStringParser } from './validation';

type Result = { value?: unknown; error?: { validation: Array<{ instancePath: string; keyword: string }> } };

const compile = createValidatorCompiler();
const validator = (schema: object, httpPart: string) =>
  compile({ schema, httpPart, method: 'POST', url: '/x' }) as unknown as (data: unknown) => Result;

describe('createValidatorCompiler', () => {
  const schema = StrictObject({
    n: Type.Integer(),
    tags: Type.Optional(Type.Array(Type.String())),
    page: Type.Optional(Type.Integer({ default: 1 })),
  });

  it('never coerces a body: JSON must carry the right types', () => {
    const body = validator(schema, 'body');
    expect(body({ n: 7 }).value).toEqual({ n: 7, page: 1 });
    expect(body({ n: '7' }).error?.validation.map((issue) => issue.instancePath)).toEqual(['/n']);
    expect(body({ n: 7, tags: 'a' }).error).toBeDefined();
  });

  it('coerces path parameters and query strings from text, a single value into an array', () => {
    for (const part of ['params', 'querystring']) {
      const check = validator(schema, part);
      expect(check({ n: '7', tags: 'a' }).value).toEqual({ n: 7, tags: ['a'], page: 1 });
      expect(check({ n: 'seven' }).error).toBeDefined();
    }
  });

  it('refuses unknown fields in every part and reports every failure at once', () => {
    for (const part of ['body', 'params', 'querystring']) {
      const result = validator(schema, part)({ n: 'x', extra: 1, more: 2 });
      expect(result.error?.validation.map((issue) => issue.keyword).sort(), part).toEqual([
        'additionalProperties',
        'additionalProperties',
        'type',
      ]);
    }
  });

  it('checks formats', () => {
    const check = validator(
      StrictObject({ email: Type.String({ format: 'email' }), at: Type.String({ format: 'date-time' }) }),
      'body',
    );
    expect(check({ email: 'a@b.co', at: '2024-01-01T10:00:00Z' }).error).toBeUndefined();
    expect(check({ email: 'nope', at: 'yesterday' }).error?.validation).toHaveLength(2);
  });
});

describe('createSchemaCompilers: a route compiles its schemas at its first request', () => {
  const schema = StrictObject({ n: Type.Integer() });

  it('compiles a validator at its first use, once', () => {
    const compilers = createSchemaCompilers();
    const check = compilers.validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/x' }) as unknown as (
      data: unknown,
    ) => Result;
    const other = compilers.validatorCompiler({ schema, httpPart: 'querystring', method: 'GET', url: '/y' });
    expect(other).toBeTypeOf('function');
    expect(check({ n: 1 }).value).toEqual({ n: 1 });
    expect(check({ n: 'x' }).error?.validation.map((issue) => issue.instancePath)).toEqual(['/n']);
    // the one used is compiled; the other is left for compilePending, then nothing is
    expect(compilers.compilePending()).toBe(1);
    expect(compilers.compilePending()).toBe(0);
  });

  it('builds Fastify’s default response serializer at its first use', () => {
    const compilers = createSchemaCompilers();
    const serializerCompiler = compilers.buildSerializer({}, {});
    const serialize = serializerCompiler({
      schema: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
      method: 'GET',
      url: '/x',
      httpStatus: '200',
    });
    expect(compilers.compilePending()).toBe(1);
    // what the schema doesn't name is left out, as Fastify's serializer does
    expect(serialize({ id: 7, name: 'Ana', secret: 'x' })).toBe('{"id":7,"name":"Ana"}');
    expect(compilers.compilePending()).toBe(0);
  });

  it('leaves a broken schema to fail when compiled — at its first request, or in compilePending', () => {
    const compilers = createSchemaCompilers();
    const broken = { type: 'object', properties: { n: { type: 'nonsense' } } };
    const check = compilers.validatorCompiler({ schema: broken, httpPart: 'body', method: 'POST', url: '/x' }) as unknown as (
      data: unknown,
    ) => Result;
    expect(() => compilers.compilePending()).toThrow();
    expect(() => check({ n: 1 })).toThrow();
  });
});

describe('createValidatorCompiler: strict numbers and text', () => {
  const schema = StrictObject({ id: Type.Integer({ minimum: 1 }), ids: Type.Optional(Type.Array(Type.Integer())) });

  it('reads numbers in params and queries only when written plainly', () => {
    for (const part of ['params', 'querystring']) {
      const check = validator(schema, part);
      expect(check({ id: '12' }).value).toEqual({ id: 12 });
      expect(check({ id: '1', ids: ['2', '30'] }).value).toEqual({ id: 1, ids: [2, 30] });
      for (const loose of ['0x1', '1e0', ' 1', '1 ', '+1', '01', '0b1', '1.0', '']) {
        expect(
          check({ id: loose }).error?.validation.map((issue) => issue.instancePath),
          `${part} ${loose}`,
        ).toEqual(['/id']);
      }
      expect(check({ id: '1', ids: ['2', '0x3'] }).error).toBeDefined();
    }
    const fraction = validator(StrictObject({ n: Type.Number() }), 'querystring');
    expect(fraction({ n: '1.5' }).value).toEqual({ n: 1.5 });
    expect(fraction({ n: '1e3' }).error).toBeDefined();
  });

  it('refuses NUL, lone surrogates and marked invalid UTF-8 in every part, keys included', () => {
    const text = StrictObject({ s: Type.String(), list: Type.Optional(Type.Array(Type.Object({ t: Type.String() }))) });
    for (const part of ['body', 'params', 'querystring']) {
      const check = validator(text, part);
      expect(check({ s: 'ok 😀 ç' }).error).toBeUndefined();
      for (const bad of ['a\u0000', '\ud800', 'x\udc00y', '😀'.slice(0, 1)]) {
        expect(check({ s: bad }).error?.validation[0]?.instancePath, `${part} ${JSON.stringify(bad)}`).toBe('/s');
      }
      expect(check({ s: 'ok', list: [{ t: 'a\u0000' }] }).error?.validation[0]?.instancePath).toBe('/list/0/t');
    }
    const free = validator(Type.Object({}, { additionalProperties: Type.String() }), 'body');
    expect(free({ 'k\u0000': 'v' }).error).toBeDefined();
    const query = validator(text, 'querystring');
    expect(query(queryStringParser('s=%FF')).error).toBeDefined();
    expect(query(queryStringParser('s=%C3%A7+x')).value).toEqual({ s: 'ç x' });
  });

  it('parses query strings like the default parser: repeated names, + as a space, bare names', () => {
    expect({ ...queryStringParser('a=1&a=2&b&c=%2B+d') }).toEqual({ a: ['1', '2'], b: '', c: '+ d' });
  });

  it('takes a uuid as its 36 characters only', () => {
    const check = validator(StrictObject({ u: Type.String({ format: 'uuid' }) }), 'params');
    expect(check({ u: '123e4567-e89b-42d3-a456-426614174000' }).error).toBeUndefined();
    expect(check({ u: 'urn:uuid:123e4567-e89b-42d3-a456-426614174000' }).error).toBeDefined();
  });
});
