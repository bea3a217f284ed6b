import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EfiStandIn, startEfiStandIn } from '../testing/efi-standin';
import { efiGateway } from './efi';
import { GatewayError, manualGateway, type PaymentGateway } from './gateway';

/**
 * The Efí Pix adapter against the stand-in Efí server (testing/efi-standin.ts): client credentials, the
 * cob and its QR code, the query after a payment, the webhook's secret.
 */
let standIn: EfiStandIn;
let efi: PaymentGateway;
const SECRET = 'a-webhook-secret-of-the-test';
beforeAll(async () => {
  standIn = await startEfiStandIn({ clientId: 'Client_Id_test', clientSecret: 'Client_Secret_test' });
  efi = efiGateway({
    baseUrl: standIn.url,
    clientId: 'Client_Id_test',
    clientSecret: 'Client_Secret_test',
    pixKey: 'chave@plataforma.test',
    webhookSecret: SECRET,
  });
});
afterAll(async () => {
  await efi?.close();
  await standIn?.close();
});

const charge = (txid: string, amount = '49.00') => ({
  txid,
  amount,
  expiresInSeconds: 3600,
  payer: { name: 'Maria da Silva', document: '123.456.789-09' },
  description: 'Plano Completo #12',
});

describe('the Efí Pix adapter', () => {
  it('opens a cob with our txid and amount, and answers its copy-paste code and QR image', async () => {
    const created = await efi.createCharge(charge('TXIDTEST000000000000000000000001'));
    expect(created.txid).toBe('TXIDTEST000000000000000000000001');
    expect(created.copyPaste).toMatch(/^000201.*BR\.GOV\.BCB\.PIX/);
    expect(created.qrImage).toMatch(/^data:image\/png;base64,/);
    const put = standIn.calls.find((call) => call.method === 'PUT');
    expect(put).toEqual({
      method: 'PUT',
      path: '/v2/cob/TXIDTEST000000000000000000000001',
      body: {
        calendario: { expiracao: 3600 },
        devedor: { cpf: '12345678909', nome: 'Maria da Silva' },
        valor: { original: '49.00' },
        chave: 'chave@plataforma.test',
        solicitacaoPagador: 'Plano Completo #12',
      },
    });
  });

  it('asks for a token once and keeps it while it lasts', async () => {
    await efi.createCharge(charge('TXIDTEST000000000000000000000002', '79.90'));
    expect(standIn.calls.filter((call) => call.path === '/oauth/token')).toHaveLength(1);
  });

  it('reads the charge ATIVA, then CONCLUIDA with the transfer once paid', async () => {
    expect(await efi.queryCharge('TXIDTEST000000000000000000000002')).toEqual({
      txid: 'TXIDTEST000000000000000000000002',
      status: 'ATIVA',
      amount: '79.90',
      payments: [],
    });
    await standIn.pay('TXIDTEST000000000000000000000002');
    const paid = await efi.queryCharge('TXIDTEST000000000000000000000002');
    expect(paid.status).toBe('CONCLUIDA');
    expect(paid.payments).toEqual([{ endToEndId: expect.stringMatching(/^E/), amount: '79.90', paidAt: expect.any(String) }]);
  });

  it('fails with a GatewayError for a charge Efí does not have and for wrong credentials', async () => {
    await expect(efi.queryCharge('TXIDUNKNOWN0000000000000000000000')).rejects.toBeInstanceOf(GatewayError);
    const wrong = efiGateway({ baseUrl: standIn.url, clientId: 'x', clientSecret: 'y', pixKey: 'k', webhookSecret: SECRET });
    await expect(wrong.createCharge(charge('TXIDTEST000000000000000000000003'))).rejects.toThrow(/client credentials \(401\)/);
    await wrong.close();
  });

  it('trusts a webhook only with the secret in its address, and reads the txids it names', () => {
    const body = { pix: [{ txid: 'A'.repeat(30) }, { txid: 'A'.repeat(30) }, { txid: 'B'.repeat(30) }] };
    expect(efi.verifyWebhook({ query: { hmac: SECRET }, headers: {}, body })).toEqual({
      txids: ['A'.repeat(30), 'B'.repeat(30)],
    });
    expect(efi.verifyWebhook({ query: { hmac: `${SECRET}x` }, headers: {}, body })).toBeNull();
    expect(efi.verifyWebhook({ query: {}, headers: {}, body })).toBeNull();
    expect(efi.verifyWebhook({ query: { hmac: SECRET }, headers: {}, body: { evento: 'teste_webhook' } })).toEqual({ txids: [] });
  });
});

describe('the manual gateway', () => {
  it('opens no charge and trusts no webhook', async () => {
    const manual = manualGateway();
    expect(manual.charges).toBe(false);
    await expect(manual.createCharge(charge('TXIDTEST000000000000000000000009'))).rejects.toBeInstanceOf(GatewayError);
    expect(manual.verifyWebhook({ query: { hmac: SECRET }, headers: {}, body: { pix: [{ txid: 'x' }] } })).toBeNull();
  });
});
