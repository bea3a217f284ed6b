import { isAppError, isTenantScopeError, statusForError } from '@balcao/plugin-sdk/server';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

interface AjvIssue {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
  keyword?: string;
}

/** Turns ajv's issues into `{ field, message }` pairs naming the request part and the field path. */
function validationDetails(error: FastifyError): Array<{ field: string; message: string }> {
  const context = (error as FastifyError & { validationContext?: string }).validationContext ?? 'body';
  const issues = (error.validation ?? []) as AjvIssue[];
  return issues.map((issue) => {
    let field = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    const params = issue.params ?? {};
    if (issue.keyword === 'required' && typeof params.missingProperty === 'string') {
      field = field ? `${field}.${params.missingProperty}` : params.missingProperty;
    }
    if (issue.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      field = field ? `${field}.${params.additionalProperty}` : params.additionalProperty;
      return { field: `${context}.${field}`, message: 'is not allowed' };
    }
    return { field: field ? `${context}.${field}` : context, message: issue.message ?? 'is invalid' };
  });
}

/** Postgres error classes that mean bad input rather than a bug, mapped to 4xx. */
const PG_INPUT_ERRORS: Record<string, { status: number; code: string }> = {
  '22P02': { status: 400, code: 'ERR_VALIDATION' }, // invalid text representation
  '22003': { status: 400, code: 'ERR_VALIDATION' }, // numeric value out of range
  '22001': { status: 400, code: 'ERR_VALIDATION' }, // string too long
  '22021': { status: 400, code: 'ERR_VALIDATION' }, // character not in repertoire (NUL bytes)
  '22007': { status: 400, code: 'ERR_VALIDATION' }, // invalid datetime format
  '22008': { status: 400, code: 'ERR_VALIDATION' }, // datetime field overflow
  '23505': { status: 409, code: 'ERR_CONFLICT' }, // unique violation
  '23503': { status: 409, code: 'ERR_CONFLICT' }, // foreign key violation
};

/**
 * Fastify's `frameworkErrors` option: URLs the router refuses before any route runs (bad percent-encoding,
 * a parameter past the length limit) get the API's error shape instead of Fastify's own.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  if (status >= 500) {
    request.log.error({ err: error, reqId: request.id }, 'unexpected router error');
    void reply.status(500).send({ error: 'ERR_INTERNAL', requestId: request.id });
    return;
  }
  void reply.status(status).send({ error: 'ERR_BAD_REQUEST' });
}

/**
 * The one place where errors become HTTP answers: coded domain errors with their registered status,
 * schema failures as ERR_VALIDATION with the failing fields, known input errors of Postgres as 4xx,
 * and anything else as a 500 with no stack, logged with the request id.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & { code?: string }, request, reply) => {
    if (isAppError(error)) {
      return reply.status(error.status).send({ ...(error.extra ?? {}), error: error.code });
    }
    if (error.validation) {
      return reply.status(400).send({ error: 'ERR_VALIDATION', details: validationDetails(error) });
    }
    // objection wraps the driver's errors (DBError) and keeps the original, with its SQLSTATE, as nativeError
    const pgCode =
      typeof error.code === 'string' ? error.code : (error as { nativeError?: { code?: unknown } }).nativeError?.code;
    const pg = typeof pgCode === 'string' ? PG_INPUT_ERRORS[pgCode] : undefined;
    if (pg && !isTenantScopeError(error)) {
      request.log.info({ pgCode }, 'database refused input');
      return reply.status(pg.status).send({ error: pg.code });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx: body too large, bad JSON, unsupported media type …
      const code =
        status === 413
          ? 'ERR_PAYLOAD_TOO_LARGE'
          : status === 415
            ? 'ERR_UNSUPPORTED_MEDIA_TYPE'
            : status === 429
              ? 'ERR_RATE_LIMITED'
              : status === 404
                ? 'ERR_NOT_FOUND'
                : status === 401
                  ? 'ERR_UNAUTHENTICATED'
                  : status === 403
                    ? 'ERR_NO_PERMISSION'
                    : 'ERR_BAD_REQUEST';
      return reply.status(status).send({ error: statusForError(code) ? code : 'ERR_BAD_REQUEST' });
    }
    request.log.error({ err: error, reqId: request.id }, 'unexpected error');
    return reply.status(500).send({ error: 'ERR_INTERNAL', requestId: request.id });
  });
}
