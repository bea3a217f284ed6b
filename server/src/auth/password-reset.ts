import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { AppError, NoBody, StrictObject, Type } from '@balcao/plugin-sdk/server';
import type { FastifyInstance } from 'fastify';
import type { CoreServices } from '../core-services';
import type { AuthService } from './auth.service';
import { hashPassword } from './passwords';
import { errors } from './schemas';

/** How long a reset code lives, and how many wrong tries it survives. */
const CODE_TTL_MS = 15 * 60 * 1000;
const MAX_ATTEMPTS = 5;

/** docs/product/administration.md#validation: at least 8 characters with an uppercase letter, a lowercase letter and a digit. */
export const STRONG_PASSWORD = '^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d).{8,50}$';

function hashCode(userId: number, code: string): string {
  return createHash('sha256').update(`${userId}:${code}`).digest('hex');
}

/**
 * The two-step password reset of docs/product/administration.md#screens-and-routes, #states-and-transitions: a six-digit code mailed to the user, then the
 * code with the new password. Paths are the documented ones (the new password travels in the path, so request
 * logs redact these URLs).
 */
export function registerPasswordResetRoutes(app: FastifyInstance, core: CoreServices, auth: AuthService): void {
  app.post(
    '/forgetpassword/:email',
    {
      schema: {
        tags: ['auth'],
        summary: 'Step 1: mail a reset code (404 when no user has this e-mail)',
        errors: { 404: ['ERR_NO_USER_FOUND'], 429: ['ERR_TOO_MANY_ATTEMPTS'] },
        params: StrictObject({ email: Type.String({ format: 'email', maxLength: 255 }) }),
        body: NoBody,
        response: { 200: Type.Object({ status: Type.Literal('sent') }), ...errors(400, 404, 429) },
      },
      config: { access: 'public' },
    },
    async (request) => {
      const wait = await core.throttle.hitIp(request.ip);
      if (wait > 0) throw new AppError('ERR_TOO_MANY_ATTEMPTS', { retryAfter: wait });
      const email = (request.params as { email: string }).email.trim().toLowerCase();
      const user = await core.knex('users').whereRaw('lower(email) = ?', [email]).first('id', 'companyId', 'name');
      if (!user) throw new AppError('ERR_NO_USER_FOUND');
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await core.knex.transaction(async (trx) => {
        await trx('passwordResetCodes').where({ userId: user.id }).whereNull('usedAt').update({ usedAt: trx.fn.now() });
        await trx('passwordResetCodes').insert({
          userId: user.id,
          companyId: user.companyId,
          codeHash: hashCode(user.id, code),
          expiresAt: new Date(Date.now() + CODE_TTL_MS),
        });
      });
      await core.mailer.send({
        to: email,
        subject: 'Balcão — código de redefinição de senha',
        text: `Olá ${user.name},\n\nSeu código de verificação é ${code}. Ele vale por 15 minutos.\n\nSe você não pediu a redefinição, ignore esta mensagem.`,
      });
      return { status: 'sent' as const };
    },
  );

  app.post(
    '/resetpasswords/:email/:token/:newPassword',
    {
      schema: {
        tags: ['auth'],
        summary: 'Step 2: set a new password with the mailed code',
        errors: { 400: ['ERR_INVALID_RESET_CODE'], 429: ['ERR_TOO_MANY_ATTEMPTS'] },
        params: StrictObject({
          email: Type.String({ format: 'email', maxLength: 255 }),
          token: Type.String({ pattern: '^\\d{6}$' }),
          newPassword: Type.String({ pattern: STRONG_PASSWORD }),
        }),
        body: NoBody,
        response: { 200: Type.Object({ status: Type.Literal('reset') }), ...errors(400, 429) },
      },
      config: { access: 'public' },
    },
    async (request) => {
      const wait = await core.throttle.hitIp(request.ip);
      if (wait > 0) throw new AppError('ERR_TOO_MANY_ATTEMPTS', { retryAfter: wait });
      const params = request.params as { email: string; token: string; newPassword: string };
      const email = params.email.trim().toLowerCase();
      const user = await core.knex('users').whereRaw('lower(email) = ?', [email]).first('id');
      if (!user) throw new AppError('ERR_INVALID_RESET_CODE');
      const pending = await core
        .knex('passwordResetCodes')
        .where({ userId: user.id })
        .whereNull('usedAt')
        .where('expiresAt', '>', new Date())
        .orderBy('id', 'desc')
        .first('id', 'codeHash');
      if (!pending) throw new AppError('ERR_INVALID_RESET_CODE');
      // Each try takes one of the code's attempts before it is compared, in one statement: concurrent
      // guesses can't all read "0 attempts" and be compared before any of them is counted.
      const counted = await core
        .knex('passwordResetCodes')
        .where({ id: pending.id })
        .whereNull('usedAt')
        .where('attempts', '<', MAX_ATTEMPTS)
        .increment('attempts', 1);
      if (counted === 0) throw new AppError('ERR_INVALID_RESET_CODE');
      const matches = timingSafeEqual(Buffer.from(pending.codeHash, 'hex'), Buffer.from(hashCode(user.id, params.token), 'hex'));
      if (!matches) throw new AppError('ERR_INVALID_RESET_CODE');
      const passwordHash = await hashPassword(params.newPassword, core.config.passwordHashCost);
      await core.knex.transaction(async (trx) => {
        // spent once: of concurrent resets with the right code, one finds it unused
        const spent = await trx('passwordResetCodes')
          .where({ id: pending.id })
          .whereNull('usedAt')
          .update({ usedAt: trx.fn.now() });
        if (spent === 0) throw new AppError('ERR_INVALID_RESET_CODE');
        await trx('users').where({ id: user.id }).update({ passwordHash, updatedAt: trx.fn.now() });
      });
      // a new password ends every session that the old one opened
      await auth.revokeUserSessions(user.id, 'password-reset');
      await core.throttle.recordSuccess(email, request.ip);
      return { status: 'reset' as const };
    },
  );
}

/**
 * Request URLs as logs may show them: the reset path carries a password and a code, and an event stream
 * (EventSource can't send headers) its session token in the query (`sessionToken`, `token`), and the
 * billing webhook its shared secret (`hmac`, Efí can't send headers either).
 */
export function redactUrl(url: string): string {
  return url
    .replace(/\/resetpasswords\/.*/, '/resetpasswords/[redacted]')
    .replace(/\/forgetpassword\/[^?]*/, '/forgetpassword/[redacted]')
    .replace(/([?&](?:sessionToken|token|hmac)=)[^&#]*/gi, '$1[redacted]');
}
