/**
 * `POST /api/messages/send` on the real core: a throwaway Postgres database, real Redis, the echo channel
 * (testing/echo-channel) as the connection's driver. Nothing is mocked.
 */

import { companyEvent } from '@balcao/plugin-sdk/server';
import { connectSocket, nextEvent } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageApiContext } from '../config';
import { sendBatcherStats, sendsToday } from '../services/send.service';
import { echoSends } from '../testing/echo-channel/server/index';
import { echoConnection, type MessageApiKit, messageApiKit } from '../testing/kit';

const RATE_LIMIT = 20;

let kit: MessageApiKit;
beforeAll(async () => {
  process.env.MESSAGE_API_RATE_LIMIT = String(RATE_LIMIT);
  kit = await messageApiKit();
});
afterAll(async () => {
  delete process.env.MESSAGE_API_RATE_LIMIT;
  await kit?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: answers of many shapes
type Answer = { status: number; body: any; headers: Record<string, unknown> };

async function send(token: string | null, payload: object, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await kit.t.inject({
    method: 'POST',
    url: '/api/messages/send',
    payload,
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.statusCode, body: res.body ? res.json() : null, headers: res.headers };
}

async function sendMultipart(token: string, form: FormData, headers: Record<string, string> = {}): Promise<Answer> {
  const encoded = new Request('http://local/', { method: 'POST', body: form });
  const res = await kit.t.inject({
    method: 'POST',
    url: '/api/messages/send',
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { ...headers, 'content-type': encoded.headers.get('content-type') as string, authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, body: res.body ? res.json() : null, headers: res.headers };
}

let numbers = 0;
/** A number nobody has used in this file. */
function freshNumber(): string {
  numbers += 1;
  return `55119${String(process.pid % 1000).padStart(3, '0')}${String(numbers).padStart(4, '0')}`;
}

/** A fresh connection per test: each has its own rate-limit window. */
async function connection(): Promise<{ id: number; token: string }> {
  return echoConnection(kit.knex, kit.companyId);
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('POST /api/messages/send', () => {
  it('creates the contact and ticket, delivers through the connection and answers what it made', async () => {
    const { id, token } = await connection();
    const number = freshNumber();
    const answer = await send(token, { number, body: 'Olá da API', userId: '', queueId: '' });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      messageId: expect.any(Number),
      ticketId: expect.any(Number),
      contactId: expect.any(Number),
      whatsappId: id,
      ticketCreated: true,
      ticketStatus: 'pending',
      messages: [{ id: answer.body.messageId, status: 'sent', error: null }],
    });
    expect(answer.headers['ratelimit-limit']).toBe(String(RATE_LIMIT));
    expect(answer.headers['ratelimit-remaining']).toBe(String(RATE_LIMIT - 1));
    expect(Number(answer.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(echoSends().get(answer.body.messageId)).toBe(1);
    const contact = await kit.knex('contacts').where({ id: answer.body.contactId }).first();
    expect(contact).toMatchObject({ companyId: kit.companyId, number });
    const message = await kit.knex('messages').where({ id: answer.body.messageId }).first();
    expect(message).toMatchObject({ body: 'Olá da API', fromMe: true, ticketId: answer.body.ticketId });

    // the same person again: the same contact and the same active ticket
    const again = await send(token, { number, body: 'segunda' });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ contactId: answer.body.contactId, ticketId: answer.body.ticketId, ticketCreated: false });
  });

  it('opens the ticket for the user, signs with their name, and closes it when asked', async () => {
    const { token } = await connection();
    const admin = await kit.knex('users').where({ companyId: kit.companyId, email: 'admin@acme.test' }).first('id', 'name');
    const [queue] = await kit
      .knex('queues')
      .insert({ companyId: kit.companyId, name: `API ${Date.now()}` })
      .returning('id');
    const answer = await send(token, {
      number: freshNumber(),
      body: 'assinada',
      userId: admin.id,
      queueId: String(queue.id),
      sendSignature: true,
      closeTicket: true,
    });
    expect(answer.status).toBe(201);
    expect(answer.body.ticketStatus).toBe('closed');
    const message = await kit.knex('messages').where({ id: answer.body.messageId }).first('body');
    expect(message.body).toBe(`*${admin.name}:*\nassinada`);
    const ticket = await kit.knex('tickets').where({ id: answer.body.ticketId }).first('status', 'userId', 'queueId');
    expect(ticket).toEqual({ status: 'closed', userId: admin.id, queueId: queue.id });
  });

  it('refuses a number with a mask or letters with 400 naming the field, sending nothing', async () => {
    const { token } = await connection();
    const before = await kit.knex('messages').count({ n: '*' }).first();
    for (const number of ['+55 (11) 99999-0000', '5511abc99990', '55-11-99999-0000', '']) {
      const answer = await send(token, { number, body: 'x' });
      expect(answer.status, number).toBe(400);
      expect(answer.body.error).toBe('ERR_VALIDATION');
      expect(answer.body.details.map((detail: { field: string }) => detail.field)).toContain('body.number');
    }
    const form = new FormData();
    form.append('number', '(11) 9999-0000');
    form.append('body', 'x');
    const multipart = await sendMultipart(token, form);
    expect(multipart.status).toBe(400);
    expect(multipart.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ field: 'body.number' }] });
    expect(await kit.knex('messages').count({ n: '*' }).first()).toEqual(before);
  });

  it('refuses a user or queue of another company, and an empty message', async () => {
    const { token } = await connection();
    const other = await kit.knex('users').whereNot({ companyId: kit.companyId }).first('id');
    expect((await send(token, { number: freshNumber(), body: 'x', userId: other.id })).body).toEqual({
      error: 'ERR_NO_USER_FOUND',
    });
    const otherQueue = await kit.knex('queues').whereNot({ companyId: kit.companyId }).first('id');
    if (otherQueue) {
      expect((await send(token, { number: freshNumber(), body: 'x', queueId: otherQueue.id })).body).toEqual({
        error: 'ERR_NO_QUEUE_FOUND',
      });
    }
    const empty = await send(token, { number: freshNumber(), body: '   ' });
    expect(empty).toMatchObject({ status: 400, body: { error: 'ERR_MESSAGE_API_EMPTY' } });
  });

  it('accepts only a connection token: none, unknown, or a person’s session is 401; a plan without the flag 403', async () => {
    expect(await send(null, { number: freshNumber(), body: 'x' })).toMatchObject({
      status: 401,
      body: { error: 'ERR_MESSAGE_API_TOKEN_INVALID' },
    });
    expect((await send('abcdefghijklmnopqrstuvwxyz0123', { number: freshNumber(), body: 'x' })).status).toBe(401);
    const admin = await kit.t.login('admin@acme.test');
    expect(await send(admin.token, { number: freshNumber(), body: 'x' })).toMatchObject({
      status: 401,
      body: { error: 'ERR_MESSAGE_API_TOKEN_INVALID' },
    });
    // a malformed request is refused as such, whoever sends it
    expect((await send(null, { number: 'abc' })).status).toBe(400);

    const lite = kit.t.demo.companies.lite as number;
    const liteConnection = await echoConnection(kit.knex, lite);
    expect(await send(liteConnection.token, { number: freshNumber(), body: 'x' })).toMatchObject({
      status: 403,
      body: { error: 'ERR_PLAN_FEATURE_DISABLED' },
    });
  });

  it('refuses an inactive or expired company at once after the change, with its company state cached', async () => {
    const { token } = await connection();
    const plugin = kit.t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'message-api');
    const ctx = plugin?.ctx as MessageApiContext;
    expect((await send(token, { number: freshNumber(), body: 'antes' })).status).toBe(201);
    const saved = await kit.knex('companies').where({ id: kit.companyId }).first('status', 'dueDate');
    // as the admin's company update does: write the row, then drop the cached state on every process
    const change = async (values: object) => {
      await kit.knex('companies').where({ id: kit.companyId }).update(values);
      await ctx.session.invalidateCompany(kit.companyId);
    };
    try {
      await change({ status: false });
      expect(await send(token, { number: freshNumber(), body: 'inativa' })).toMatchObject({
        status: 403,
        body: { error: 'ERR_COMPANY_INACTIVE' },
      });
      await change({ status: true, dueDate: '2020-01-31' });
      expect(await send(token, { number: freshNumber(), body: 'vencida' })).toMatchObject({
        status: 402,
        body: { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: '2020-01-31' },
      });
    } finally {
      await change(saved);
    }
    expect((await send(token, { number: freshNumber(), body: 'depois' })).status).toBe(201);
  });

  it('is not taken by the inbox’s POST /messages/:id', async () => {
    const admin = await kit.t.login('admin@acme.test');
    const res = await kit.t.inject({ method: 'POST', url: '/api/messages/send', token: admin.token, payload: { body: 'x' } });
    // the inbox would validate its ticket id `send`; this route validates its own body
    expect(res.statusCode).toBe(400);
    const fields = (res.json().details as Array<{ field: string }>).map((detail) => detail.field);
    expect(fields).toContain('body.number');
    expect(fields.some((field) => field.startsWith('params'))).toBe(false);
    const valid = await kit.t.inject({
      method: 'POST',
      url: '/api/messages/send',
      token: admin.token,
      payload: { number: freshNumber(), body: 'x' },
    });
    expect(valid.json()).toEqual({ error: 'ERR_MESSAGE_API_TOKEN_INVALID' });
  });

  it('sends a file checked by content, and refuses a text file named .png', async () => {
    const { token } = await connection();
    const form = new FormData();
    form.append('number', freshNumber());
    form.append('body', 'legenda');
    form.append('medias', new Blob([PNG], { type: 'image/png' }), 'pixel.png');
    const answer = await sendMultipart(token, form);
    expect(answer.status).toBe(201);
    const message = await kit.knex('messages').where({ id: answer.body.messageId }).first('body', 'mediaType', 'mediaName');
    expect(message).toEqual({ body: 'legenda', mediaType: 'image', mediaName: 'pixel.png' });
    expect(echoSends().get(answer.body.messageId)).toBe(1);

    const fake = new FormData();
    fake.append('number', freshNumber());
    fake.append('medias', new Blob(['<script>alert(1)</script>'], { type: 'image/png' }), 'pixel.png');
    expect((await sendMultipart(token, fake)).body).toEqual({ error: 'ERR_UNSUPPORTED_MEDIA_TYPE' });
  });

  it('sends once for concurrent retries with one Idempotency-Key, answering each the same', async () => {
    const { token } = await connection();
    const number = freshNumber();
    const headers = { 'idempotency-key': `order-${number}` };
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(token, { number, body: 'uma vez' }, headers)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    const ids = new Set(answers.map((answer) => answer.body.messageId));
    expect(ids.size).toBe(1);
    const [messageId] = [...ids];
    // a replay answers the message's state now: sent, or pending while the first request delivers it
    expect(answers.every((answer) => ['sent', 'pending'].includes(answer.body.messages[0].status))).toBe(true);
    expect(answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
    const contact = await kit.knex('contacts').where({ companyId: kit.companyId, number }).first('id');
    expect(await kit.knex('messages').where({ contactId: contact.id })).toHaveLength(1);
    expect(echoSends().get(messageId)).toBe(1);

    // a later retry too; the same key with another body is refused
    expect((await send(token, { number, body: 'uma vez' }, headers)).body.messageId).toBe(messageId);
    expect(await send(token, { number, body: 'outra' }, headers)).toMatchObject({
      status: 422,
      body: { error: 'ERR_IDEMPOTENCY_KEY_REUSED' },
    });
    expect(echoSends().get(messageId)).toBe(1);
  });

  it('keeps an Idempotency-Key to its caller: two keys of one company with one key and body both send', async () => {
    const { id } = await connection();
    const admin = await kit.t.login('admin@acme.test');
    const apiKey = async (name: string) =>
      (
        await kit.t.inject({
          method: 'POST',
          url: '/api/api-keys',
          token: admin.token,
          payload: { name, scopes: ['messages:send'] },
        })
      ).json().key as string;
    const [erp, crm] = [await apiKey('ERP'), await apiKey('CRM')];
    const number = freshNumber();
    const payload = { number, body: 'mesmo pedido', whatsappId: id };
    const headers = { 'idempotency-key': `shared-${number}` };
    const first = await send(erp, payload, headers);
    const second = await send(crm, payload, headers);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.messageId).not.toBe(first.body.messageId);
    expect(echoSends().get(second.body.messageId)).toBe(1);
    // each caller's retry still answers its own send
    expect((await send(crm, payload, headers)).body.messageId).toBe(second.body.messageId);
    expect((await send(erp, payload, headers)).body.messageId).toBe(first.body.messageId);
  });

  it('limits each token per window with RateLimit headers and 429', async () => {
    const { token } = await connection();
    const other = await connection();
    for (let i = 0; i < RATE_LIMIT; i += 1)
      expect((await send(token, { number: freshNumber(), body: `n${i}` })).status).toBe(201);
    const refused = await send(token, { number: freshNumber(), body: 'demais' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'ERR_MESSAGE_API_RATE_LIMITED' });
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // another token has its own window
    expect((await send(other.token, { number: freshNumber(), body: 'ok' })).status).toBe(201);
  });

  it('counts the company’s sends of the day', async () => {
    const plugin = kit.t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'message-api');
    const ctx = plugin?.ctx as MessageApiContext;
    const before = await sendsToday(ctx, kit.companyId);
    const { token } = await connection();
    await send(token, { number: freshNumber(), body: 'conta' });
    expect(await sendsToday(ctx, kit.companyId)).toBe(before + 1);
    const admin = await kit.t.login('admin@acme.test');
    const usage = await kit.t.inject({ method: 'GET', url: '/api/messages-api/usage', token: admin.token });
    expect(usage.json()).toEqual({ day: new Date().toISOString().slice(0, 10), count: before + 1 });
  });

  it('takes an API key with messages:send, through the connection it names or the company’s first', async () => {
    const { id } = await connection();
    const admin = await kit.t.login('admin@acme.test');
    const created = await kit.t.inject({
      method: 'POST',
      url: '/api/api-keys',
      token: admin.token,
      payload: { name: 'ERP', scopes: ['messages:send'] },
    });
    const key = created.json().key as string;
    const answer = await send(key, { number: freshNumber(), body: 'pela chave', whatsappId: id });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ whatsappId: id, messages: [{ status: 'sent' }] });
    expect(answer.headers['ratelimit-limit']).toBe(String(RATE_LIMIT));

    // another company's connection is no connection of the key's company
    const lite = await echoConnection(kit.knex, kit.t.demo.companies.lite as number);
    expect(await send(key, { number: freshNumber(), body: 'x', whatsappId: lite.id })).toMatchObject({
      status: 404,
      body: { error: 'ERR_MESSAGE_API_NO_CONNECTION' },
    });

    const readOnly = await kit.t.inject({
      method: 'POST',
      url: '/api/api-keys',
      token: admin.token,
      payload: { name: 'Leitura', scopes: ['tickets:read'] },
    });
    expect(await send(readOnly.json().key, { number: freshNumber(), body: 'x', whatsappId: id })).toMatchObject({
      status: 403,
      body: { error: 'ERR_API_KEY_SCOPE', scope: 'messages:send' },
    });
    const revoked = await kit.t.inject({
      method: 'DELETE',
      url: `/api/api-keys/${created.json().apiKey.id}`,
      token: admin.token,
    });
    expect(revoked.statusCode).toBe(200);
    expect(await send(key, { number: freshNumber(), body: 'x', whatsappId: id })).toMatchObject({
      status: 401,
      body: { error: 'ERR_API_KEY_REVOKED' },
    });
  });

  it('stages concurrent sends together, each answered with its own message and ticket', async () => {
    const { token } = await connection();
    const plugin = kit.t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'message-api');
    const before = { ...sendBatcherStats(plugin?.ctx as MessageApiContext).stage };
    const lookupsBefore = { ...sendBatcherStats(plugin?.ctx as MessageApiContext).lookup };
    const people = Array.from({ length: 16 }, () => freshNumber());
    const answers = await Promise.all(
      people.map((number) => send(token, { number, body: `para ${number}` }, { 'idempotency-key': `lote-${number}` })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(people.map(() => 201));
    for (const [index, answer] of answers.entries()) {
      const message = await kit.knex('messages').where({ id: answer.body.messageId }).first('body', 'ticketId', 'contactId');
      expect(message).toEqual({
        body: `para ${people[index]}`,
        ticketId: answer.body.ticketId,
        contactId: answer.body.contactId,
      });
      const contact = await kit.knex('contacts').where({ id: answer.body.contactId }).first('number');
      expect(contact.number).toBe(people[index]);
      expect(echoSends().get(answer.body.messageId)).toBe(1);
    }
    const after = sendBatcherStats(plugin?.ctx as MessageApiContext).stage;
    expect(after.writes - before.writes).toBe(16);
    // the sends that arrived while others were being written left together, and so did their keys' look-ups
    expect(after.statements - before.statements).toBeLessThan(16);
    const lookups = sendBatcherStats(plugin?.ctx as MessageApiContext).lookup;
    expect(lookups.writes - lookupsBefore.writes).toBe(16);
    expect(lookups.statements - lookupsBefore.statements).toBeLessThan(16);
  });

  it('announces the message to the inbox as the inbox reads it, staged and then delivered', async () => {
    const { token } = await connection();
    const admin = await kit.t.login('admin@acme.test');
    const socket = await connectSocket(await kit.t.listen(), kit.companyId, admin.token);
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the event's message, compared whole below
      type MessageEvent = { action: string; message: any };
      const number = freshNumber();
      const isOurs = (payload: MessageEvent) => payload.message?.body === `Anúncio ${number}`;
      const created = nextEvent<MessageEvent>(
        socket,
        companyEvent(kit.companyId, 'appMessage'),
        (payload) => payload.action === 'create' && isOurs(payload),
      );
      const updated = nextEvent<MessageEvent>(
        socket,
        companyEvent(kit.companyId, 'appMessage'),
        (payload) => payload.action === 'update' && isOurs(payload),
      );
      const answer = await send(token, { number, body: `Anúncio ${number}` });
      expect(answer.status).toBe(201);
      const ticket = await kit.t.inject({ method: 'GET', url: `/api/tickets/${answer.body.ticketId}`, token: admin.token });
      const page = await kit.t.inject({ method: 'GET', url: `/api/messages/${ticket.json().uuid}`, token: admin.token });
      const stored = (page.json() as { messages: Array<{ id: number }> }).messages.find(
        (message) => message.id === answer.body.messageId,
      );
      expect(stored).toMatchObject({ sendStatus: 'sent', contact: { name: number } });
      expect((await updated).message).toEqual(stored);
      expect((await created).message).toEqual({
        ...stored,
        sendStatus: 'pending',
        ack: 0,
        updatedAt: (await created).message.createdAt,
      });
    } finally {
      socket.close();
    }
  });
});
