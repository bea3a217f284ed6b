import { StrictObject, Type } from '@balcao/plugin-sdk/server';
import { describe, expect, it } from 'vitest';
import { createValidatorCompiler } from './validation';

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
