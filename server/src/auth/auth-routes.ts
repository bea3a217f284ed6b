import { AppError, NoBody, NoQuery } from '@balcao/plugin-sdk/server';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CoreServices } from '../core-services';
import { bearerToken } from '../http/access-hook';
import { AuthService, type IssuedSession } from './auth.service';
import { AuthResponseSchema, errors, LoginBody, SessionUserSchema, SignupBody, SignupResponse } from './schemas';

/** The refresh cookie's name. */
export const REFRESH_COOKIE = 'jrt';

/** Auth and session routes of docs/product/tickets-and-inbox.md#calls-and-realtime-events. */
export function registerAuthRoutes(app: FastifyInstance, core: CoreServices): AuthService {
  const service = new AuthService(core);
  const cookiePath = `${core.config.apiPrefix}/auth`;
  // Secure whenever the public address is https, and otherwise whenever this request came over https
  // (directly or, with TRUST_PROXY, through a proxy that says so): a deployment behind TLS that forgot
  // PUBLIC_URL must not hand out its refresh token in a cookie that travels over plain http too.
  const secure = core.config.publicUrl.startsWith('https://') ? true : 'auto';

  const sendSession = (reply: FastifyReply, session: IssuedSession) => {
    reply.setCookie(REFRESH_COOKIE, session.refreshCookie, {
      path: cookiePath,
      httpOnly: true,
      sameSite: 'strict',
      secure,
      ...(session.cookieMaxAge ? { maxAge: session.cookieMaxAge } : {}),
    });
    return { token: session.token, user: session.user };
  };

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in with e-mail and password',
        errors: {
          401: ['ERR_INVALID_CREDENTIALS'],
          403: ['ERR_COMPANY_INACTIVE'],
          429: ['ERR_TOO_MANY_ATTEMPTS'],
        },
        body: LoginBody,
        response: { 200: AuthResponseSchema, ...errors(400, 401, 403, 429) },
      },
      config: { access: 'public' },
    },
    async (request, reply) => {
      const body = request.body as { email: string; password: string; remember?: boolean };
      const session = await service.login({
        ...body,
        ip: request.ip,
        userAgent: String(request.headers['user-agent'] ?? ''),
      });
      return sendSession(reply, session);
    },
  );

  app.post(
    '/auth/refresh_token',
    {
      schema: {
        tags: ['auth'],
        summary: 'Rotate the refresh cookie and get a new access token',
        errors: { 401: ['ERR_SESSION_EXPIRED'], 403: ['ERR_COMPANY_INACTIVE'] },
        body: NoBody,
        response: { 200: AuthResponseSchema, ...errors(401, 403) },
      },
      config: { access: 'public' },
    },
    async (request, reply) => {
      try {
        return sendSession(reply, await service.refresh(request.cookies[REFRESH_COOKIE]));
      } catch (error) {
        reply.clearCookie(REFRESH_COOKIE, { path: cookiePath });
        throw error;
      }
    },
  );

  app.delete(
    '/auth/logout',
    {
      schema: { tags: ['auth'], summary: 'End this session', errors: {}, response: { 204: { type: 'null' } } },
      config: { access: 'public' },
    },
    async (request, reply) => {
      const claims = core.tokens.readAccessToken(bearerToken(request));
      const family = typeof claims === 'object' ? claims.familyId : undefined;
      const userId = typeof claims === 'object' ? claims.userId : undefined;
      await service.logout(request.cookies[REFRESH_COOKIE], family, userId);
      reply.clearCookie(REFRESH_COOKIE, { path: cookiePath });
      return reply.status(204).send();
    },
  );

  app.get(
    '/auth/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'The session user',
        errors: {},
        querystring: NoQuery,
        response: { 200: SessionUserSchema, ...errors(401, 403) },
      },
      // an expired company's session reads itself, to reach the pay screen
      config: { access: 'authenticated', allowExpired: true },
    },
    async (request) => (request.auth ? { ...request.auth.user, expired: request.auth.expired } : undefined),
  );

  app.post(
    '/auth/signup',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create a company and its admin on a public plan, with a trial due date',
        errors: {
          400: ['ERR_PLAN_NOT_PUBLIC'],
          403: ['ERR_SIGNUP_DISABLED'],
          404: ['ERR_NO_PLAN_FOUND'],
          409: ['ERR_EMAIL_ALREADY_EXISTS'],
          429: ['ERR_TOO_MANY_ATTEMPTS'],
        },
        body: SignupBody,
        response: { 201: SignupResponse, ...errors(400, 403, 404, 409, 429) },
      },
      config: { access: 'public' },
    },
    async (request, reply) => {
      const wait = await core.throttle.hitSignup(request.ip);
      if (wait > 0) throw new AppError('ERR_TOO_MANY_ATTEMPTS', { retryAfter: wait });
      const created = await service.signup(request.body as Parameters<AuthService['signup']>[0]);
      return reply.status(201).send(created);
    },
  );

  return service;
}
