import { can, type PermissionTable, type RouteAccess, runInTenant } from '@balcao/plugin-sdk/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ApiKeyService, isApiKeyToken } from '../auth/api-keys';
import type { Authenticated, Authenticator } from '../auth/authenticator';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authentication result of this request, when it carried a valid session. */
    auth: Authenticated | null;
  }
}

/** Reads the bearer token of a request. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

function deny(reply: FastifyReply, status: number, error: string, extra: Record<string, unknown> = {}) {
  return reply.status(status).send({ ...extra, error });
}

/**
 * The one hook that enforces every route's declared access and plan flag, before the body is even read.
 * A route without a declared access is refused (fail closed) — and a test fails for it.
 */
export function installAccessHook(
  app: FastifyInstance,
  authenticator: Authenticator,
  permissions: () => PermissionTable,
  apiKeys?: ApiKeyService,
): void {
  app.decorateRequest('session', null);
  app.decorateRequest('auth', null);

  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    const rule: RouteAccess | undefined = config?.access;
    if (!rule) {
      // 404s reach here with no route config; anything else is a route that forgot its access
      if (request.is404) return;
      request.log.error({ url: request.routeOptions.url }, 'route without declared access refused');
      return deny(reply, 403, 'ERR_NO_PERMISSION');
    }
    const token = bearerToken(request);
    // An API key (docs/api.md "API keys") reaches only the routes that declare a scope it holds, public or
    // not; then it passes the same rules as the admin it acts as.
    let keyResult: Authenticated | null = null;
    if (apiKeys && isApiKeyToken(token)) {
      const scope = config.apiKeyScope;
      const result = await apiKeys.authenticate(token);
      if (!result.ok) return deny(reply, result.status, result.error, result.extra);
      if (!scope || !result.apiKey.scopes.includes(scope)) {
        return deny(reply, 403, 'ERR_API_KEY_SCOPE', scope ? { scope } : {});
      }
      keyResult = result;
    }
    if (rule === 'public') {
      if (keyResult) {
        request.auth = keyResult;
        request.session = keyResult.session;
        return;
      }
      if (token) {
        const result = await authenticator.authenticate(token);
        if (result.ok) {
          request.auth = result;
          request.session = result.session;
        }
      }
      return;
    }
    const result = keyResult ?? (await authenticator.authenticate(token));
    if (!result.ok) return deny(reply, result.status, result.error, result.extra);
    if (result.expired && !config.allowExpired) {
      return deny(reply, 402, 'ERR_SUBSCRIPTION_EXPIRED', { dueDate: result.company.dueDate });
    }
    const { user, company } = result;
    const isAdmin = user.profile === 'admin' || user.super;
    if (rule === 'admin' && !isAdmin) return deny(reply, 403, 'ERR_NO_PERMISSION');
    if (rule === 'super' && !user.super) return deny(reply, 403, 'ERR_NO_PERMISSION');
    if (typeof rule === 'object' && !can(user, rule.permission, permissions())) {
      return deny(reply, 403, 'ERR_NO_PERMISSION');
    }
    if (config.planFlag && !company.flags[config.planFlag]) return deny(reply, 403, 'ERR_PLAN_FEATURE_DISABLED');
    request.auth = result;
    request.session = result.session;
  });

  // The tenant scope is entered after the body is parsed: stream callbacks would lose an earlier one.
  app.addHook('preHandler', (request, _reply, done) => {
    const session = request.session;
    if (!session) return done();
    runInTenant({ companyId: session.companyId, userId: session.userId }, () => done());
  });
}
