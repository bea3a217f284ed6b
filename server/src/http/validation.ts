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
  return ajv;
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
 * an array where the schema wants one) and still refuse unknown names. `defer` decides when each is compiled
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
    return (data: unknown) => {
      const validate = validator();
      const valid = validate(data);
      if (valid) return { value: data };
      return { error: Object.assign(new Error('validation failed'), { validation: validate.errors ?? [] }) };
    };
  };
}
