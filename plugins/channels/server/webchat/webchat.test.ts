import { randomUUID } from 'node:crypto';
import { connectSocket, createTestApp, nextEvent, type TestApp } from '@balcao/plugin-sdk/testing';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebchatMessage } from '../../shared/webchat';
import { channelRegistry } from '../drivers/registry';
import { ChannelsKit, type KitUser } from '../testing/kit';
import { prepareWebchatConfig, type WebchatChannelConfig } from './config';
import { liveRegistry } from './live';

/** The webchat channel end to end: the widget's public API over real HTTP, the driver, live events, limits. */
let t: TestApp;
let kit: ChannelsKit;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  kit = new ChannelsKit(t);
  baseUrl = await t.listen();
});
afterAll(async () => {
  await t?.close();
});

const ORIGIN = 'https://shop.example';

interface Widget {
  companyId: number;
  whatsappId: number;
  admin: KitUser;
  config: WebchatChannelConfig;
  key: string;
}

/** A company of its own with a CONNECTED webchat connection (and `queues` queues on it). */
async function widget(
  input: Record<string, unknown> = {},
  options: { queues?: number; greeting?: string } = {},
): Promise<Widget> {
  const { companyId, admin } = await kit.companyWithPlan();
  const queueIds: number[] = [];
  for (let index = 0; index < (options.queues ?? 0); index += 1) queueIds.push(await kit.queue(companyId, `Setor ${index + 1}`));
  const config = prepareWebchatConfig({ allowedOrigins: [ORIGIN], ...input }, null);
  const connectionId = await kit.connection(companyId, {
    status: 'CONNECTED',
    channelConfig: JSON.stringify(config),
    greetingMessage: options.greeting ?? '',
    queueIds,
  });
  return { companyId, whatsappId: connectionId, admin, config, key: config.widgetKey };
}

const api = (key: string, path: string) => `/api/webchat/${key}/${path}`;

