import { createHmac } from 'node:crypto';

/**
 * The `Balcao-Signature` header of a delivery (docs/api.md "Verifying a delivery"): `t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<raw body>" under the endpoint's secret>`. The timestamp is signed with the body, so a
 * receiver that refuses old timestamps refuses a replayed delivery.
 */
export function signatureHeader(secret: string, rawBody: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}
