import { Ajv, type Options } from 'ajv';
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
  return ajv;
}

/**
 * Validators per HTTP part. Bodies are JSON and must have the right types: no coercion, unknown fields
 * refused. Path parameters and query strings arrive as text, so they are coerced (`'7'` → 7, one value →
 * an array where the schema wants one) and still refuse unknown names.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  // allErrors: a form gets every failing field at once, not one per round trip
  const strict = makeAjv({ coerceTypes: false, allErrors: true });
  const coercing = makeAjv({ coerceTypes: 'array', allErrors: true });
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    const validate = ajv.compile(schema as object);
    return (data: unknown) => {
      const valid = validate(data);
      if (valid) return { value: data };
      return { error: Object.assign(new Error('validation failed'), { validation: validate.errors ?? [] }) };
    };
  };
}
