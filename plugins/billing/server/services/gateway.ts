/**
 * What billing asks of a payment gateway (docs/billing.md "Gateways"). A charge is a Pix `cob`
 * identified by our `txid`; a payment counts only as the gateway answers a query for it, never as a
 * webhook says.
 */
export interface NewCharge {
  txid: string;
  /** Reais, two decimals. */
  amount: string;
  expiresInSeconds: number;
  payer: { name: string; document: string };
  description: string;
}

export interface CreatedCharge {
  txid: string;
  /** The Pix copy-paste code (BR Code). */
  copyPaste: string;
  /** The QR code as a `data:image/png;base64,…` address, when the gateway gives one. */
  qrImage: string | null;
}

export interface QueriedCharge {
  txid: string;
  /** The gateway's state: ATIVA, CONCLUIDA, REMOVIDA_PELO_USUARIO_RECEBEDOR, REMOVIDA_PELO_PSP. */
  status: string;
  /** The amount the charge asks for. */
  amount: string;
  /** The Pix transfers received for it (empty while unpaid). */
  payments: Array<{ endToEndId: string; amount: string; paidAt: string }>;
}

/** A webhook's claim: the charges it says were paid. Only a lead — each is queried before anything changes. */
export interface WebhookClaim {
  txids: string[];
}

export interface WebhookRequest {
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface PaymentGateway {
  readonly name: string;
  /** Whether the company can pay at checkout (false: someone marks invoices paid by hand). */
  readonly charges: boolean;
  createCharge(charge: NewCharge): Promise<CreatedCharge>;
  queryCharge(txid: string): Promise<QueriedCharge>;
  /** The webhook's claim when it is authentic; null when its signature doesn't hold. */
  verifyWebhook(request: WebhookRequest): WebhookClaim | null;
  close(): Promise<void>;
}

/** A gateway that couldn't be reached or answered what it shouldn't; the caller answers 502. */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

/**
 * The "manual" gateway: the platform bills outside Balcão and the super user marks invoices paid. It
 * opens no charge and trusts no webhook.
 */
export function manualGateway(): PaymentGateway {
  const refuse = async (): Promise<never> => {
    throw new GatewayError('the manual gateway opens no charge');
  };
  return {
    name: 'manual',
    charges: false,
    createCharge: refuse,
    queryCharge: refuse,
    verifyWebhook: () => null,
    close: async () => {},
  };
}
