import { type FeatureConfig, type PluginContext, Type } from '@balcao/plugin-sdk/server';

/** The billing's environment variables (README "Configuration", docs/billing.md "Configuration"). */
export const billingConfig = {
  /**
   * The payment gateway: `efi` (Efí's Pix API), `manual` (the super user marks invoices paid), `off`
   * (no billing). Unset: `efi-standin` outside production — the real Efí adapter against the stand-in
   * Efí server the plugin starts on loopback, so the demo can pay — and `off` in production.
   */
  BILLING_GATEWAY: Type.Optional(
    Type.Union([Type.Literal('efi'), Type.Literal('efi-standin'), Type.Literal('manual'), Type.Literal('off')]),
  ),
  /** Days before a company's due date when its invoice for that period is made. */
  BILLING_INVOICE_LEAD_DAYS: Type.Integer({ minimum: 0, maximum: 60, default: 10 }),
  /** How long a Pix charge can be paid, in seconds. */
  BILLING_PIX_EXPIRATION_SECONDS: Type.Integer({ minimum: 60, maximum: 604_800, default: 3600 }),
  /** Efí's API address (its sandbox: https://pix-h.api.efipay.com.br). */
  EFI_API_URL: Type.String({ default: 'https://pix.api.efipay.com.br' }),
  EFI_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  EFI_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  /** The platform's Pix key that receives the payments. */
  EFI_PIX_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** Path of the PKCS#12 certificate Efí issues for the application (mutual TLS). */
  EFI_CERTIFICATE: Type.Optional(Type.String({ minLength: 1 })),
  /** The secret the webhook address carries (`?hmac=`): a call without it is refused. At least 16 characters. */
  EFI_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 16 })),
};

export type BillingConfig = FeatureConfig<typeof billingConfig>;

/** The billing's context, its configuration typed. */
export type BillingContext = PluginContext<BillingConfig>;

export type GatewayName = 'efi' | 'efi-standin' | 'manual' | 'off';

/** The gateway in use, the unset default resolved (see BILLING_GATEWAY). */
export function gatewayName(config: BillingConfig & { env: string }): GatewayName {
  return config.BILLING_GATEWAY ?? (config.env === 'production' ? 'off' : 'efi-standin');
}

/**
 * What checkConfig refuses of BILLING_GATEWAY (exit 78 at start): the stand-in gateway in production, where
 * it would let any admin "pay" through the demo route, and `efi` without each of its settings. `nodeEnv` is
 * the core's reading of NODE_ENV, which checkConfig hands in.
 */
export function gatewayProblems(config: BillingConfig, nodeEnv: string): string[] {
  if (config.BILLING_GATEWAY === 'efi-standin' && nodeEnv === 'production')
    return ['BILLING_GATEWAY=efi-standin is for the demo and tests, not production'];
  if (config.BILLING_GATEWAY === 'efi')
    return missingEfiSettings(config).map((name) => `${name} is required when BILLING_GATEWAY=efi`);
  return [];
}

/** What `BILLING_GATEWAY=efi` needs that the schema alone can't require: each missing name. */
export function missingEfiSettings(config: BillingConfig): string[] {
  const needed = ['EFI_CLIENT_ID', 'EFI_CLIENT_SECRET', 'EFI_PIX_KEY', 'EFI_CERTIFICATE', 'EFI_WEBHOOK_SECRET'] as const;
  return needed.filter((name) => !config[name]);
}
