import Type, { type Static, type TSchema } from 'typebox';
import type { ErrorCode } from '../shared/errors';

export { type Static, type TSchema, Type };

/** A database id: a positive 32-bit integer (bigger numbers are refused before they reach Postgres). */
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** Path parameters `{ id }`. */
export const IdParams = Type.Object({ id: Id }, { additionalProperties: false });

/** A page number as the documented lists take it (`pageNumber`, starting at 1). */
export const PageNumber = Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 });

/**
 * The error body every 4xx/5xx answer carries. Its `title` names it in the API document: the core
 * moves every schema with a `title` into `components.schemas[title]` and refers to it there, so generated
 * clients get `Error`, `Ticket`, `Message`… instead of anonymous inline types (docs/api.md, "The API
 * document"). Validation and serialization ignore `title`.
 */
export const ErrorResponse = Type.Object(
  {
    error: Type.String({ pattern: '^ERR_' }),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { additionalProperties: true, title: 'Error' },
);

/** A plain object schema that refuses unknown fields (the default for bodies and queries). */
export function StrictObject<T extends Record<string, TSchema>>(properties: T, options: Record<string, unknown> = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

/**
 * The body of a POST/PUT/PATCH route that reads none: no body at all, or an empty JSON object (some
 * clients always send `{}`). Every such route declares it, so a missing body schema is always a mistake
 * the route-table test can catch; any field sent is refused with ERR_VALIDATION.
 */
export const NoBody = Type.Union([Type.Null(), Type.Object({}, { additionalProperties: false })], {
  description: 'This route reads no body',
});

/** The query string of a GET route that reads none: any parameter sent is refused with ERR_VALIDATION. */
export const NoQuery = Type.Object({}, { additionalProperties: false, description: 'This route reads no query parameters' });

/**
 * The error codes a route answers, by HTTP status, for the API document: `{ 404: ['ERR_NO_TICKET_FOUND'] }`.
 * Only the route's own codes: the core adds those its hooks answer (401/402/403 from the route's access
 * and plan flag, 400 `ERR_VALIDATION` for a route with a schema, 404 for another company's ids, 400/413/415
 * for a body or an upload Fastify can't parse). Every code must be registered with that status (a test holds each route to it).
 */
export type RouteErrors = { readonly [status: number]: readonly ErrorCode[] };

declare module 'fastify' {
  interface FastifySchema {
    /** The route's own error codes by status (`RouteErrors`); documentation only, answers are not checked against it. */
    errors?: RouteErrors;
    /**
     * The parts of a `multipart/form-data` body the route reads with `request.parts()`, as an object
     * schema whose file parts are `Type.String({ format: 'binary' })`. Documentation only: `request.parts()`
     * reads and checks them, and the body schema still says what a JSON body may be (`NoBody` for none).
     */
    multipart?: TSchema;
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether text can be stored and sent on: no NUL (Postgres refuses it) and no UTF-16 surrogate out of
 * its pair (no UTF-8 encoding exists). The core refuses other text in every schema-validated field;
 * a route reading fields the schema can't see (multipart) checks them with this.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}