async function session(w: Widget, payload: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const res = await t.inject({ method: 'POST', url: api(w.key, 'sessions'), headers: { origin: ORIGIN, ...headers }, payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json() as { sessionToken: string; visitor: { name: string | null; identified: boolean } };
}

function post(w: Widget, token: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) {
  return t.inject({
    method: 'POST',
    url: api(w.key, 'messages'),
    headers: { origin: ORIGIN, authorization: `Bearer ${token}`, ...headers },
    payload,
  });
}

function list(w: Widget, token: string, query = '') {
  return t.inject({
    method: 'GET',
    url: `${api(w.key, 'messages')}${query}`,
    headers: { origin: ORIGIN, authorization: `Bearer ${token}` },
  });
}

/** A file upload as the widget sends it. */
function upload(w: Widget, token: string, file: Buffer, fileName: string, mime: string) {
  const boundary = `----webchat${randomUUID()}`;
  const head = (name: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"`;
  const body = Buffer.concat([
    Buffer.from(`${head('clientId')}\r\n\r\n${randomUUID()}\r\n`),
    Buffer.from(`${head('file')}; filename="${fileName}"\r\nContent-Type: ${mime}\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.inject({
    method: 'POST',
    url: api(w.key, 'messages'),
    headers: { origin: ORIGIN, authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
}

/** An open event stream, its events parsed as they come. */
async function openEvents(url: string, w: Widget, token: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/webchat/${w.key}/events?sessionToken=${token}`, {
    headers: { origin: ORIGIN },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  const events: Array<{ event: string; data: unknown }> = [];
  const waiters = new Set<() => void>();
  void (async () => {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
          for (const waiter of waiters) waiter();
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    events,
    close: () => controller.abort(),
    async next<T = WebchatMessage>(event: string, match: (data: T) => boolean = () => true, timeoutMs = 8_000): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find((item) => item.event === event && match(item.data as T));
        if (found) return found.data as T;
        if (Date.now() > deadline) throw new Error(`no '${event}' event; got ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 100);
          waiters.add(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        waiters.clear();
      }
    },
  };
}

/** The visitor's ticket, accepted by the admin. */
async function acceptTicket(w: Widget, messageId: string): Promise<number> {
  const row = await kit.knex('messages').where({ id: messageId }).first('ticketId');
  const queueId = await kit.queue(w.companyId);
  const res = await t.inject({
    method: 'PUT',
    url: `/api/tickets/${row.ticketId}`,
    token: w.admin.token,
    payload: { status: 'open', userId: w.admin.id, queueId },
  });
  expect(res.statusCode, res.body).toBe(200);
  return row.ticketId;
}

async function agentReply(w: Widget, ticketId: number, body: string): Promise<number> {
  const res = await t.inject({ method: 'POST', url: `/api/messages/${ticketId}`, token: w.admin.token, payload: { body } });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().messages[0].id as number;
  // delivered: the inbox stored the channel's id (edits and deletes go to the channel only then)
  for (let tries = 0; tries < 100; tries += 1) {
    const row = await kit.knex('messages').where({ id }).first('sendStatus');
    if (row?.sendStatus === 'sent') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return id;
}

const identity = (secret: string, claims: Record<string, unknown>) => createSigner({ key: secret, algorithm: 'HS256' })(claims);
const inSeconds = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;

describe('config, origins and preflight', () => {
  it('answers the public config to an allowed origin, with CORS', async () => {
    const w = await widget({ title: 'Fale conosco', color: '#aa0000', prechat: { name: 'required', email: 'optional' } });
    const res = await t.inject({ method: 'GET', url: api(w.key, 'config'), headers: { origin: ORIGIN } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers.vary).toContain('Origin');
    expect(res.json()).toMatchObject({
      title: 'Fale conosco',
      color: '#AA0000',
      prechat: { name: 'required', email: 'optional', phone: 'off' },
      online: true,
      maxFileSize: 16 * 1024 * 1024,
    });
    expect(res.json().acceptedTypes).toContain('image/*');
    // nothing secret
    expect(res.body).not.toContain(w.config.identitySecret);
  });

  it('refuses other origins, unknown keys, and answers the preflight', async () => {
    const w = await widget();
    const refused = await t.inject({ method: 'GET', url: api(w.key, 'config'), headers: { origin: 'https://evil.example' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_WEBCHAT_ORIGIN_REFUSED');
    // readable by the refused page's widget, which then says why it can't work
    expect(refused.headers['access-control-allow-origin']).toBe('https://evil.example');
    const unknown = await t.inject({ method: 'GET', url: api(`wck_${'x'.repeat(32)}`, 'config'), headers: { origin: ORIGIN } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('ERR_WEBCHAT_NOT_FOUND');
    const preflight = await t.inject({ method: 'OPTIONS', url: api(w.key, 'messages'), headers: { origin: ORIGIN } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('authorization');
    // a preflight carries the query of the call it precedes ("load older")
    const pagePreflight = await t.inject({
      method: 'OPTIONS',
      url: `${api(w.key, 'messages')}?before=12&limit=30`,
      headers: { origin: ORIGIN },
    });
    expect(pagePreflight.statusCode).toBe(204);
    expect(pagePreflight.headers['access-control-allow-origin']).toBe(ORIGIN);
    const badPreflight = await t.inject({
      method: 'OPTIONS',
      url: api(w.key, 'messages'),
      headers: { origin: 'https://evil.example' },
    });
    expect(badPreflight.statusCode).toBe(403);
    // no allowed origins: any site
    const open = await widget({ allowedOrigins: [] });
    const any = await t.inject({ method: 'GET', url: api(open.key, 'config'), headers: { origin: 'https://any.example' } });
    expect(any.statusCode).toBe(200);
    expect(any.headers['access-control-allow-origin']).toBe('https://any.example');
  });

  it('validates and keeps the channel config; regenerates keys on demand', async () => {
    const first = prepareWebchatConfig({ allowedOrigins: ['https://Shop.Example:443/'] }, null);
    expect(first.allowedOrigins).toEqual(['https://shop.example']);
    expect(first.widgetKey).toMatch(/^wck_[A-Za-z0-9_-]{32}$/);
    expect(first.identitySecret.length).toBeGreaterThanOrEqual(32);
    const kept = prepareWebchatConfig({ title: 'x' }, first as unknown as Record<string, unknown>);
    expect(kept).toMatchObject({
      widgetKey: first.widgetKey,
      identitySecret: first.identitySecret,
      allowedOrigins: first.allowedOrigins,
      title: 'x',
    });
    const renewed = prepareWebchatConfig({ regenerate: ['identitySecret'] }, first as unknown as Record<string, unknown>);
    expect(renewed.widgetKey).toBe(first.widgetKey);
    expect(renewed.identitySecret).not.toBe(first.identitySecret);
    expect(() => prepareWebchatConfig({ allowedOrigins: ['shop.example/path'] }, null)).toThrow('ERR_WEBCHAT_CONFIG_INVALID');
    expect(() => prepareWebchatConfig({ color: 'red' }, null)).toThrow('ERR_WEBCHAT_CONFIG_INVALID');
    expect(() => prepareWebchatConfig({ prechat: { name: 'sometimes' } }, null)).toThrow('ERR_WEBCHAT_CONFIG_INVALID');
  });
});

describe('sessions and identities', () => {
  it('asks for the required pre-chat fields, validates them, and resumes a session', async () => {
    const w = await widget({ prechat: { name: 'required', email: 'optional', phone: 'off' } });
    const missing = await t.inject({ method: 'POST', url: api(w.key, 'sessions'), headers: { origin: ORIGIN }, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'ERR_WEBCHAT_PRECHAT_REQUIRED', details: [{ field: 'body.name' }] });
    const badEmail = await t.inject({
      method: 'POST',
      url: api(w.key, 'sessions'),
      headers: { origin: ORIGIN },
      payload: { name: 'Ana', email: 'nope' },
    });
    expect(badEmail.json().error).toBe('ERR_WEBCHAT_INVALID_EMAIL');
    const created = await t.inject({
      method: 'POST',
      url: api(w.key, 'sessions'),
      headers: { origin: ORIGIN },
      payload: { name: 'Ana', email: 'Ana@Shop.example' },
    });
    expect(created.statusCode).toBe(201);
    const { sessionToken, visitor } = created.json();
    expect(visitor).toEqual({ name: 'Ana', email: 'ana@shop.example', phone: null, identified: false });
    const resumed = await t.inject({
      method: 'POST',
      url: api(w.key, 'sessions'),
      headers: { origin: ORIGIN },
      payload: { sessionToken },
    });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toEqual({ sessionToken, visitor });
    // stored hashed
    expect(await kit.knex('webchatSessions').where({ tokenHash: sessionToken }).first()).toBeUndefined();
    // the visitor leaves (setUser(null)): that token is over, its stream told
    const leaving = await session(w, { name: 'Leo' });
    const stream = await openEvents(baseUrl, w, leaving.sessionToken);
    try {
      await stream.next('status');
      const ended = await t.inject({
        method: 'DELETE',
        url: api(w.key, 'sessions'),
        headers: { origin: ORIGIN, authorization: `Bearer ${leaving.sessionToken}` },
      });
      expect(ended.statusCode).toBe(204);
      await stream.next('ended');
      expect((await list(w, leaving.sessionToken)).statusCode).toBe(401);
      expect((await list(w, sessionToken)).statusCode).toBe(200);
    } finally {
      stream.close();
    }
    // a bad bearer token
    const bad = await list(w, `wcs_${'a'.repeat(43)}`);
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error).toBe('ERR_WEBCHAT_SESSION_INVALID');
  });

  it('makes one visitor of a site user on every device; refuses forged, expired and too-long identities', async () => {
    const w = await widget();
    const token = identity(w.config.identitySecret, {
      sub: 'user-42',
      name: 'Bia',
      email: 'bia@shop.example',
      exp: inSeconds(600),
    });
    const phone = await session(w, { identity: token });
    expect(phone.visitor).toMatchObject({ name: 'Bia', identified: true });
    const laptop = await session(w, { identity: token });
    expect(laptop.sessionToken).not.toBe(phone.sessionToken);
    const sent = await post(w, phone.sessionToken, { clientId: randomUUID(), body: 'from my phone' });
    expect(sent.statusCode, sent.body).toBe(201);
    const seen = await list(w, laptop.sessionToken);
    expect(seen.json().messages.map((m: WebchatMessage) => m.body)).toEqual(['from my phone']);
    const contact = await kit.knex('contacts').where({ companyId: w.companyId }).first('name', 'email');
    expect(contact).toMatchObject({ name: 'Bia', email: 'bia@shop.example' });

    const refuse = async (identityToken: string, code: string) => {
      const res = await t.inject({
        method: 'POST',
        url: api(w.key, 'sessions'),
        headers: { origin: ORIGIN },
        payload: { identity: identityToken },
      });
      expect(res.statusCode, identityToken).toBe(401);
      expect(res.json().error).toBe(code);
    };
    await refuse(
      identity('another-secret-another-secret-xx', { sub: 'user-42', exp: inSeconds(600) }),
      'ERR_WEBCHAT_IDENTITY_INVALID',
    );
    await refuse(identity(w.config.identitySecret, { sub: 'user-42', exp: inSeconds(-60) }), 'ERR_WEBCHAT_IDENTITY_EXPIRED');
    await refuse(
      identity(w.config.identitySecret, { sub: 'user-42', exp: inSeconds(25 * 3600) }),
      'ERR_WEBCHAT_IDENTITY_INVALID',
    );
    await refuse(identity(w.config.identitySecret, { sub: 'user-42' }), 'ERR_WEBCHAT_IDENTITY_INVALID');
    await refuse('not.a.token', 'ERR_WEBCHAT_IDENTITY_INVALID');
    // alg none is no signature
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'user-42', exp: inSeconds(60) })).toString('base64url')}.`;
    await refuse(unsigned, 'ERR_WEBCHAT_IDENTITY_INVALID');
  });
});

describe('messages and isolation', () => {
  it('stores a visitor message once per clientId and lists the conversation in pages', async () => {
    const w = await widget();
    const { sessionToken } = await session(w);
    const clientId = randomUUID();
    const first = await post(w, sessionToken, { clientId, body: 'Olá' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ clientId, author: 'visitor', body: 'Olá', authorName: null, isDeleted: false });
    const retry = await post(w, sessionToken, { clientId, body: 'Olá' });
    expect(retry.json().id).toBe(first.json().id);
    for (let index = 0; index < 3; index += 1) await post(w, sessionToken, { clientId: randomUUID(), body: `m${index}` });
    const page = await list(w, sessionToken, '?limit=2');
    expect(page.json().messages.map((m: WebchatMessage) => m.body)).toEqual(['m1', 'm2']);
    expect(page.json().hasMore).toBe(true);
    const older = await list(w, sessionToken, `?limit=2&before=${page.json().messages[0].id}`);
    expect(older.json()).toMatchObject({ hasMore: false });
    expect(older.json().messages.map((m: WebchatMessage) => m.body)).toEqual(['Olá', 'm0']);
    const tooLong = await post(w, sessionToken, { clientId: randomUUID(), body: 'x'.repeat(4_097) });
    expect(tooLong.statusCode).toBe(400);
    const empty = await post(w, sessionToken, { clientId: randomUUID(), body: '  ' });
    expect(empty.json().error).toBe('ERR_WEBCHAT_INVALID_MESSAGE');
  });

  it('never shows a visitor another visitor’s messages, private notes, or another company', async () => {
    const w = await widget();
    const a = await session(w);
    const b = await session(w);
    const sentA = await post(w, a.sessionToken, { clientId: randomUUID(), body: 'secret of A' });
    const sentB = await post(w, b.sessionToken, { clientId: randomUUID(), body: 'hello from B' });
    const ticketA = (await kit.knex('messages').where({ id: sentA.json().id }).first('ticketId')).ticketId;
    const ticketB = (await kit.knex('messages').where({ id: sentB.json().id }).first('ticketId')).ticketId;
    expect(ticketA).not.toBe(ticketB);
    // a private note on A's ticket
    await kit.knex('messages').insert({
      companyId: w.companyId,
      ticketId: ticketA,
      body: 'internal note',
      fromMe: true,
      isPrivate: true,
      sendStatus: 'sent',
    });
    const ofA = await list(w, a.sessionToken);
    expect(ofA.body).not.toContain('internal note');
    const ofB = await list(w, b.sessionToken);
    expect(ofB.json().messages.map((m: WebchatMessage) => m.body)).toEqual(['hello from B']);
    // B can't read before A's ids either: still only B's
    const probe = await list(w, b.sessionToken, `?before=${Number(sentA.json().id) + 1000}`);
    expect(probe.body).not.toContain('secret of A');
    // a reused clientId of A stays B's own message
    const clash = await post(w, b.sessionToken, { clientId: sentA.json().clientId, body: 'clash' });
    expect(clash.statusCode).toBe(201);
    expect((await kit.knex('messages').where({ id: clash.json().id }).first('ticketId')).ticketId).toBe(ticketB);
    // another company's key with this session: refused
    const other = await widget();
    const cross = await list(other, a.sessionToken);
    expect(cross.statusCode).toBe(401);
    const crossPost = await post(other, a.sessionToken, { clientId: randomUUID(), body: 'x' });
    expect(crossPost.statusCode).toBe(401);
    expect(await kit.knex('messages').where({ companyId: other.companyId }).count('* as n').first()).toMatchObject({ n: 0 });
  });

  it('accepts allowed files by content, refuses others and big ones', async () => {
    const w = await widget();
    const { sessionToken } = await session(w);
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const image = await upload(w, sessionToken, png, 'dot.png', 'image/png');
    expect(image.statusCode, image.body).toBe(201);
    expect(image.json()).toMatchObject({ mediaType: 'image', fileName: 'dot.png' });
    expect(image.json().mediaUrl).toMatch(/\/api\/media\//);
    const text = await upload(w, sessionToken, Buffer.from('a;b\n1;2\n'), 'list.csv', 'text/csv');
    expect(text.statusCode, text.body).toBe(201);
    const svg = await upload(
      w,
      sessionToken,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'x.svg',
      'image/svg+xml',
    );
    expect(svg.statusCode).toBe(415);
    expect(svg.json().error).toBe('ERR_WEBCHAT_TYPE_REFUSED');
    const disguised = await upload(w, sessionToken, Buffer.from('MZ\x90\x00\x03\x00\x00\x00binary'), 'photo.png', 'image/png');
    expect(disguised.statusCode).toBe(415);
    const big = Buffer.concat([png, Buffer.alloc(16 * 1024 * 1024)]);
    const tooBig = await upload(w, sessionToken, big, 'big.png', 'image/png');
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error).toBe('ERR_WEBCHAT_TOO_LARGE');
  });
});

describe('limits', () => {
  it('limits new sessions per IP per hour and messages per visitor per minute', async () => {
    const w = await widget({ newConversationsPerIpPerHour: 2, messagesPerMinute: 2 });
    const one = await session(w);
    await session(w);
    const third = await t.inject({ method: 'POST', url: api(w.key, 'sessions'), headers: { origin: ORIGIN }, payload: {} });
    expect(third.statusCode).toBe(429);
    expect(third.json().error).toBe('ERR_WEBCHAT_RATE_LIMITED');
    expect(third.json().retryAfter).toBeGreaterThan(3_000);
    // resuming is no new conversation
    const resumed = await t.inject({
      method: 'POST',
      url: api(w.key, 'sessions'),
      headers: { origin: ORIGIN },
      payload: { sessionToken: one.sessionToken },
    });
    expect(resumed.statusCode).toBe(200);
    expect((await post(w, one.sessionToken, { clientId: randomUUID(), body: '1' })).statusCode).toBe(201);
    expect((await post(w, one.sessionToken, { clientId: randomUUID(), body: '2' })).statusCode).toBe(201);
    const limited = await post(w, one.sessionToken, { clientId: randomUUID(), body: '3' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().retryAfter).toBeLessThanOrEqual(60);
  });
});

describe('live events', () => {
  it('delivers agent replies, edits, deletes and reactions to the visitor’s stream', async () => {
    const w = await widget();
    const { sessionToken } = await session(w, { name: 'Caio' });
    const stream = await openEvents(baseUrl, w, sessionToken);
    try {
      await stream.next('status', (data: { online: boolean }) => data.online === true);
      const sent = await post(w, sessionToken, { clientId: randomUUID(), body: 'preciso de ajuda' });
      const ticketId = await acceptTicket(w, sent.json().id);
      const replyId = await agentReply(w, ticketId, 'Claro, em que posso ajudar?');
      const reply = await stream.next('message', (m) => m.body === 'Claro, em que posso ajudar?');
      expect(reply).toMatchObject({ id: String(replyId), author: 'agent', clientId: null, ack: 2 });
      expect(reply.authorName).toBeTruthy();
      expect(JSON.stringify(reply)).not.toContain('@');

      const edited = await t.inject({
        method: 'POST',
        url: `/api/messages/edit/${replyId}`,
        token: w.admin.token,
        payload: { body: 'Claro!' },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(await stream.next('update', (m) => m.id === String(replyId) && m.isEdited)).toMatchObject({ body: 'Claro!' });

      const reacted = await t.inject({
        method: 'POST',
        url: `/api/messages/${sent.json().id}/reactions`,
        token: w.admin.token,
        payload: { type: '👍' },
      });
      expect(reacted.statusCode, reacted.body).toBe(200);
      const withReaction = await stream.next('update', (m) => m.id === sent.json().id && m.reactions.length > 0);
      expect(withReaction.reactions).toEqual([{ emoji: '👍', mine: false }]);

      const deleted = await t.inject({ method: 'DELETE', url: `/api/messages/${replyId}`, token: w.admin.token });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(await stream.next('update', (m) => m.id === String(replyId) && m.isDeleted)).toMatchObject({ body: '' });

      // the visitor reads: acks go to 5
      const read = await t.inject({
        method: 'POST',
        url: api(w.key, 'read'),
        headers: { origin: ORIGIN, authorization: `Bearer ${sessionToken}` },
        payload: { upToId: String(replyId) },
      });
      expect(read.statusCode).toBe(204);
      expect((await kit.knex('messages').where({ id: replyId }).first('ack')).ack).toBe(5);

      // agent typing reaches the visitor, with the agent's name only
      const typing = await t.inject({
        method: 'POST',
        url: `/api/webchat-typing/${ticketId}`,
        token: w.admin.token,
        payload: { typing: true },
      });
      expect(typing.statusCode).toBe(204);
      expect(await stream.next<{ typing: boolean; name: string }>('typing')).toMatchObject({ typing: true });
    } finally {
      stream.close();
    }
    // the closed stream leaves this process's registry
    const registry = liveRegistry(kit.ctx);
    for (let tries = 0; tries < 50 && registry.byConnection.has(w.whatsappId); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(registry.byConnection.has(w.whatsappId)).toBe(false);
  });

  it('refuses agent typing on a ticket the agent cannot see, as the inbox does (404), and tells the visitor nothing', async () => {
    const w = await widget();
    const { sessionToken } = await session(w, { name: 'Rita' });
    const sent = await post(w, sessionToken, { clientId: randomUUID(), body: 'oi' });
    const { ticketId } = await kit.knex('messages').where({ id: sent.json().id }).first('ticketId');
    // a queue-less waiting ticket: visible only with allTicket, which this agent lacks
    const agent = await kit.user(w.companyId, 'user');
    const seen = await t.inject({ method: 'GET', url: `/api/tickets/${ticketId}`, token: agent.token });
    expect(seen.statusCode).toBe(404);
    const typing = await t.inject({
      method: 'POST',
      url: `/api/webchat-typing/${ticketId}`,
      token: agent.token,
      payload: { typing: true },
    });
    expect(typing.statusCode).toBe(404);
    expect(typing.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    // one who sees it (allTicket) may
    await kit.knex('users').where({ id: agent.id }).update({ allTicket: 'enable' });
    const { email } = await kit.knex('users').where({ id: agent.id }).first('email');
    const again = await t.inject({
      method: 'POST',
      url: `/api/webchat-typing/${ticketId}`,
      token: (await t.login(email)).token,
      payload: { typing: true },
    });
    expect(again.statusCode, again.body).toBe(204);
  });

  it('tells the agents who have the ticket open that the visitor is typing', async () => {
    const w = await widget();
    const { sessionToken } = await session(w, { name: 'Rita' });
    const sent = await post(w, sessionToken, { clientId: randomUUID(), body: 'oi' });
    const ticketId = await acceptTicket(w, sent.json().id);
    const socket = await connectSocket(baseUrl, w.companyId, w.admin.token);
    try {
      socket.emit('joinChatBox', String(ticketId));
      const typing = async (value: boolean) => {
        const res = await t.inject({
          method: 'POST',
          url: api(w.key, 'typing'),
          headers: { origin: ORIGIN, authorization: `Bearer ${sessionToken}` },
          payload: { typing: value },
        });
        expect(res.statusCode).toBe(204);
      };
      // the join is asynchronous: repeat the notice until the room has the socket
      const event = `company-${w.companyId}-webchatTyping`;
      const seen = nextEvent<{ ticketId: number; typing: boolean; name: string }>(socket, event, () => true, 5_000);
      const repeat = setInterval(() => void typing(true), 200);
      try {
        expect(await seen).toEqual({ ticketId, typing: true, name: 'Rita' });
      } finally {
        clearInterval(repeat);
      }
    } finally {
      socket.close();
    }
  });

  it('sends the chatbot menu as bot messages to a new conversation', async () => {
    const w = await widget({}, { queues: 2, greeting: 'Bem-vindo! Escolha um setor:' });
    const { sessionToken } = await session(w);
    const stream = await openEvents(baseUrl, w, sessionToken);
    try {
      const sent = (await post(w, sessionToken, { clientId: randomUUID(), body: 'oi' })).json();
      // the visitor's own message reaches their streams too (their other tabs)
      const own = await stream.next('message', (m) => m.author === 'visitor');
      expect(own).toMatchObject({ id: sent.id, clientId: sent.clientId, body: 'oi' });
      const menu = await stream.next('message', (m) => m.author === 'bot');
      expect(menu.body).toContain('Bem-vindo');
      expect(menu.body).toContain('Setor 1');
      expect(menu.authorName).toBeNull();
      // the answer carries the stored time: the visitor's message sorts before the reply it caused
      const listed = await t.inject({
        method: 'GET',
        url: api(w.key, 'messages'),
        headers: { origin: ORIGIN, authorization: `Bearer ${sessionToken}` },
      });
      const stored = listed.json().messages.find((m: { id: string }) => m.id === sent.id);
      expect(stored.createdAt).toBe(sent.createdAt);
      expect(sent.createdAt < menu.createdAt).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('refuses messages while the connection is stopped and tells open streams; removal ends sessions', async () => {
    const w = await widget();
    const { sessionToken } = await session(w);
    const stream = await openEvents(baseUrl, w, sessionToken);
    try {
      await stream.next('status');
      const definition = channelRegistry(kit.ctx).get('webchat');
      if (!definition) throw new Error('webchat is not registered');
      const connection = {
        id: w.whatsappId,
        companyId: w.companyId,
        name: 'x',
        channel: 'webchat',
        status: 'CONNECTED' as const,
        channelConfig: {},
      };
      await kit
        .knex('whatsapps')
        .where({ id: w.whatsappId })
        .update({ status: await definition.stop(kit.ctx, connection) });
      expect(await stream.next<{ online: boolean }>('status', (data) => data.online === false)).toEqual({ online: false });
      const offline = await post(w, sessionToken, { clientId: randomUUID(), body: 'hello?' });
      expect(offline.statusCode).toBe(409);
      expect(offline.json().error).toBe('ERR_WEBCHAT_OFFLINE');
      const config = await t.inject({ method: 'GET', url: api(w.key, 'config'), headers: { origin: ORIGIN } });
      expect(config.json().online).toBe(false);

      await definition.remove?.(kit.ctx, connection);
      await stream.next('ended');
      expect((await list(w, sessionToken)).statusCode).toBe(401);
    } finally {
      stream.close();
    }
  });
});

// Last in the file: closing a second app bound to the same database leaves the first app's objection
// models on the closed app's knex (a global binding of the core), so nothing may use models after it.
describe('cross-process delivery', () => {
  it('delivers a reply made through another process (two apps on one database and Redis)', async () => {
    const other = await createTestApp({
      seed: false,
      config: { databaseUrl: t.config.databaseUrl, redisPrefix: t.config.redisPrefix },
    });
    try {
      const w = await widget();
      const { sessionToken } = await session(w);
      const otherUrl = await other.listen();
      const stream = await openEvents(otherUrl, w, sessionToken);
      try {
        await stream.next('status');
        const sent = await post(w, sessionToken, { clientId: randomUUID(), body: 'oi' });
        const ticketId = await acceptTicket(w, sent.json().id);
        await agentReply(w, ticketId, 'resposta de outro processo');
        expect(await stream.next('message', (m) => m.body === 'resposta de outro processo')).toMatchObject({ author: 'agent' });
      } finally {
        stream.close();
      }
    } finally {
      await other.balcao.close();
    }
  });
});
