import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_UNAVAILABLE_NOTE } from '../inbound/apply';
import { hubSignature, type StandInPhoneNumber } from '../testing/graph-stand-in';
import {
  companyWithPlan,
  connectSocket,
  type MetaTestApp,
  nextMessage,
  startMetaApp,
  whatsappDelivery,
  whatsappText,
} from '../testing/kit';

/**
 * The WhatsApp Cloud API channel (docs/meta.md) driven for real against the Graph stand-in: connecting
 * (token checked, sealed, never answered), the webhook (handshake, signature, bad input, idempotency),
 * every inbound kind, and outbound with Graph errors, retries, the 24-hour window and templates.
 */
let m: MetaTestApp;
let acme: number;
let admin: string;
let adminId: number;
let socket: Socket;
let phone: StandInPhoneNumber;
let whatsappId: number;

const call = async (method: string, path: string, token: string | null, body?: unknown) => {
  const response = await fetch(`${m.api}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: response.status, body: json as Record<string, unknown> };
};
const webhook = (payload: unknown) => m.graph.deliver(`${m.api}/meta/webhooks/whatsapp`, payload);
let sequence = 0;
const newNumber = () => {
  sequence += 1;
  return `5511${String(Date.now()).slice(-6)}${String(sequence).padStart(2, '0')}`;
};
const wamid = () => {
  sequence += 1;
  return `wamid.in${Date.now().toString(36)}${sequence}`;
};

beforeAll(async () => {
  m = await startMetaApp();
  acme = m.t.demo.companies.acme as number;
  const session = await m.t.login('admin@acme.test');
  admin = session.token;
  adminId = session.user.id;
  socket = await connectSocket(m.url, acme, admin);
  phone = m.graph.addPhoneNumber({ displayPhoneNumber: '+55 11 4000-1234' });
  m.graph.templates.set(phone.businessAccountId, [
    {
      name: 'retomada',
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'UTILITY',
      body: 'Olá {{1}}, seu pedido {{2}} está pronto.',
    },
    { name: 'rascunho', language: 'pt_BR', status: 'PENDING', category: 'UTILITY', body: 'Ainda não' },
  ]);
});
afterAll(async () => {
  socket?.close();
  await m?.close();
});

describe('connecting', () => {
  it('checks the token against the Graph, keeps it sealed, never answers it, and starts CONNECTED', async () => {
    const config = { phoneNumberId: phone.id, businessAccountId: phone.businessAccountId };
    const bad = await call('POST', '/whatsapp', admin, {
      name: 'Cloud',
      channel: 'whatsappapi',
      channelConfig: { ...config, token: 'EAAGwrong-token' },
    });
    expect(bad).toMatchObject({ status: 400, body: { error: 'ERR_META_TOKEN_INVALID' } });
    const missing = await call('POST', '/whatsapp', admin, {
      name: 'Cloud',
      channel: 'whatsappapi',
      channelConfig: { phoneNumberId: 'x' },
    });
    expect(missing).toMatchObject({ status: 400, body: { error: 'ERR_META_CONFIG_INVALID' } });

    const created = await call('POST', '/whatsapp', admin, {
      name: 'Cloud',
      channel: 'whatsappapi',
      channelConfig: { ...config, token: phone.token },
    });
    expect(created.status).toBe(201);
    whatsappId = created.body.id as number;
    expect(created.body.channelConfig).toEqual({
      ...config,
      displayPhoneNumber: '+55 11 4000-1234',
      verifiedName: 'Stand-in Business',
      hasToken: true,
    });
    expect(JSON.stringify(created.body)).not.toContain(phone.token);
    const row = await m.t.balcao.core.knex('whatsapps').where({ id: whatsappId }).first('channelConfig');
    expect(JSON.stringify(row.channelConfig)).not.toContain(phone.token);

    const started = await call('POST', `/whatsappsession/${whatsappId}`, admin);
    expect(started).toMatchObject({ status: 200, body: { status: 'CONNECTED', number: '551140001234' } });
    expect(m.graph.subscribedAccounts.has(phone.businessAccountId)).toBe(true);
    // saving without a token keeps the one stored
    const saved = await call('PUT', `/whatsapp/${whatsappId}`, admin, { channelConfig: config });
    expect(saved.status).toBe(200);

    // the Graph is asked before the company's row is locked: inbound writes of the company go on meanwhile
    let reached = () => {};
    const graphReached = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    m.graph.gate = async (method, path) => {
      if (method === 'GET' && path.endsWith(`/${phone.id}`)) {
        reached();
        await released;
      }
    };
    const saving = call('PUT', `/whatsapp/${whatsappId}`, admin, { channelConfig: { ...config, token: phone.token } });
    try {
      await graphReached;
      await m.t.balcao.core.knex.transaction((trx) => trx.raw('SELECT id FROM companies WHERE id = ? FOR UPDATE NOWAIT', [acme]));
    } finally {
      m.graph.gate = null;
      release();
    }
    expect((await saving).status).toBe(200);
  });

  it('unsubscribes the app from the business account when its connection is removed', async () => {
    const spare = m.graph.addPhoneNumber();
    const created = await call('POST', '/whatsapp', admin, {
      name: 'Spare',
      channel: 'whatsappapi',
      channelConfig: { phoneNumberId: spare.id, businessAccountId: spare.businessAccountId, token: spare.token },
    });
    expect((await call('POST', `/whatsappsession/${created.body.id}`, admin)).status).toBe(200);
    expect(m.graph.subscribedAccounts.has(spare.businessAccountId)).toBe(true);
    expect((await call('DELETE', `/whatsapp/${created.body.id}`, admin)).status).toBe(204);
    expect(m.graph.subscribedAccounts.has(spare.businessAccountId)).toBe(false);
  });

  it('refuses the number to another company, and the channel to a plan without useWhatsapp', async () => {
    const other = await companyWithPlan(m.t);
    const taken = await call('POST', '/whatsapp', other.token, {
      name: 'Taken',
      channel: 'whatsappapi',
      channelConfig: { phoneNumberId: phone.id, businessAccountId: phone.businessAccountId, token: phone.token },
    });
    expect(taken).toMatchObject({ status: 409, body: { error: 'ERR_META_ACCOUNT_IN_USE' } });
    const lite = await companyWithPlan(m.t, { useWhatsapp: false });
    const gated = await call('POST', '/whatsapp', lite.token, { name: 'Gated', channel: 'whatsappapi', channelConfig: {} });
    expect(gated).toMatchObject({ status: 403, body: { error: 'ERR_PLAN_FEATURE_DISABLED' } });
  });
});

describe('the webhook', () => {
  it('answers the verify-token handshake and refuses a wrong token', async () => {
    const query = (token: string) => `hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`;
    const ok = await fetch(`${m.api}/meta/webhooks/whatsapp?${query(m.graph.app.verifyToken)}`);
    expect([ok.status, await ok.text()]).toEqual([200, '1158201444']);
    const refused = await fetch(`${m.api}/meta/webhooks/whatsapp?${query('nope-nope-nope')}`);
    expect(refused.status).toBe(403);
  });

  it('refuses bad signatures, malformed JSON, unknown ids and 5 MB bodies, storing nothing, and keeps serving', async () => {
    const before = await m.t.balcao.core.knex('messages').count<Array<{ count: string }>>('id as count');
    const payload = whatsappDelivery(phone.id, { messages: [whatsappText(newNumber(), wamid(), 'forjada')] });
    expect((await m.graph.deliver(`${m.api}/meta/webhooks/whatsapp`, payload, 'not-the-app-secret')).status).toBe(401);
    const unsigned = await fetch(`${m.api}/meta/webhooks/whatsapp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    expect(unsigned.status).toBe(401);
    // unsigned junk is refused for its signature, never parsed nor checked against the schema
    for (const junk of ['{"object": [', '{"entry": 1}']) {
      const answer = await fetch(`${m.api}/meta/webhooks/whatsapp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: junk,
      });
      expect([answer.status, await answer.json()]).toEqual([401, { error: 'ERR_META_SIGNATURE_INVALID' }]);
    }
    const malformed = '{"object": "whatsapp_business_account", "entry": [';
    const broken = await fetch(`${m.api}/meta/webhooks/whatsapp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(m.graph.app.secret, malformed) },
      body: malformed,
    });
    expect(broken.status).toBe(400);
    const unknown = await webhook(whatsappDelivery('99999999999', { messages: [whatsappText(newNumber(), wamid(), 'ninguém')] }));
    // an id no connection is (one removed meanwhile) is dropped: a refusal would only make Meta retry it
    expect(unknown).toMatchObject({ status: 200, body: JSON.stringify({ received: 0 }) });
    const huge = JSON.stringify({ object: 'whatsapp_business_account', entry: [], pad: 'x'.repeat(5 * 1_048_576) });
    const tooLarge = await fetch(`${m.api}/meta/webhooks/whatsapp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(m.graph.app.secret, huge) },
      body: huge,
    });
    expect(tooLarge.status).toBe(413);
    const after = await m.t.balcao.core.knex('messages').count<Array<{ count: string }>>('id as count');
    expect(after).toEqual(before);
    const health = await fetch(
      `${m.api}/meta/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${m.graph.app.verifyToken}&hub.challenge=1`,
    );
    expect(health.status).toBe(200);
  });
});

describe('inbound', () => {
  it('stores a text once (a replayed delivery is a no-op) with the name the webhook gives', async () => {
    const from = newNumber();
    const id = wamid();
    const payload = whatsappDelivery(phone.id, {
      contacts: [{ wa_id: from, profile: { name: 'Joana Cloud' } }],
      messages: [whatsappText(from, id, 'Oi, vocês abrem sábado?')],
    });
    const arrived = nextMessage(
      socket,
      acme,
      (event) => event.action === 'create' && event.message.body === 'Oi, vocês abrem sábado?',
    );
    const answer = await webhook(payload);
    expect(answer).toMatchObject({ status: 200, body: JSON.stringify({ received: 1 }) });
    const event = await arrived;
    expect(event.message).toMatchObject({ fromMe: false, mediaType: 'chat' });
    // Meta redelivers: the message again with a new one after it (the same contact's events go in order,
    // so once the new one is on the socket the replay was applied)
    const next = nextMessage(socket, acme, (event) => event.action === 'create' && event.message.body === 'e domingo?');
    const replay = whatsappDelivery(phone.id, {
      contacts: [{ wa_id: from, profile: { name: 'Joana Cloud' } }],
      messages: [whatsappText(from, id, 'Oi, vocês abrem sábado?'), whatsappText(from, wamid(), 'e domingo?')],
    });
    expect((await webhook(replay)).status).toBe(200);
    await next;
    const stored = await m.t.balcao.core.knex('messages').where({ channelMessageId: id });
    expect(stored).toHaveLength(1);
    const contact = await m.t.balcao.core.knex('contacts').where({ id: stored[0].contactId }).first('name', 'number');
    expect(contact).toMatchObject({ name: 'Joana Cloud', number: from });
  });

  it('downloads media into storage by a job, quotes replies, applies reactions and receipts', async () => {
    const from = newNumber();
    const first = wamid();
    const textArrived = nextMessage(socket, acme, (event) => event.action === 'create' && event.message.body === 'segue a foto');
    await webhook(whatsappDelivery(phone.id, { messages: [whatsappText(from, first, 'segue a foto')] }));
    const original = (await textArrived).message;

    const mediaId = m.graph.addMedia(Buffer.from('\x89PNG\r\n\x1a\nfake-image-bytes'), 'image/png');
    const photo = wamid();
    const photoArrived = nextMessage(socket, acme, (event) => event.action === 'create' && event.message.body === 'a foto');
    await webhook(
      whatsappDelivery(phone.id, {
        messages: [
          {
            from,
            id: photo,
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: 'image',
            image: { id: mediaId, mime_type: 'image/png', caption: 'a foto' },
            context: { from, id: first },
          },
        ],
      }),
    );
    const stored = (await photoArrived).message;
    expect(stored).toMatchObject({ mediaType: 'image', quotedMsgId: original.id });
    expect(stored.mediaUrl).toBeTruthy();
    const file = await fetch(new URL(stored.mediaUrl as string, m.url));
    expect(Buffer.from(await file.arrayBuffer()).toString()).toContain('fake-image-bytes');

    const reacted = nextMessage(socket, acme, (event) => event.action === 'update' && event.message.id === original.id);
    await webhook(
      whatsappDelivery(phone.id, {
        messages: [{ from, id: wamid(), timestamp: '1', type: 'reaction', reaction: { message_id: first, emoji: '👍' } }],
      }),
    );
    await reacted;
    const row = await m.t.balcao.core.knex('messages').where({ id: original.id }).first('reactions');
    expect(row.reactions).toEqual([expect.objectContaining({ type: '👍' })]);
  });

  it('stores a message whose file the Graph refuses with its caption and a note, not failing the job', async () => {
    const from = newNumber();
    const id = wamid();
    const arrived = nextMessage(socket, acme, (event) => event.action === 'create' && event.message.body.startsWith('o boleto'));
    await webhook(
      whatsappDelivery(phone.id, {
        messages: [
          {
            from,
            id,
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: 'document',
            // a media id the Graph does not know (expired): 400 on every try
            document: { id: '9000000000expired', mime_type: 'application/pdf', caption: 'o boleto' },
          },
        ],
      }),
    );
    const stored = (await arrived).message;
    expect(stored).toMatchObject({ body: `o boleto\n\n${MEDIA_UNAVAILABLE_NOTE}`, mediaUrl: null, fromMe: false });
  });
});

describe('outbound', () => {
  let ticketId: number;
  let contact: string;

  beforeAll(async () => {
    contact = newNumber();
    const arrived = nextMessage(
      socket,
      acme,
      (event) => event.action === 'create' && event.message.body === 'quero falar com alguém',
    );
    await webhook(whatsappDelivery(phone.id, { messages: [whatsappText(contact, wamid(), 'quero falar com alguém')] }));
    ticketId = (await arrived).message.ticketId;
    const [queue] = await m.t.balcao.core
      .knex('queues')
      .insert({ companyId: acme, name: 'Cloud queue', color: '#1677FF' })
      .returning('id');
    const accepted = await call('PUT', `/tickets/${ticketId}`, admin, { status: 'open', userId: adminId, queueId: queue.id });
    expect(accepted).toMatchObject({ status: 200 });
  });

  it('sends a reply through the Graph and takes its receipts as acks', async () => {
    expect((await call('GET', `/meta/tickets/${ticketId}/window`, admin)).body).toMatchObject({
      windowed: true,
      open: true,
      whatsappId,
    });
    const sentToGraph = new Promise<{ id: string; body: Record<string, unknown> }>((resolve) => {
      m.graph.onSend = (sent) => resolve(sent);
    });
    const recorded = nextMessage(socket, acme, (event) => event.action === 'update' && event.message.sendStatus === 'sent');
    const answered = await call('POST', `/messages/${ticketId}`, admin, { body: 'Olá! Abrimos sim.' });
    expect(answered.status).toBe(201);
    const sent = await sentToGraph;
    expect(sent.body).toMatchObject({
      messaging_product: 'whatsapp',
      to: contact,
      type: 'text',
      text: { body: 'Olá! Abrimos sim.' },
    });
    const messageId = ((answered.body.messages as Array<{ id: number }>)[0] as { id: number }).id;
    // Meta's receipts name the id its send answered: the inbox knows it once the delivery is recorded
    expect((await recorded).message.id).toBe(messageId);
    const read = nextMessage(
      socket,
      acme,
      (event) => event.action === 'update' && event.message.id === messageId && event.message.ack === 3,
    );
    await webhook(
      whatsappDelivery(phone.id, { statuses: [{ id: sent.id, status: 'read', timestamp: '1', recipient_id: contact }] }),
    );
    await read;
  });

  it('applies a receipt that arrives before the send answered (kept pending, then claimed)', async () => {
    const knex = m.t.balcao.core.knex;
    // Meta's "delivered" reaches our webhook while the send's answer is still on its way
    m.graph.beforeAnswer = async (sent) => {
      const status = { id: sent.id, status: 'delivered', timestamp: '1', recipient_id: contact };
      expect((await webhook(whatsappDelivery(phone.id, { statuses: [status] }))).status).toBe(200);
      await expect
        .poll(() => knex('metaPendingReceipts').where({ channelMessageId: sent.id }).first('id'), { timeout: 10_000 })
        .toBeDefined();
    };
    const answered = await call('POST', `/messages/${ticketId}`, admin, { body: 'recibo adiantado' });
    const messageId = ((answered.body.messages as Array<{ id: number }>)[0] as { id: number }).id;
    try {
      await nextMessage(socket, acme, (event) => event.message.id === messageId && event.message.ack === 2, 15_000);
    } finally {
      m.graph.beforeAnswer = null;
    }
    const sent = m.graph.sent.find((item) => (item.body.text as { body?: string } | undefined)?.body === 'recibo adiantado');
    expect(sent?.body.biz_opaque_callback_data).toBe(`balcao:${messageId}`);
    const pending = async () => (await knex('metaPendingReceipts').where({ channelMessageId: sent?.id }).select('id')).length;
    await expect.poll(pending).toBe(0);
  });

  it('sends a message once when its delivery is retried after a crash between the Graph and our record', async () => {
    const knex = m.t.balcao.core.knex;
    const sendOne = async (body: string) => {
      const recorded = nextMessage(socket, acme, (event) => event.message.body === body && event.message.sendStatus === 'sent');
      await call('POST', `/messages/${ticketId}`, admin, { body });
      return (await recorded).message.id;
    };
    const sentCount = (body: string) =>
      m.graph.sent.filter((item) => (item.body.text as { body?: string } | undefined)?.body === body).length;
    /** The process died after the Graph took the message and before anything recorded its id. */
    const crash = async (messageId: number) => {
      await knex('messages').where({ id: messageId }).update({ channelMessageId: null, sendStatus: 'failed', ack: 0 });
      await knex('metaSendAttempts').where({ messageId }).update({ channelMessageId: null });
    };

    // the Graph's status carries our message id back: the retry answers the Graph's id instead of sending
    const first = await sendOne('enviada uma vez');
    const graphId = m.graph.sent.find(
      (item) => (item.body.text as { body?: string } | undefined)?.body === 'enviada uma vez',
    )?.id;
    await crash(first);
    const status = {
      id: graphId,
      status: 'sent',
      timestamp: '1',
      recipient_id: contact,
      biz_opaque_callback_data: `balcao:${first}`,
    };
    expect((await webhook(whatsappDelivery(phone.id, { statuses: [status] }))).status).toBe(200);
    await expect
      .poll(() => knex('metaSendAttempts').where({ messageId: first }).first('channelMessageId'))
      .toEqual({ channelMessageId: graphId });
    const reconciled = nextMessage(socket, acme, (event) => event.message.id === first && event.message.sendStatus === 'sent');
    expect((await call('POST', `/messages/${first}/retry`, admin)).status).toBe(200);
    await reconciled;
    expect(await knex('messages').where({ id: first }).first('channelMessageId')).toEqual({ channelMessageId: graphId });
    expect(sentCount('enviada uma vez')).toBe(1);

    // no word from the Graph yet: the retry doesn't send (it may have the message) until the wait is over
    const second = await sendOne('sem notícia');
    await crash(second);
    const held = nextMessage(
      socket,
      acme,
      (event) => event.message.id === second && event.message.sendError === 'ERR_META_UNAVAILABLE',
    );
    await call('POST', `/messages/${second}/retry`, admin);
    await held;
    expect(sentCount('sem notícia')).toBe(1);
    await knex('metaSendAttempts')
      .where({ messageId: second })
      .update({ startedAt: new Date(Date.now() - 3 * 60_000) });
    const resent = nextMessage(socket, acme, (event) => event.message.id === second && event.message.sendStatus === 'sent');
    await call('POST', `/messages/${second}/retry`, admin);
    await resent;
    expect(sentCount('sem notícia')).toBe(2);
  });

  it('marks a refused message failed with why, and retries a rate-limited one by a job until it goes', async () => {
    m.graph.sendFailures.push({ status: 400, code: 131026, message: 'Message undeliverable' });
    const failedEvent = nextMessage(socket, acme, (event) => event.action === 'update' && event.message.sendStatus === 'failed');
    await call('POST', `/messages/${ticketId}`, admin, { body: 'esta não chega' });
    expect((await failedEvent).message.sendError).toBe('ERR_META_SEND_REFUSED');

    m.graph.sendFailures.push({ status: 429, code: 130429, message: 'Rate limit hit' });
    const limited = nextMessage(
      socket,
      acme,
      (event) => event.action === 'update' && event.message.sendError === 'ERR_META_RATE_LIMITED',
    );
    const answered = await call('POST', `/messages/${ticketId}`, admin, { body: 'esta chega depois' });
    const messageId = ((answered.body.messages as Array<{ id: number }>)[0] as { id: number }).id;
    await limited;
    await nextMessage(
      socket,
      acme,
      (event) => event.action === 'update' && event.message.id === messageId && event.message.sendStatus === 'sent',
    );
    expect(
      m.graph.sent.filter((sent) => (sent.body.text as { body?: string } | undefined)?.body === 'esta chega depois'),
    ).toHaveLength(1);
  });

  it('refuses free text once the 24-hour window closed, and sends an approved template instead', async () => {
    await m.t.balcao.core
      .knex('metaWindows')
      .where({ whatsappId, identifier: contact })
      .update({ lastInboundAt: new Date(Date.now() - 25 * 3_600_000) });
    const closed = nextMessage(
      socket,
      acme,
      (event) => event.action === 'update' && event.message.sendError === 'ERR_META_WINDOW_CLOSED',
    );
    await call('POST', `/messages/${ticketId}`, admin, { body: 'fora da janela' });
    await closed;
    const window = await call('GET', `/meta/tickets/${ticketId}/window`, admin);
    expect(window).toMatchObject({ status: 200, body: { windowed: true, open: false, whatsappId } });
    expect(new Date(window.body.closesAt as string).getTime()).toBeLessThan(Date.now());
    expect((await call('GET', '/meta/tickets/2147483647/window', admin)).body).toEqual({ error: 'ERR_NO_TICKET_FOUND' });

    const listed = await call('GET', `/meta/whatsappapi/${whatsappId}/templates`, admin);
    expect(listed.body).toEqual({
      templates: [
        {
          name: 'retomada',
          language: 'pt_BR',
          category: 'UTILITY',
          body: 'Olá {{1}}, seu pedido {{2}} está pronto.',
          variables: 2,
        },
      ],
    });
    const wrong = await call('POST', `/meta/whatsappapi/${whatsappId}/templates/send`, admin, {
      ticketId,
      name: 'retomada',
      language: 'pt_BR',
      variables: ['Ana'],
    });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'ERR_META_TEMPLATE_INVALID' } });
    const sentToGraph = new Promise<{ body: Record<string, unknown> }>((resolve) => {
      m.graph.onSend = (sent) => resolve(sent);
    });
    const sentEvent = nextMessage(
      socket,
      acme,
      (event) =>
        event.action === 'update' &&
        event.message.body === 'Olá Ana, seu pedido 42 está pronto.' &&
        event.message.sendStatus === 'sent',
    );
    const sent = await call('POST', `/meta/whatsappapi/${whatsappId}/templates/send`, admin, {
      ticketId,
      name: 'retomada',
      language: 'pt_BR',
      variables: ['Ana', '42'],
    });
    expect(sent.status).toBe(200);
    expect((await sentToGraph).body).toMatchObject({
      type: 'template',
      template: {
        name: 'retomada',
        language: { code: 'pt_BR' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ana' },
              { type: 'text', text: '42' },
            ],
          },
        ],
      },
    });
    await sentEvent;
    m.graph.onSend = null;

    // the choice is that message's only: the same text typed later is free-form (and the window is closed)
    const again = nextMessage(
      socket,
      acme,
      (event) =>
        event.action === 'update' &&
        event.message.body === 'Olá Ana, seu pedido 42 está pronto.' &&
        event.message.sendError === 'ERR_META_WINDOW_CLOSED',
    );
    await call('POST', `/messages/${ticketId}`, admin, { body: 'Olá Ana, seu pedido 42 está pronto.' });
    await again;

    // a template goes out only on the ticket's own connection
    const other = m.graph.addPhoneNumber();
    m.graph.templates.set(other.businessAccountId, [
      {
        name: 'retomada',
        language: 'pt_BR',
        status: 'APPROVED',
        category: 'UTILITY',
        body: 'Olá {{1}}, seu pedido {{2}} está pronto.',
      },
    ]);
    const created = await call('POST', '/whatsapp', admin, {
      name: 'Other cloud',
      channel: 'whatsappapi',
      channelConfig: { phoneNumberId: other.id, businessAccountId: other.businessAccountId, token: other.token },
    });
    expect((await call('POST', `/whatsappsession/${created.body.id}`, admin)).status).toBe(200);
    const elsewhere = await call('POST', `/meta/whatsappapi/${created.body.id}/templates/send`, admin, {
      ticketId,
      name: 'retomada',
      language: 'pt_BR',
      variables: ['Ana', '42'],
    });
    expect(elsewhere).toMatchObject({ status: 404, body: { error: 'ERR_NO_TICKET_FOUND' } });
  });
});
