import { ErrorResponse, type FastifyRequest, type RequestSession, Type } from '@balcao/plugin-sdk/server';

/** Error answers a route documents, by status: `{ 404: ErrorResponse, … }`. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorResponse> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorResponse]));
}

/** An empty answer (204). */
export const Empty = Type.Null();

/** The caller of an authenticated route (the access hook guarantees a session there). */
export function callerOf(request: FastifyRequest): RequestSession {
  return request.session as RequestSession;
}
