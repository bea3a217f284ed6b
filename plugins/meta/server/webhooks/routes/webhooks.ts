import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError, access, defineRoutes, type FastifyRequest, StrictObject, Type } from '@balcao/plugin-sdk/server';
import type { MetaChannel } from '../../accounts';
import { type MetaContext, metaApp } from '../../config';
import type { ConnectionEvents } from '../../inbound/events';
import { messengerEvents } from '../../messenger/webhook';
import { whatsappEvents } from '../../whatsappapi/webhook';
import { queueDelivery, signatureValid } from '../deliveries';

const ErrorBody = Type.Object({ error: Type.String() }, { additionalProperties: true });
const Platform = Type.Union([Type.Literal('whatsapp'), Type.Literal('facebook'), Type.Literal('instagram')]);
const Params = StrictObject({ platform: Platform });
const Handshake = Type.Object(
  {
    'hub.mode': Type.Optional(Type.String({ maxLength: 32 })),
    'hub.verify_token': Type.Optional(Type.String({ maxLength: 256 })),
    'hub.challenge': Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);
const Delivery = Type.Object(
  {
    object: Type.String({ maxLength: 64 }),
    entry: Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 1000 }),
  },
  { additionalProperties: true },
);

type Platform = 'whatsapp' | 'facebook' | 'instagram';
const CHANNEL: Record<Platform, MetaChannel> = { whatsapp: 'whatsappapi', facebook: 'facebook', instagram: 'instagram' };
const OBJECT: Record<Platform, string> = { whatsapp: 'whatsapp_business_account', facebook: 'page', instagram: 'instagram' };

function eventsOf(platform: Platform, payload: unknown, appId: string): { connections: ConnectionEvents[]; skipped: number } {
  return platform === 'whatsapp' ? whatsappEvents(payload) : messengerEvents(platform, payload, appId);
}

/** Whether `given` is `expected`, compared in constant time (on digests: the lengths tell nothing either). */
function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The deliveries whose signature the parser below checked over the exact bytes received: the handler
 * trusts this mark instead of hashing the body a second time (a 100-message delivery is ~40 kB).
 */
const verified = new WeakSet<FastifyRequest>();

/**
 * Meta's webhooks, one endpoint per platform (`/meta/webhooks/whatsapp|facebook|instagram`), public: the
 * GET is the verify-token handshake Meta makes when the app's webhook is set up; the POST a delivery,
 * accepted only with a valid X-Hub-Signature-256 over the exact bytes received (a bad one is 401 and
 * stores nothing). A delivery is queued as durable jobs and answered at once: Meta retries slow webhooks
 * and disables those that stay slow. docs/meta.md.
 */
export default defineRoutes((app, ctx) => {
  const meta = ctx as MetaContext;

  // this file's own JSON parser (encapsulated: other routes keep the core's) keeps the raw bytes
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const raw = body as Buffer;
    // the signature is checked here, over the exact bytes, before any parsing or schema: an unsigned body
    // is 401 and never parsed
    const settings = metaApp(meta);
    if (!settings) return done(new AppError('ERR_META_NOT_CONFIGURED'), undefined);
    if (!signatureValid(settings.secret, raw, request.headers['x-hub-signature-256']))
      return done(new AppError('ERR_META_SIGNATURE_INVALID'), undefined);
    verified.add(request);
    try {
      done(null, JSON.parse(raw.toString('utf8')));
    } catch {
      done(new AppError('ERR_VALIDATION'), undefined);
    }
  });
  // every refused delivery leaves a line: Meta shows only that it failed
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 400)
      meta.log.warn(
        // the path only: the handshake's query carries the verify token
        { status: reply.statusCode, path: request.url.split('?')[0], bytes: Number(request.headers['content-length'] ?? 0) },
        'a Meta webhook call was refused',
      );
  });

  app.get(
    '/meta/webhooks/:platform',
    {
      schema: {
        summary: 'Meta webhooks: the verify-token handshake',
        errors: { 403: ['ERR_META_VERIFY_TOKEN_INVALID'], 404: ['ERR_META_NOT_CONFIGURED'] },
        params: Params,
        querystring: Handshake,
        response: { 200: Type.String(), 403: ErrorBody, 404: ErrorBody },
      },
      config: access.public,
    },
    async (request, reply) => {
      const settings = metaApp(meta);
      if (!settings) throw new AppError('ERR_META_NOT_CONFIGURED');
      const query = request.query;
      if (
        query['hub.mode'] !== 'subscribe' ||
        !sameSecret(query['hub.verify_token'], settings.verifyToken) ||
        !query['hub.challenge']
      )
        throw new AppError('ERR_META_VERIFY_TOKEN_INVALID');
      return reply.type('text/plain').send(query['hub.challenge']);
    },
  );

  app.post(
    '/meta/webhooks/:platform',
    {
      schema: {
        summary: 'Meta webhooks: a delivery (signed with the app secret)',
        errors: {
          401: ['ERR_META_SIGNATURE_INVALID'],
          404: ['ERR_META_NOT_CONFIGURED', 'ERR_META_UNKNOWN_ACCOUNT'],
        },
        params: Params,
        body: Delivery,
        response: { 200: Type.Object({ received: Type.Integer() }), 401: ErrorBody, 404: ErrorBody },
      },
      config: access.public,
    },
    async (request) => {
      const settings = metaApp(meta);
      if (!settings) throw new AppError('ERR_META_NOT_CONFIGURED');
      // nothing of a delivery is read before its signature is checked over the exact bytes received (by the
      // parser: a body that did not come through it is refused)
      if (!verified.has(request)) throw new AppError('ERR_META_SIGNATURE_INVALID');
      const platform = request.params.platform;
      if (request.body.object !== OBJECT[platform]) throw new AppError('ERR_META_UNKNOWN_ACCOUNT');
      const received = await queueDelivery(meta, CHANNEL[platform], eventsOf(platform, request.body, settings.id));
      return { received };
    },
  );
});
