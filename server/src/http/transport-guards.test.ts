/**
 * What every route shares below its schema (transport-guards.ts, validation.ts), on a real app: bodies
 * that are not UTF-8, multipart without a boundary, headers past the parser's limit, loose numbers in
 * path parameters and text no column can hold.
 */
import { request as httpRequest } from 'node:http';
import { createTestApp, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let admin: TestSession;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@acme.test');
  base = await t.listen();
});
afterAll(async () => {
  await t?.close();
});

const error = (response: { json: () => unknown }) => (response.json() as { error?: string }).error;

describe('transport guards', () => {
  it('refuses multipart without a boundary with 400, on public and authenticated upload routes alike', async () => {
    for (const [url, token] of [
      ['/api/webchat/some-key/messages', undefined],
      ['/api/messages/1', admin.token],
      ['/api/quick-messages', admin.token],
    ] as const) {
      const response = await t.inject({
        method: 'POST',
        url,
        token,
        headers: { 'content-type': 'multipart/form-data' },
        payload: '--x\r\nContent-Disposition: form-data; name="body"\r\n\r\nhi\r\n--x--\r\n',
      });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
      expect(error(response)).toBe('ERR_VALIDATION');
    }
  });

  it('refuses a JSON body that is not UTF-8 instead of storing U+FFFD', async () => {
    const payload = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('b","color":"#ff0000"}')]);
    const response = await t.inject({
      method: 'POST',
      url: '/api/tags',
      token: admin.token,
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(error(response)).toBe('ERR_VALIDATION');
  });

  it('refuses NUL and lone surrogates in any JSON string and invalid UTF-8 in a query string', async () => {
    for (const name of ['a\u0000b', 'a\ud800b', 'a\udc00b']) {
      const response = await t.inject({
        method: 'POST',
        url: '/api/tags',
        token: admin.token,
        payload: { name, color: '#ff0000' },
      });
      expect(response.statusCode, JSON.stringify(name)).toBe(400);
      expect(error(response)).toBe('ERR_VALIDATION');
    }
    for (const search of ['%00', '%ED%A0%80', '%FF']) {
      const response = await t.inject({ method: 'GET', url: `/api/contacts?searchParam=${search}`, token: admin.token });
      expect(response.statusCode, search).toBe(400);
    }
    const fine = await t.inject({ method: 'GET', url: '/api/contacts?searchParam=%C3%A7%F0%9F%98%80+x', token: admin.token });
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('reads ids as plain digits only: other ways of writing 1 are a 400, never record 1', async () => {
    const contact = await t.inject({
      method: 'POST',
      url: '/api/contacts',
      token: admin.token,
      payload: { name: 'Loose Id', number: '5511912345678' },
    });
    expect(contact.statusCode, contact.body).toBe(201);
    const id = (contact.json() as { id: number }).id;
    expect((await t.inject({ method: 'GET', url: `/api/contacts/${id}`, token: admin.token })).statusCode).toBe(200);
    for (const loose of [`0x${id.toString(16)}`, `${id}e0`, `%20${id}`, `+${id}`, `0${id}`, `0b${id.toString(2)}`, `${id}.0`]) {
      for (const method of ['GET', 'DELETE'] as const) {
        const response = await t.inject({ method, url: `/api/contacts/${loose}`, token: admin.token });
        expect(response.statusCode, `${method} ${loose}: ${response.body}`).toBe(400);
        expect(error(response)).toBe('ERR_VALIDATION');
      }
    }
    expect((await t.inject({ method: 'GET', url: `/api/contacts/${id}`, token: admin.token })).statusCode).toBe(200);
  });

  it('answers headers past the limit with 431 and an ERR_ code', async () => {
    const url = new URL('/healthz', base);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(url, { headers: { 'x-walker': 'x'.repeat(20_000) } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({ error: 'ERR_HEADERS_TOO_LARGE' });
  });
});
