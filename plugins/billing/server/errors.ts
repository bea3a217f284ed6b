import { defineErrors } from '@balcao/plugin-sdk/server';

/**
 * The billing's own error codes (texts under `errors.<code>` in ui/locales, rows in docs/api.md). It also
 * answers the core's ERR_NO_PLAN_FOUND and ERR_NO_COMPANY_FOUND.
 */
export const billingErrors = defineErrors({
  ERR_BILLING_DISABLED: 404,
  ERR_NO_INVOICE_FOUND: 404,
  ERR_NO_CHARGE_FOUND: 404,
  ERR_INVOICE_ALREADY_PAID: 409,
  ERR_BILLING_INVALID_PLAN: 400,
  ERR_BILLING_MANUAL_GATEWAY: 409,
  ERR_BILLING_GATEWAY_UNAVAILABLE: 502,
  ERR_BILLING_WEBHOOK_SIGNATURE: 401,
  ERR_BILLING_WEBHOOK_UNKNOWN_TXID: 404,
  ERR_BILLING_WEBHOOK_REPLAY: 409,
  ERR_BILLING_AMOUNT_MISMATCH: 409,
  ERR_BILLING_NOT_PAID: 409,
});
