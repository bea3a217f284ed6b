import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Efí's Pix API on loopback, speaking the shapes our adapter uses: `POST /oauth/token`
 * (Basic client credentials), `PUT /v2/cob/:txid`, `GET /v2/loc/:id/qrcode`, `GET /v2/cob/:txid`. It
 * keeps charges in memory. `pay` plays the payer: the charge becomes CONCLUIDA and, when a webhook
 * address is set, Efí's webhook (`{ pix: [...] }`) is posted to it. The tests and the demo use it.
 */
export interface EfiStandIn {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Requests received, method and path, in order. */
  calls: Array<{ method: string; path: string; body: unknown }>;
  charges: Map<string, StandInCharge>;
  /** Where `pay` posts the webhook (our `/billing/webhook/efi?hmac=…`); Efí appends `/pix`. */
  webhookUrl: string | null;
  /** Pays a charge (its whole amount unless `amount` says otherwise); answers the webhook's status, or null without one. */
  pay(txid: string, options?: { amount?: string }): Promise<number | null>;
  close(): Promise<void>;
}

export interface StandInCharge {
  txid: string;
  locId: number;
  status: string;
  amount: string;
  pixKey: string;
  payer: unknown;
  pix: Array<{ endToEndId: string; txid: string; valor: string; horario: string; chave: string }>;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

/** A fake but well-formed BR Code for a charge (the payload a bank app reads). */
const brCode = (charge: StandInCharge) =>
  `00020101021226830014BR.GOV.BCB.PIX2561standin.efi.local/v2/cobv/${charge.txid}5204000053039865406${charge.amount}5802BR5913Balcao Demo6009SAO PAULO62070503***6304ABCD`;

/** A 1×1 PNG: the stand-in has no QR encoder; the UI draws the QR code from the copy-paste text. */
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export async function startEfiStandIn(options: { clientId?: string; clientSecret?: string } = {}): Promise<EfiStandIn> {
  const clientId = options.clientId ?? 'Client_Id_standin';
  const clientSecret = options.clientSecret ?? 'Client_Secret_standin';
  const tokens = new Set<string>();
  const charges = new Map<string, StandInCharge>();
  const byLoc = new Map<number, StandInCharge>();
  const calls: EfiStandIn['calls'] = [];
  let nextLoc = 1;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://standin');
      let body: unknown = null;
      try {
        body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : null;
      } catch {
        return json(res, 400, { nome: 'json_invalido', mensagem: 'JSON inválido' });
      }
      calls.push({ method: req.method ?? '', path: url.pathname, body });

      if (req.method === 'POST' && url.pathname === '/oauth/token') {
        const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
        if (
          req.headers.authorization !== expected ||
          (body as { grant_type?: string } | null)?.grant_type !== 'client_credentials'
        ) {
          return json(res, 401, { error: 'invalid_client', error_description: 'Invalid or inactive credentials' });
        }
        const token = randomBytes(24).toString('hex');
        tokens.add(token);
        return json(res, 200, {
          access_token: token,
          token_type: 'Bearer',
          expires_in: 3600,
          scope: 'cob.write cob.read pix.read',
        });
      }
      const bearer = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!tokens.has(bearer)) return json(res, 401, { nome: 'nao_autorizado', mensagem: 'Requisição não autorizada.' });

      const cob = url.pathname.match(/^\/v2\/cob\/([A-Za-z0-9]{26,35})$/);
      if (cob && req.method === 'PUT') {
        const txid = cob[1] as string;
        const input = body as { valor?: { original?: string }; chave?: string; devedor?: unknown; calendario?: unknown } | null;
        if (!input?.valor?.original || !/^\d{1,10}\.\d{2}$/.test(input.valor.original) || !input.chave) {
          return json(res, 400, { nome: 'valor_invalido', mensagem: 'Campo valor.original inválido' });
        }
        if (charges.has(txid)) return json(res, 400, { nome: 'txid_duplicado', mensagem: 'Campo txid já utilizado' });
        const charge: StandInCharge = {
          txid,
          locId: nextLoc++,
          status: 'ATIVA',
          amount: input.valor.original,
          pixKey: input.chave,
          payer: input.devedor ?? null,
          pix: [],
        };
        charges.set(txid, charge);
        byLoc.set(charge.locId, charge);
        return json(res, 201, {
          calendario: input.calendario,
          txid,
          revisao: 0,
          loc: { id: charge.locId, location: `standin.efi.local/v2/cobv/${txid}`, tipoCob: 'cob' },
          location: `standin.efi.local/v2/cobv/${txid}`,
          status: 'ATIVA',
          devedor: charge.payer,
          valor: { original: charge.amount },
          chave: charge.pixKey,
          pixCopiaECola: brCode(charge),
        });
      }
      if (cob && req.method === 'GET') {
        const charge = charges.get(cob[1] as string);
        if (!charge)
          return json(res, 404, {
            nome: 'cobranca_nao_encontrada',
            mensagem: 'Nenhuma cobrança encontrada para o txid informado',
          });
        return json(res, 200, {
          txid: charge.txid,
          status: charge.status,
          valor: { original: charge.amount },
          chave: charge.pixKey,
          loc: { id: charge.locId },
          ...(charge.pix.length > 0 ? { pix: charge.pix } : {}),
        });
      }
      const qr = url.pathname.match(/^\/v2\/loc\/(\d+)\/qrcode$/);
      if (qr && req.method === 'GET') {
        const charge = byLoc.get(Number(qr[1]));
        if (!charge) return json(res, 404, { nome: 'location_nao_encontrada', mensagem: 'Location não encontrada' });
        return json(res, 200, { qrcode: brCode(charge), imagemQrcode: PIXEL, linkVisualizacao: `http://standin/${charge.txid}` });
      }
      return json(res, 404, { nome: 'rota_inexistente', mensagem: 'Rota não encontrada' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const standIn: EfiStandIn = {
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    calls,
    charges,
    webhookUrl: null,
    async pay(txid, payOptions = {}) {
      const charge = charges.get(txid);
      if (!charge) throw new Error(`the stand-in has no charge ${txid}`);
      const pix = {
        endToEndId: `E${randomBytes(15).toString('hex').slice(0, 31)}`,
        txid,
        valor: payOptions.amount ?? charge.amount,
        horario: new Date().toISOString(),
        chave: charge.pixKey,
      };
      charge.pix.push(pix);
      charge.status = 'CONCLUIDA';
      if (!standIn.webhookUrl) return null;
      // Efí posts to the registered address with /pix appended, before its query string
      const target = new URL(standIn.webhookUrl);
      target.pathname = `${target.pathname.replace(/\/$/, '')}/pix`;
      const answer = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pix: [pix] }),
      });
      await answer.arrayBuffer();
      return answer.status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standIn;
}
