import { AppError, access, defineRoutes, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { requireBilling } from '../services/enabled';
import { confirmCharge } from '../services/payments.service';
import { errorResponses } from '../services/schemas';
import { billingState } from '../services/state';

const WebhookQuery = StrictObject({
  hmac: Type.Optional(Type.String({ maxLength: 200 })),
  ignorar: Type.Optional(Type.String({ maxLength: 10 })),
});
// Efí's payload: `{ pix: [{ endToEndId, txid, valor, horario, … }] }` (its test call has no `pix`)
const WebhookBody = Type.Object(
  { pix: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 100 })) },
  { additionalProperties: true },
);
const WebhookAnswer = Type.Object({ confirmed: Type.Integer() });

/**
 * Efí's Pix webhook (docs/billing.md "Webhook"): authentic only with our secret in its address; each
 * txid it names is confirmed by querying the gateway, never by the payload. A refused txid (unknown,
 * replayed, unpaid, a wrong amount) is logged where it is refused and the others still count: the answer
 * is 200 with what was confirmed, since Efí retries a failed call and may disable the webhook. Only a
 * gateway that doesn't answer fails the call (502), so Efí tries again. A call without our secret is logged
 * to the process log only: anyone can make one, and a row each would grow without bound.
 */
export default defineRoutes((app, ctx) => {
  const handler = async (request: {
    query: Record<string, unknown>;
    headers: Record<string, string | string[] | undefined>;
    body: unknown;
    ip: string;
  }) => {
    requireBilling(ctx);
    const gateway = billingState(ctx).gateway;
    const claim = gateway?.verifyWebhook({ query: request.query, headers: request.headers, body: request.body }) ?? null;
    if (!claim) {
      ctx.log.warn({ ip: request.ip }, 'a billing webhook without our secret was refused');
      throw new AppError('ERR_BILLING_WEBHOOK_SIGNATURE');
    }
    let confirmed = 0;
    let unavailable: AppError | null = null;
    for (const txid of claim.txids) {
      try {
        await confirmCharge(ctx, txid, 'webhook');
        confirmed += 1;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error.code === 'ERR_BILLING_GATEWAY_UNAVAILABLE') unavailable ??= error;
      }
    }
    if (unavailable) throw unavailable;
    return { confirmed };
  };
  const schema = {
    errors: {
      401: ['ERR_BILLING_WEBHOOK_SIGNATURE'],
      404: ['ERR_BILLING_DISABLED'],
      502: ['ERR_BILLING_GATEWAY_UNAVAILABLE'],
    } as const,
    querystring: WebhookQuery,
    body: WebhookBody,
    response: { 200: WebhookAnswer, ...errorResponses(401, 404, 502) },
  };
  app.post('/billing/webhook/efi', { schema: { summary: "Efí's Pix webhook", ...schema }, config: access.public }, handler);
  // Efí appends /pix to the registered address
  app.post(
    '/billing/webhook/efi/pix',
    { schema: { summary: "Efí's Pix webhook (the address Efí calls)", ...schema }, config: access.public },
    handler,
  );
});
