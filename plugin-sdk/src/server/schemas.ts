import Type, { type Static, type TSchema } from 'typebox';

export { type Static, type TSchema, Type };

/** A database id: a positive 32-bit integer (bigger numbers are refused before they reach Postgres). */
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** Path parameters `{ id }`. */
export const IdParams = Type.Object({ id: Id }, { additionalProperties: false });

/** A page number as the documented lists take it (`pageNumber`, starting at 1). */
export const PageNumber = Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 });

/** The error body every 4xx/5xx answer carries. */
export const ErrorResponse = Type.Object(
  {
    error: Type.String({ pattern: '^ERR_' }),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { additionalProperties: true },
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

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether text can be stored and sent on: no NUL (Postgres refuses it) and no UTF-16 surrogate out of
 * its pair (no UTF-8 encoding exists). The core refuses other text in every schema-validated field;
 * a route reading fields the schema can't see (multipart) checks them with this.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}
