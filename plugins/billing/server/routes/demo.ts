import { AppError, access, defineRoutes, NoBody } from '@balcao/plugin-sdk/server';
import { type BillingContext, gatewayName } from '../config';
import { chargeStatus } from '../services/checkout.service';
import { sessionOf } from '../services/enabled';
import { confirmCharge } from '../services/payments.service';
import { ChargeStatusSchema, errorResponses, TxidParams } from '../services/schemas';
import { billingState } from '../services/state';

/**
 * The demo's "pay with your bank app" (docs/billing.md "Demo"): only with the stand-in Efí gateway, an
 * admin pays one of their company's charges there; the stand-in then posts Efí's webhook, which confirms
 * the payment as in production (by querying the charge). Without a listening address to post to (a test
 * app), the payment is confirmed the same way directly. With any other gateway the route doesn't exist.
 */
export default defineRoutes((app, ctx) => {
  if (gatewayName((ctx as BillingContext).config) !== 'efi-standin') return;
  app.post(
    '/billing/demo/charges/:txid/pay',
    {
      schema: {
        summary: 'Demo only: pay a charge at the stand-in Pix gateway',
        errors: { 404: ['ERR_BILLING_DISABLED', 'ERR_NO_CHARGE_FOUND'] },
        params: TxidParams,
        body: NoBody,
        response: { 200: ChargeStatusSchema, ...errorResponses(404) },
      },
      config: { ...access.admin, allowExpired: true, fixtureParams: { txid: 'charge' } },
    },
    async (request) => {
      const { standIn } = billingState(ctx);
      if (!standIn) throw new AppError('ERR_BILLING_DISABLED');
      const session = sessionOf(request);
      const charge = await chargeStatus(ctx.db.knex, session, request.params.txid);
      if (charge.status === 'ATIVA') {
        if (!standIn.charges.has(charge.txid)) throw new AppError('ERR_NO_CHARGE_FOUND');
        const webhookStatus = await standIn.pay(charge.txid).catch(() => null);
        if (webhookStatus === null) await confirmCharge(ctx, charge.txid, 'demo');
      }
      return chargeStatus(ctx.db.knex, session, request.params.txid);
    },
  );
});
