import { access, defineRoutes, NoQuery } from '@balcao/plugin-sdk/server';
import type { BillingContext } from '../config';
import { chargeStatus, startCheckout, subscriptionOf } from '../services/checkout.service';
import { requireBilling, sessionOf } from '../services/enabled';
import {
  ChargeStatusSchema,
  CheckoutSchema,
  errorResponses,
  SubscriptionBody,
  SubscriptionSchema,
  TxidParams,
} from '../services/schemas';

/**
 * The subscription and its checkout (docs/product/administration.md "Invoices and subscription",
 * docs/billing.md "Checkout"): open to admins of a company whose subscription expired, so they can pay.
 */
export default defineRoutes((app, baseCtx) => {
  const ctx = baseCtx as BillingContext;

  app.get(
    '/subscription',
    {
      schema: {
        summary: "The company's subscription: due date, days left, billing e-mail, plan",
        errors: { 404: ['ERR_BILLING_DISABLED', 'ERR_NO_COMPANY_FOUND'] },
        querystring: NoQuery,
        response: { 200: SubscriptionSchema, ...errorResponses(404) },
      },
      config: { ...access.admin, allowExpired: true },
    },
    async (request) => {
      requireBilling(ctx);
      return subscriptionOf(ctx, sessionOf(request));
    },
  );

  app.post(
    '/subscription',
    {
      schema: {
        summary: 'Subscribe or pay an invoice: a Pix charge of the amount the server computes (a sent price is ignored)',
        errors: {
          400: ['ERR_BILLING_INVALID_PLAN'],
          404: ['ERR_BILLING_DISABLED', 'ERR_NO_INVOICE_FOUND', 'ERR_NO_PLAN_FOUND'],
          409: ['ERR_INVOICE_ALREADY_PAID', 'ERR_BILLING_MANUAL_GATEWAY'],
          502: ['ERR_BILLING_GATEWAY_UNAVAILABLE'],
        },
        body: SubscriptionBody,
        response: { 200: CheckoutSchema, ...errorResponses(400, 404, 409, 502) },
      },
      config: {
        ...access.admin,
        allowExpired: true,
        fixtureBody: (ids: Record<string, number | string>) => ({
          firstName: 'Walker',
          zipcode: '12345678909',
          invoiceId: Number(ids.invoice),
        }),
      },
    },
    async (request) => {
      requireBilling(ctx);
      return startCheckout(ctx, sessionOf(request), request.body);
    },
  );

  app.get(
    '/subscription/charges/:txid',
    {
      schema: {
        summary: 'The state of a Pix charge of the company (the Pix view polls it beside the socket)',
        errors: { 404: ['ERR_BILLING_DISABLED', 'ERR_NO_CHARGE_FOUND'] },
        params: TxidParams,
        querystring: NoQuery,
        response: { 200: ChargeStatusSchema, ...errorResponses(404) },
      },
      config: { ...access.admin, allowExpired: true, fixtureParams: { txid: 'charge' } },
    },
    async (request) => {
      requireBilling(ctx);
      return chargeStatus(ctx.db.knex, sessionOf(request), request.params.txid);
    },
  );
});
