import { AppError, access, defineRoutes, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { requireBilling } from '../services/enabled';
import { confirmCharge, logBillingEvent } from '../services/payments.service';
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
 * txid it names is confirmed by querying the gateway, never by the payload. A refusal is logged and
 * changes nothing; the first one answers.
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
      await logBillingEvent(ctx.db.knex, {
        kind: 'webhook_refused',
        detail: { reason: 'ERR_BILLING_WEBHOOK_SIGNATURE', ip: request.ip },
      });
      ctx.log.warn({ ip: request.ip }, 'a billing webhook without our secret was refused');
      throw new AppError('ERR_BILLING_WEBHOOK_SIGNATURE');
    }
    let confirmed = 0;
    let refusal: unknown = null;
    for (const txid of claim.txids) {
      try {
        await confirmCharge(ctx, txid, 'webhook');
        confirmed += 1;
      } catch (error) {
        refusal ??= error;
      }
    }
    if (refusal) throw refusal;
    return { confirmed };
  };
  const schema = {
    errors: {
      401: ['ERR_BILLING_WEBHOOK_SIGNATURE'],
      404: ['ERR_BILLING_DISABLED', 'ERR_BILLING_WEBHOOK_UNKNOWN_TXID'],
      409: [
        'ERR_BILLING_WEBHOOK_REPLAY',
        'ERR_BILLING_AMOUNT_MISMATCH',
        'ERR_BILLING_NOT_PAID',
        'ERR_BILLING_MANUAL_GATEWAY',
        'ERR_INVOICE_ALREADY_PAID',
      ],
      502: ['ERR_BILLING_GATEWAY_UNAVAILABLE'],
    } as const,
    querystring: WebhookQuery,
    body: WebhookBody,
    response: { 200: WebhookAnswer, ...errorResponses(401, 404, 409, 502) },
  };
  app.post('/billing/webhook/efi', { schema: { summary: "Efí's Pix webhook", ...schema }, config: access.public }, handler);
  // Efí appends /pix to the registered address
  app.post(
    '/billing/webhook/efi/pix',
    { schema: { summary: "Efí's Pix webhook (the address Efí calls)", ...schema }, config: access.public },
    handler,
  );
});
