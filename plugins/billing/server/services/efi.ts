import { timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import {
  type CreatedCharge,
  GatewayError,
  type NewCharge,
  type PaymentGateway,
  type QueriedCharge,
  type WebhookRequest,
} from './gateway';

/** How Efí's Pix API is reached (docs/billing.md "Efí"). */
export interface EfiOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  pixKey: string;
  /** The application's PKCS#12 certificate (mutual TLS); none against a stand-in over plain HTTP. */
  certificate?: Buffer;
  webhookSecret: string;
  /** Milliseconds a call may take. */
  timeoutMs?: number;
}

interface Answer {
  status: number;
  body: unknown;
}

/** Efí's document field: a CPF has 11 digits, a CNPJ 14. */
function debtor(payer: NewCharge['payer']): Record<string, string> {
  const digits = payer.document.replace(/\D/g, '');
  const name = payer.name.slice(0, 200);
  if (digits.length === 14) return { cnpj: digits, nome: name };
  if (digits.length === 11) return { cpf: digits, nome: name };
  return {};
}

const sameSecret = (given: unknown, expected: string) => {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The Efí Pix adapter: OAuth client credentials (the token kept until shortly before it expires),
 * `PUT /v2/cob/:txid`, `GET /v2/loc/:id/qrcode`, `GET /v2/cob/:txid`; the webhook carries our secret
 * in its address (`?hmac=`), as Efí's documentation suggests beside its mutual TLS.
 */
export function efiGateway(options: EfiOptions): PaymentGateway {
  const base = new URL(options.baseUrl);
  const agent =
    base.protocol === 'https:'
      ? new https.Agent({ keepAlive: true, pfx: options.certificate, passphrase: '' })
      : new http.Agent({ keepAlive: true });
  let token: { value: string; until: number } | null = null;

  const call = (method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const url = new URL(path, base);
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const request = (url.protocol === 'https:' ? https : http).request(
        url,
        {
          method,
          agent,
          timeout: options.timeoutMs ?? 15_000,
          headers: {
            accept: 'application/json',
            ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
            ...headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = null;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {
              parsed = text;
            }
            resolve({ status: response.statusCode ?? 0, body: parsed });
          });
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new GatewayError(`Efí took longer than ${options.timeoutMs ?? 15_000} ms`)));
      request.on('error', (error) =>
        reject(error instanceof GatewayError ? error : new GatewayError(`Efí unreachable: ${error.message}`)),
      );
      request.end(payload);
    });

  async function accessToken(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const answer = await call('POST', '/oauth/token', { grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
    const body = answer.body as { access_token?: unknown; expires_in?: unknown } | null;
    if (answer.status !== 200 || typeof body?.access_token !== 'string') {
      throw new GatewayError(`Efí refused the client credentials (${answer.status})`, answer.status);
    }
    const lifeSeconds = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    // a minute early, so no call leaves with a token about to expire
    token = { value: body.access_token, until: Date.now() + Math.max(0, lifeSeconds - 60) * 1000 };
    return token.value;
  }

  async function authorized(method: string, path: string, body?: unknown): Promise<Answer> {
    let answer = await call(method, path, body, { authorization: `Bearer ${await accessToken()}` });
    if (answer.status === 401) {
      // revoked before its time: one new token, one retry
      token = null;
      answer = await call(method, path, body, { authorization: `Bearer ${await accessToken()}` });
    }
    return answer;
  }

  return {
    name: 'efi',
    charges: true,
    async createCharge(charge: NewCharge): Promise<CreatedCharge> {
      const created = await authorized('PUT', `/v2/cob/${encodeURIComponent(charge.txid)}`, {
        calendario: { expiracao: charge.expiresInSeconds },
        devedor: debtor(charge.payer),
        valor: { original: charge.amount },
        chave: options.pixKey,
        solicitacaoPagador: charge.description.slice(0, 140),
      });
      const cob = created.body as { txid?: string; loc?: { id?: number }; pixCopiaECola?: string } | null;
      if (created.status !== 201 && created.status !== 200) {
        throw new GatewayError(`Efí refused the charge (${created.status})`, created.status);
      }
      if (cob?.txid !== charge.txid || typeof cob.loc?.id !== 'number')
        throw new GatewayError('Efí answered a charge without its location');
      const qr = await authorized('GET', `/v2/loc/${cob.loc.id}/qrcode`);
      const codes = qr.body as { qrcode?: string; imagemQrcode?: string } | null;
      if (qr.status !== 200 || typeof codes?.qrcode !== 'string')
        throw new GatewayError(`Efí gave no QR code (${qr.status})`, qr.status);
      return { txid: charge.txid, copyPaste: codes.qrcode, qrImage: codes.imagemQrcode ?? null };
    },
    async queryCharge(txid: string): Promise<QueriedCharge> {
      const answer = await authorized('GET', `/v2/cob/${encodeURIComponent(txid)}`);
      const cob = answer.body as {
        txid?: string;
        status?: string;
        valor?: { original?: string };
        pix?: Array<{ endToEndId?: string; valor?: string; horario?: string }>;
      } | null;
      if (
        answer.status !== 200 ||
        cob?.txid !== txid ||
        typeof cob.status !== 'string' ||
        typeof cob.valor?.original !== 'string'
      ) {
        throw new GatewayError(`Efí answered no charge ${txid} (${answer.status})`, answer.status);
      }
      return {
        txid,
        status: cob.status,
        amount: cob.valor.original,
        payments: (cob.pix ?? []).map((pix) => ({
          endToEndId: String(pix.endToEndId ?? ''),
          amount: String(pix.valor ?? '0'),
          paidAt: String(pix.horario ?? ''),
        })),
      };
    },
    verifyWebhook(request: WebhookRequest) {
      if (!sameSecret(request.query.hmac, options.webhookSecret)) return null;
      const pix = (request.body as { pix?: unknown } | null)?.pix;
      if (!Array.isArray(pix)) return { txids: [] };
      const txids = pix
        .map((item) => (item as { txid?: unknown } | null)?.txid)
        .filter((txid): txid is string => typeof txid === 'string' && txid.length > 0);
      return { txids: [...new Set(txids)] };
    },
    async close() {
      agent.destroy();
    },
  };
}

/** Reads the certificate file named by EFI_CERTIFICATE. */
export const readCertificate = (path: string) => readFile(path);
