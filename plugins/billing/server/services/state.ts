import { randomBytes } from 'node:crypto';
import type { PluginContext } from '@balcao/plugin-sdk/server';
import { type BillingContext, type GatewayName, gatewayName, missingEfiSettings } from '../config';
import { type EfiStandIn, startEfiStandIn } from '../testing/efi-standin';
import { efiGateway, readCertificate } from './efi';
import { manualGateway, type PaymentGateway } from './gateway';

/** What one app's billing holds: its gateway and, in the demo, the stand-in Efí it runs. */
export interface BillingState {
  name: GatewayName;
  gateway: PaymentGateway | null;
  standIn: EfiStandIn | null;
  webhookSecret: string | null;
}

const states = new WeakMap<PluginContext, BillingState>();

/** The app's billing state (set up by `openBilling` when the plugin registers). */
export function billingState(ctx: PluginContext): BillingState {
  const state = states.get(ctx);
  if (!state) throw new Error('billing is not set up for this app');
  return state;
}

/** The address Efí posts payments to (Efí appends `/pix`). */
export const webhookAddress = (ctx: BillingContext, base: string, secret: string) =>
  `${base.replace(/\/$/, '')}${ctx.config.apiPrefix}/billing/webhook/efi?hmac=${encodeURIComponent(secret)}`;

/** Sets up the configured gateway (BILLING_GATEWAY); refuses `efi` without its settings. */
export async function openBilling(ctx: BillingContext): Promise<BillingState> {
  const name = gatewayName(ctx.config);
  let state: BillingState = { name, gateway: null, standIn: null, webhookSecret: null };
  if (name === 'manual') state = { ...state, gateway: manualGateway() };
  if (name === 'efi') {
    const missing = missingEfiSettings(ctx.config);
    if (missing.length > 0) throw new Error(`BILLING_GATEWAY=efi needs ${missing.join(', ')}`);
    const config = ctx.config as Required<typeof ctx.config>;
    state = {
      ...state,
      webhookSecret: config.EFI_WEBHOOK_SECRET,
      gateway: efiGateway({
        baseUrl: config.EFI_API_URL,
        clientId: config.EFI_CLIENT_ID,
        clientSecret: config.EFI_CLIENT_SECRET,
        pixKey: config.EFI_PIX_KEY,
        certificate: await readCertificate(config.EFI_CERTIFICATE),
        webhookSecret: config.EFI_WEBHOOK_SECRET,
      }),
    };
  }
  if (name === 'efi-standin') {
    const standIn = await startEfiStandIn();
    const webhookSecret = randomBytes(18).toString('base64url');
    standIn.webhookUrl = webhookAddress(ctx, ctx.config.publicUrl, webhookSecret);
    state = {
      ...state,
      standIn,
      webhookSecret,
      gateway: efiGateway({
        baseUrl: standIn.url,
        clientId: standIn.clientId,
        clientSecret: standIn.clientSecret,
        pixKey: 'pix@balcao.local',
        webhookSecret,
      }),
    };
    ctx.log.info({ url: standIn.url }, 'billing uses the stand-in Efí Pix gateway (demo payments only)');
  }
  states.set(ctx, state);
  return state;
}

export async function closeBilling(ctx: PluginContext): Promise<void> {
  const state = states.get(ctx);
  if (!state) return;
  states.delete(ctx);
  await state.gateway?.close();
  await state.standIn?.close();
}
