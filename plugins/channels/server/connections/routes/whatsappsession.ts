import { access, defineRoutes, NoBody, NoQuery, Type } from '@balcao/plugin-sdk/server';
import { ConnectionParams, ConnectionSchema, errorResponses, RestartAllSchema } from '../schemas';
import { connectionCompany, inCompany } from '../scope';
import { pairSession, restartAllSessions, restartSession, startSession, stopSession } from '../session.service';

const ACTIONS = access.permission('connections-page:actionButtons');

/**
 * Session actions of a connection (docs/product/administration.md#screens-and-routes per-status buttons, #calls-and-realtime-events): start or try again, new QR
 * (restart), disconnect, and restart every connection of the company. Each answers the connection as it
 * now is (`POST /whatsapp-restart/` answers which restarted and which were skipped).
 */
export default defineRoutes((app, ctx) => {
  const companyOf = (request: { session: { companyId: number } | null }) => request.session?.companyId as number;
  const inSessionCompany = async <T>(
    request: Parameters<typeof connectionCompany>[1] & { params: { whatsappId: number } },
    fn: (companyId: number) => Promise<T>,
  ): Promise<T> => {
    const companyId = await connectionCompany(ctx, request, request.params.whatsappId);
    return inCompany(companyId, () => fn(companyId));
  };
  const schema = {
    params: ConnectionParams,
    querystring: NoQuery,
    body: NoBody,
    response: { 200: ConnectionSchema, ...errorResponses(403, 404, 409) },
  };
  /**
   * Start and new QR (session.service.ts): the plan must allow the connection's channel, and the channel
   * must run here; the channel's own answer is a status, its failures arrive later as `sessionError`.
   */
  const startErrors = {
    403: ['ERR_PLAN_FEATURE_DISABLED'],
    404: ['ERR_NO_WAPP_FOUND'],
    409: ['ERR_CHANNEL_NOT_AVAILABLE'],
  } as const;

  app.post(
    '/whatsappsession/:whatsappId',
    { schema: { ...schema, summary: "Start a connection's session", errors: startErrors }, config: ACTIONS },
    async (request) => inSessionCompany(request, (companyId) => startSession(ctx, companyId, request.params.whatsappId)),
  );

  app.put(
    '/whatsappsession/:whatsappId',
    { schema: { ...schema, summary: "Ask a connection's session for a new QR code", errors: startErrors }, config: ACTIONS },
    async (request) => inSessionCompany(request, (companyId) => restartSession(ctx, companyId, request.params.whatsappId)),
  );

  // ours: pair by phone number instead of a QR code; the code to type on the phone arrives as the
  // connection's pairingCode over company-{id}-whatsappSession
  app.post(
    '/whatsappsession/:whatsappId/pairing-code',
    {
      schema: {
        summary: 'Pair a connection by phone number',
        // 409 also for a channel that pairs only by QR code (webchat)
        errors: { ...startErrors, 400: ['ERR_WAPP_PAIRING_NUMBER_INVALID'] },
        params: ConnectionParams,
        querystring: NoQuery,
        body: Type.Object({ number: Type.String({ minLength: 1, maxLength: 30 }) }, { additionalProperties: false }),
        response: { 200: ConnectionSchema, ...errorResponses(400, 403, 404, 409) },
      },
      config: ACTIONS,
    },
    async (request) =>
      inSessionCompany(request, (companyId) => pairSession(ctx, companyId, request.params.whatsappId, request.body.number)),
  );

  app.delete(
    '/whatsappsession/:whatsappId',
    {
      // disconnecting is allowed whatever the plan
      schema: {
        ...schema,
        summary: "Disconnect a connection's session",
        errors: { 404: ['ERR_NO_WAPP_FOUND'], 409: ['ERR_CHANNEL_NOT_AVAILABLE'] },
      },
      config: ACTIONS,
    },
    async (request) => inSessionCompany(request, (companyId) => stopSession(ctx, companyId, request.params.whatsappId)),
  );

  for (const path of ['/whatsapp-restart', '/whatsapp-restart/']) {
    app.post(
      path,
      {
        schema: {
          summary: "Restart every connection's session",
          // a connection that can't restart is listed as skipped, not refused
          errors: {},
          querystring: NoQuery,
          body: NoBody,
          response: { 200: RestartAllSchema, ...errorResponses(403) },
        },
        config: ACTIONS,
      },
      async (request) => restartAllSessions(ctx, companyOf(request)),
    );
  }
});
