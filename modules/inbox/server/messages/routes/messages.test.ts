import { runInTenant } from '@balcao/plugin-sdk/server';
import { connectSocket, createTestApp, nextEvent, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES_PAGE_SIZE, type Message, type Ticket } from '../../../shared/types';
import { createFixtureDriver, type FixtureDriver, inboxServiceOf, registerFixtureDriver } from '../../testing/fixture-driver';
import { deliverMessage } from '../deliver-message';
import { pageReadStats } from '../serializer';
import { type KitUser, MessageKit, SAMPLES, type SendAnswer } from '../testing/message-kit';

/** docs/inbox-api.md "Messages": lists, sends, delivery, edit, delete, reactions, forward, counts, media. */
let t: TestApp;
let kit: MessageKit;
let driver: FixtureDriver;
let unregister: () => void;
let acme: number;
let lite: number;
let agent: KitUser;
let other: KitUser;
let admin: KitUser;
let liteAdmin: KitUser;
let queue: number;

beforeAll(async () => {
  t = await createTestApp();
  kit = new MessageKit(t);
  acme = t.demo.companies.acme;
  lite = t.demo.companies.lite;
  queue = await kit.queue(acme);
  agent = await kit.user(acme, { queueIds: [queue], name: 'Ana Agente' });
  other = await kit.user(acme, { queueIds: [queue] });
  admin = await kit.user(acme, { profile: 'admin' });
  liteAdmin = await kit.user(lite, { profile: 'admin' });
  ({ driver, unregister } = registerFixtureDriver(t));
});
afterAll(async () => {
  await t?.close();
});
afterEach(async () => {
  driver.reset();
  await kit.ctx.settings.set(acme, 'enableLGPD', 'disabled');
  await kit.ctx.settings.set(acme, 'lgpdDeleteMessage', 'disabled');
});

type Page = { messages: Message[]; ticket: Ticket; count: number; hasMore: boolean };
const agentTicket = (fields: Parameters<MessageKit['ticket']>[1] = {}) =>
  kit.ticket(acme, { status: 'open', userId: agent.id, queueId: queue, ...fields });
const send = (user: KitUser, ticketId: number, payload: Record<string, unknown>) =>
  kit.call<SendAnswer>(user, 'POST', `/messages/${ticketId}`, payload);
const sendOne = async (user: KitUser, ticketId: number, payload: Record<string, unknown>) => {
  const response = await send(user, ticketId, payload);
  expect(response.status).toBe(201);
  return response.body.messages[0] as Message;
};

describe('GET /messages/:ticketUuid', () => {
  it('pages 30 at a time, newest page first, each page chronological', async () => {
    const ticket = await agentTicket();
    const ids = await kit.messages(acme, ticket.id, 65);
    const page1 = await kit.call<Page>(agent, 'GET', `/messages/${ticket.uuid}`);
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ count: 65, hasMore: true, ticket: { id: ticket.id, uuid: ticket.uuid } });
    expect(page1.body.messages.map((m) => m.id)).toEqual(ids.slice(35));
    const page2 = await kit.call<Page>(agent, 'GET', `/messages/${ticket.uuid}?pageNumber=2`);
    expect(page2.body.messages.map((m) => m.id)).toEqual(ids.slice(5, 35));
    expect(page2.body.hasMore).toBe(true);
    const page3 = await kit.call<Page>(agent, 'GET', `/messages/${ticket.uuid}?pageNumber=3`);
    expect(page3.body.messages.map((m) => m.id)).toEqual(ids.slice(0, 5));
    expect(page3.body.hasMore).toBe(false);
    expect(page1.body.messages).toHaveLength(MESSAGES_PAGE_SIZE);
    const [first] = page3.body.messages;
    expect(first).toMatchObject({ body: 'message 1', mediaUrl: null, quotedMsg: null, reactions: [], sendStatus: 'sent' });
  });

  it('answers concurrent reads of many tickets, of two companies, each with its own page (read together)', async () => {
    const acmeTickets = await Promise.all([1, 2, 3, 4, 5, 6].map(() => agentTicket()));
    const liteTickets = await Promise.all([1, 2, 3].map(() => kit.ticket(lite, { status: 'open', userId: liteAdmin.id })));
    const seeded = new Map<number, number[]>();
    for (const [index, ticket] of acmeTickets.entries()) seeded.set(ticket.id, await kit.messages(acme, ticket.id, 2 + index));
    for (const [index, ticket] of liteTickets.entries()) seeded.set(ticket.id, await kit.messages(lite, ticket.id, 9 + index));
    const before = pageReadStats(kit.knex);
    const reads = [
      ...acmeTickets.map((ticket) => ({ user: agent, ticket })),
      ...liteTickets.map((ticket) => ({ user: liteAdmin, ticket })),
      // a uuid of the other company, read in the same burst: not found there
      { user: agent, ticket: liteTickets[0] as (typeof liteTickets)[number] },
    ];
    const pages = await Promise.all(reads.map(({ user, ticket }) => kit.call<Page>(user, 'GET', `/messages/${ticket.uuid}`)));
    for (const [index, { ticket }] of reads.entries()) {
      const page = pages[index] as { status: number; body: Page };
      if (index === reads.length - 1) {
        expect(page.status).toBe(404);
        continue;
      }
      expect(page.status).toBe(200);
      expect(page.body.ticket.id).toBe(ticket.id);
      expect(page.body.messages.map((message) => message.id)).toEqual(seeded.get(ticket.id));
    }
    const after = pageReadStats(kit.knex);
    expect(after.writes - before.writes).toBe(reads.length);
    expect(after.statements - before.statements).toBeLessThan(reads.length);
  });

  it('answers 404 for a ticket the user may not see, an unknown uuid and another company', async () => {
    const elsewhere = await kit.ticket(acme, { status: 'open', userId: admin.id, queueId: queue });
    expect(await kit.call(agent, 'GET', `/messages/${elsewhere.uuid}`)).toEqual({
      status: 404,
      body: { error: 'ERR_NO_TICKET_FOUND' },
    });
    expect((await kit.call(agent, 'GET', '/messages/123e4567-e89b-42d3-a456-426614174000')).status).toBe(404);
    expect((await kit.call(liteAdmin, 'GET', `/messages/${elsewhere.uuid}`)).status).toBe(404);
    expect((await kit.call(admin, 'GET', `/messages/${elsewhere.uuid}`)).status).toBe(200);
  });

  it('marks read only when the assigned user reads the first page of an open ticket', async () => {
    const ticket = await agentTicket({ unreadMessages: 3 });
    await kit.messages(acme, ticket.id, 2, { read: true, channelIds: true, start: new Date(Date.now() - 60_000) });
    await kit.messages(acme, ticket.id, 3, { read: false, channelIds: true });
    const unreadIds = (await kit.knex('messages').where({ ticketId: ticket.id, read: false }).select('channelMessageId'))
      .map((row: { channelMessageId: string }) => row.channelMessageId)
      .sort();

    await kit.call(admin, 'GET', `/messages/${ticket.uuid}`);
    await kit.call(agent, 'GET', `/messages/${ticket.uuid}?pageNumber=2`);
    expect((await kit.ticketRow(ticket.id)).unreadMessages).toBe(3);
    expect(driver.read).toEqual([]);

    const page = await kit.call<Page>(agent, 'GET', `/messages/${ticket.uuid}`);
    expect(page.body.ticket.unreadMessages).toBe(0);
    expect((await kit.ticketRow(ticket.id)).unreadMessages).toBe(0);
    expect(await kit.knex('messages').where({ ticketId: ticket.id, read: false })).toHaveLength(0);
    expect(driver.read).toHaveLength(1);
    expect([...(driver.read[0]?.channelMessageIds ?? [])].sort()).toEqual(unreadIds);
  });

  it('reads the waiting messages when an agent accepts the ticket, and tells the channel', async () => {
    const ticket = await agentTicket({ status: 'pending', userId: null, queueId: queue, unreadMessages: 2 });
    await kit.messages(acme, ticket.id, 2, { read: false, channelIds: true });
    const accepted = await kit.call(agent, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: agent.id });
    expect(accepted.status).toBe(200);
    expect((await kit.ticketRow(ticket.id)).unreadMessages).toBe(0);
    expect(await kit.knex('messages').where({ ticketId: ticket.id, read: false })).toHaveLength(0);
    expect(driver.read).toHaveLength(1);
    expect(driver.read[0]?.channelMessageIds).toHaveLength(2);
  });

  it('never marks a pending ticket read, even for its user', async () => {
    const ticket = await agentTicket({ status: 'pending', unreadMessages: 2 });
    await kit.messages(acme, ticket.id, 2, { read: false });
    await kit.call(agent, 'GET', `/messages/${ticket.uuid}`);
    expect((await kit.ticketRow(ticket.id)).unreadMessages).toBe(2);
  });

  it('shows deleted messages marked, and drops them when LGPD hides deleted messages', async () => {
    const ticket = await agentTicket();
    await kit.messages(acme, ticket.id, 3);
    const [deleted] = await kit.messages(acme, ticket.id, 1, { isDeleted: true, start: new Date() });
    const shown = await kit.call<Page>(agent, 'GET', `/messages/${ticket.uuid}`);
    expect(shown.body.count).toBe(4);
    expect(shown.body.messages.find((m) => m.id === deleted)).toMatchObject({ isDeleted: true, body: 'message 1' });

    await kit.ctx.settings.set(acme, 'enableLGPD', 'enabled');
    const oneSetting = await kit.call<Page>(agent, 'GET', `/messages/${ticket.uuid}`);
    expect(oneSetting.body.count).toBe(4);
    await kit.ctx.settings.set(acme, 'lgpdDeleteMessage', 'enabled');
    const hidden = await kit.call<Page>(agent, 'GET', `/messages/${ticket.uuid}`);
    expect(hidden.body.count).toBe(3);
    expect(hidden.body.messages.map((m) => m.id)).not.toContain(deleted);
  });
});

describe('POST /messages/:ticketId (JSON)', () => {
  it('stores pending, delivers through the driver, records the channel id and ack, updates the ticket', async () => {
    const ticket = await agentTicket();
    const message = await sendOne(agent, ticket.id, { body: 'Olá, tudo bem?' });
    expect(message).toMatchObject({
      body: 'Olá, tudo bem?',
      fromMe: true,
      ack: 0,
      sendStatus: 'pending',
      userId: agent.id,
      ticketId: ticket.id,
      mediaType: 'chat',
    });
    expect(await kit.ticketRow(ticket.id)).toMatchObject({ lastMessage: 'Olá, tudo bem?' });
    const row = await kit.settled(message.id);
    expect(row).toMatchObject({ sendStatus: 'sent', ack: 1, sendError: null });
    const sent = driver.sent.find((record) => record.message.messageId === message.id);
    expect(sent?.channelMessageId).toBe(row.channelMessageId);
    expect(sent?.target).toMatchObject({ companyId: acme, channel: 'whatsapp', ticket: { id: ticket.id, uuid: ticket.uuid } });
    expect(sent?.message).toMatchObject({ body: 'Olá, tudo bem?', mediaType: 'chat', quoted: null, vCard: null });
  });

  it('signs, quotes a message of the same ticket and sends a contact card', async () => {
    const ticket = await agentTicket();
    const [quotedId] = await kit.messages(acme, ticket.id, 1, { channelIds: true });
    const signed = await sendOne(agent, ticket.id, { body: 'Com assinatura', signMessage: true, quotedMsg: quotedId });
    expect(signed.body).toBe('*Ana Agente:*\nCom assinatura');
    expect(signed.quotedMsg).toMatchObject({ id: quotedId, body: 'message 1' });
    await kit.settled(signed.id);
    const quotedRow = await kit.messageRow(quotedId as number);
    expect(driver.sent.at(-1)?.message.quoted).toEqual({
      channelMessageId: quotedRow.channelMessageId,
      fromMe: false,
      body: 'message 1',
    });

    const card = await sendOne(agent, ticket.id, { body: null, vCard: { name: 'Bruno', number: '5511999998888' } });
    expect(card.mediaType).toBe('contactMessage');
    expect(card.body).toContain('BEGIN:VCARD');
    expect(card.body).toContain('TEL;type=CELL;waid=5511999998888:+5511999998888');

    const elsewhere = await agentTicket();
    const [foreign] = await kit.messages(acme, elsewhere.id, 1);
    const refused = await send(agent, ticket.id, { body: 'x', quotedMsg: foreign });
    expect(refused).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });

  it('refuses empty text and tickets that are not open', async () => {
    const ticket = await agentTicket();
    for (const body of ['', '   \n\t ']) {
      expect(await send(agent, ticket.id, { body })).toEqual({ status: 400, body: { error: 'ERR_EMPTY_MESSAGE' } });
    }
    for (const status of ['pending', 'closed'] as const) {
      const closed = await agentTicket({ status });
      expect(await send(agent, closed.id, { body: 'oi' })).toEqual({ status: 400, body: { error: 'ERR_TICKET_NOT_OPEN' } });
    }
    const group = await agentTicket({ status: 'group', isGroup: true });
    // its delivery is awaited: a driver call landing in the next test would be counted there
    await kit.settled((await sendOne(agent, group.id, { body: 'oi grupo' })).id);
    const invisible = await kit.ticket(acme, { status: 'open', userId: admin.id });
    expect((await send(agent, invisible.id, { body: 'oi' })).status).toBe(404);
  });

  it('never hands a private message to a driver', async () => {
    const ticket = await agentTicket();
    const note = await sendOne(agent, ticket.id, { body: 'só para a equipe', isPrivate: true });
    expect(note).toMatchObject({ isPrivate: true, sendStatus: 'sent', ack: 0 });
    const after = await sendOne(agent, ticket.id, { body: 'para o contato' });
    await kit.settled(after.id);
    expect(driver.sent.map((record) => record.message.messageId)).toEqual([after.id]);
    expect(await kit.messageRow(note.id)).toMatchObject({ sendStatus: 'sent', channelMessageId: null });
  });

  it("publishes message.sent for an agent's and the product's messages, never for a private note", async () => {
    const ticket = await agentTicket();
    const published: Array<{ messageId: number; userId: number | null; automation: string | null; ticket: unknown }> = [];
    const off = kit.ctx.events.on('message.sent', (payload) => {
      if (payload.ticketId === ticket.id) published.push(payload);
    });
    try {
      const note = await sendOne(agent, ticket.id, { body: 'nota', isPrivate: true });
      const reply = await sendOne(agent, ticket.id, { body: 'resposta' });
      const product = await runInTenant({ companyId: acme }, () =>
        kit.ctx.services.use('inbox').send({ ticketId: ticket.id, body: 'lembrete', automation: 'inactivity' }),
      );
      expect(published.map((event) => event.messageId)).toEqual([reply.id, product.messageId]);
      expect(published.map((event) => event.messageId)).not.toContain(note.id);
      expect(published[0]).toMatchObject({ userId: agent.id, automation: null, ticket: { status: 'open', isGroup: false } });
      expect(published[1]).toMatchObject({ userId: null, automation: 'inactivity' });
      expect((await kit.messageRow(product.messageId)).dataJson).toEqual({ automation: 'inactivity' });
      // delivered before the next test counts the driver's sends
      await kit.settled(reply.id);
      await kit.settled(product.messageId);
    } finally {
      off();
    }
  });

  it('keeps a driver failure visible with its code, and a retry delivers it', async () => {
    const ticket = await agentTicket();
    driver.failNext(1);
    const message = await sendOne(agent, ticket.id, { body: 'vai falhar' });
    expect(await kit.settled(message.id)).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG' });
    const page = await kit.call<Page>(agent, 'GET', `/messages/${ticket.uuid}`);
    expect(page.body.messages.at(-1)).toMatchObject({ id: message.id, sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG' });

    const retried = await kit.call<Message>(agent, 'POST', `/messages/${message.id}/retry`);
    expect(retried).toMatchObject({ status: 200, body: { sendStatus: 'pending', sendError: null } });
    expect(await kit.settled(message.id)).toMatchObject({ sendStatus: 'sent', ack: 1 });
    expect(driver.sent).toHaveLength(1);
    // sent: not retryable, and the job does not send it twice
    expect(await kit.call(agent, 'POST', `/messages/${message.id}/retry`)).toEqual({
      status: 400,
      body: { error: 'ERR_MESSAGE_NOT_RETRYABLE' },
    });
    await runInTenant({ companyId: acme }, () => deliverMessage(kit.ctx, acme, message.id));
    expect(driver.sent).toHaveLength(1);
  });

  it("keeps the driver's own code, and ERR_SENDING_WAPP_MSG for an uncoded failure", async () => {
    const ticket = await agentTicket();
    driver.failNext(1, 'ERR_WAPP_INVALID_CONTACT');
    const coded = await sendOne(agent, ticket.id, { body: 'a' });
    expect(await kit.settled(coded.id)).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_WAPP_INVALID_CONTACT' });
    driver.failNext(1, null);
    const plain = await sendOne(agent, ticket.id, { body: 'b' });
    expect(await kit.settled(plain.id)).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG' });
  });

  it('fails with ERR_WAPP_NOT_INITIALIZED when no driver serves the channel', async () => {
    unregister();
    try {
      const ticket = await agentTicket();
      const message = await sendOne(agent, ticket.id, { body: 'sem conexão' });
      expect(await kit.settled(message.id)).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_WAPP_NOT_INITIALIZED' });
    } finally {
      ({ unregister } = registerFixtureDriver(t, 'whatsapp', driver));
    }
  });
});

describe('POST /messages/:ticketId (multipart)', () => {
  it('stores each file as one message, caption on the first, typed by content, served signed', async () => {
    const ticket = await agentTicket();
    const response = await kit.multipart<SendAnswer>(
      agent,
      `/messages/${ticket.id}`,
      { body: 'Seguem os arquivos', fromMe: 'true' },
      [
        // the declared types lie: the content decides
        { name: 'foto.png', type: 'application/octet-stream', data: SAMPLES.png },
        { name: 'contrato final.pdf', type: 'image/jpeg', data: SAMPLES.pdf },
        { name: 'lista.csv', type: 'text/csv', data: SAMPLES.csv },
      ],
    );
    expect(response.status).toBe(201);
    const [image, pdf, csv] = response.body.messages as [Message, Message, Message];
    expect(image).toMatchObject({ mediaType: 'image', body: 'Seguem os arquivos', mediaName: 'foto.png' });
    expect(pdf).toMatchObject({ mediaType: 'application', body: '', mediaName: 'contrato final.pdf' });
    expect(csv).toMatchObject({ mediaType: 'application', mediaName: 'lista.csv' });
    const row = await kit.messageRow(pdf.id);
    expect(String(row.mediaPath)).toMatch(new RegExp(`^media/${ticket.id}/[0-9a-f]{16}-contrato_final\\.pdf$`));
    expect(await kit.ticketRow(ticket.id)).toMatchObject({ lastMessage: 'lista.csv' });

    expect(image.mediaUrl).toMatch(/^\/api\/media\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const file = await t.inject({ method: 'GET', url: image.mediaUrl as string });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(SAMPLES.png)).toBe(true);

    for (const message of [image, pdf, csv]) await kit.settled(message.id);
    const sentPdf = driver.sent.find((record) => record.message.messageId === pdf.id);
    expect(sentPdf?.message.media).toMatchObject({ fileName: 'contrato final.pdf', mimetype: 'application/pdf' });
    expect(sentPdf?.media?.equals(SAMPLES.pdf)).toBe(true);
  });

  it('refuses types outside the allow-list with 415 and keeps nothing', async () => {
    const ticket = await agentTicket();
    for (const file of [
      { name: 'setup.exe', type: 'application/x-msdownload', data: SAMPLES.exe },
      { name: 'page.html', type: 'text/html', data: SAMPLES.html },
      { name: 'sneaky.txt', type: 'text/plain', data: Buffer.concat([Buffer.from('abc'), Buffer.alloc(4, 0)]) },
    ]) {
      const response = await kit.multipart(agent, `/messages/${ticket.id}`, { body: 'x' }, [
        { name: 'ok.png', type: 'image/png', data: SAMPLES.png },
        file,
      ]);
      expect(response).toEqual({ status: 415, body: { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' } });
    }
    expect(await kit.knex('messages').where({ ticketId: ticket.id })).toHaveLength(0);
    const usage = await t.balcao.core.storage.usage(acme);
    const folder = await kit.multipart<SendAnswer>(agent, `/messages/${ticket.id}`, {}, [
      { name: 'ok.png', type: 'image/png', data: SAMPLES.png },
    ]);
    expect(folder.status).toBe(201);
    // only the accepted file was added: the refused requests left nothing behind
    expect((await t.balcao.core.storage.usage(acme)).files).toBe(usage.files + 1);
  });

  it('refuses a multipart text field with a NUL with 400, sending and storing nothing', async () => {
    const ticket = await agentTicket();
    const usage = await t.balcao.core.storage.usage(acme);
    const refused = await kit.multipart(agent, `/messages/${ticket.id}`, { body: 'a\u0000b' }, [
      { name: 'ok.png', type: 'image/png', data: SAMPLES.png },
    ]);
    expect(refused.status).toBe(400);
    expect((refused.body as { error: string }).error).toBe('ERR_VALIDATION');
    expect(await kit.knex('messages').where({ ticketId: ticket.id })).toHaveLength(0);
    expect((await t.balcao.core.storage.usage(acme)).files).toBe(usage.files);
  });

  it('refuses a file over 64 MB and more than 10 files with 413', async () => {
    const ticket = await agentTicket();
    const big = Buffer.alloc(64 * 1024 * 1024 + 1, 0x20);
    SAMPLES.pdf.copy(big);
    const tooBig = await kit.multipart(agent, `/messages/${ticket.id}`, {}, [
      { name: 'big.pdf', type: 'application/pdf', data: big },
    ]);
    expect(tooBig).toEqual({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });
    const many = Array.from({ length: 11 }, (_, index) => ({ name: `f${index}.png`, type: 'image/png', data: SAMPLES.png }));
    const tooMany = await kit.multipart(agent, `/messages/${ticket.id}`, {}, many);
    expect(tooMany).toEqual({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });
    expect(await kit.knex('messages').where({ ticketId: ticket.id })).toHaveLength(0);
  });

  it('sends private files without a driver, and refuses an empty multipart', async () => {
    const ticket = await agentTicket();
    const response = await kit.multipart<SendAnswer>(agent, `/messages/${ticket.id}`, { isPrivate: 'true' }, [
      { name: 'nota.png', type: 'image/png', data: SAMPLES.png },
    ]);
    expect(response.body.messages[0]).toMatchObject({ isPrivate: true, sendStatus: 'sent', mediaType: 'image' });
    const empty = await kit.multipart(agent, `/messages/${ticket.id}`, { body: '  ' }, []);
    expect(empty).toEqual({ status: 400, body: { error: 'ERR_EMPTY_MESSAGE' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(driver.sent).toHaveLength(0);
  });
});

describe('media addresses', () => {
  it("serves a file only with a valid signature, and never another company's file", async () => {
    const ticket = await agentTicket();
    const response = await kit.multipart<SendAnswer>(agent, `/messages/${ticket.id}`, {}, [
      { name: 'doc.pdf', type: 'application/pdf', data: SAMPLES.pdf },
    ]);
    const url = response.body.messages[0]?.mediaUrl as string;
    const [token] = url.split('/').slice(-1) as [string];
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await t.inject({ method: 'GET', url: `/api/media/${tampered}` })).statusCode).toBe(404);
    const key = String((await kit.messageRow(response.body.messages[0]?.id as number)).mediaPath);
    // a correctly signed address for the same key in another company finds nothing there
    const liteUrl = t.balcao.core.storage.signedUrl(lite, key, { fileName: 'doc.pdf' });
    expect((await t.inject({ method: 'GET', url: liteUrl })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url })).statusCode).toBe(200);
  });
});

describe('edit, delete, reactions', () => {
  it("edits own messages within 15 minutes, on the channel too; refuses others' and late edits", async () => {
    const ticket = await agentTicket();
    const message = await sendOne(agent, ticket.id, { body: 'original' });
    const sentRow = await kit.settled(message.id);
    const edited = await kit.call<Message>(agent, 'POST', `/messages/edit/${message.id}`, { body: 'corrigida' });
    expect(edited).toMatchObject({ status: 200, body: { body: 'corrigida', isEdited: true } });
    expect(driver.edited).toEqual([expect.objectContaining({ channelMessageId: sentRow.channelMessageId, body: 'corrigida' })]);

    // an admin sees the ticket but the message is not theirs; another agent doesn't even see the ticket
    expect(await kit.call(admin, 'POST', `/messages/edit/${message.id}`, { body: 'minha?' })).toEqual({
      status: 403,
      body: { error: 'ERR_NO_PERMISSION' },
    });
    expect((await kit.call(other, 'POST', `/messages/edit/${message.id}`, { body: 'outro' })).status).toBe(404);
    const [inbound] = await kit.messages(acme, ticket.id, 1, { start: new Date() });
    expect((await kit.call(agent, 'POST', `/messages/edit/${inbound}`, { body: 'x' })).status).toBe(403);

    await kit
      .knex('messages')
      .where({ id: message.id })
      .update({ createdAt: new Date(Date.now() - 16 * 60_000) });
    expect(await kit.call(agent, 'POST', `/messages/edit/${message.id}`, { body: 'tarde' })).toEqual({
      status: 400,
      body: { error: 'ERR_EDIT_WINDOW_EXPIRED' },
    });
    expect((await kit.messageRow(message.id)).body).toBe('corrigida');
  });

  it("deletes own messages (kept, marked, deleted on the channel); refuses others'", async () => {
    const ticket = await agentTicket();
    const message = await sendOne(agent, ticket.id, { body: 'apagar' });
    const sentRow = await kit.settled(message.id);
    expect((await kit.call(admin, 'DELETE', `/messages/${message.id}`)).status).toBe(403);
    expect((await kit.call(other, 'DELETE', `/messages/${message.id}`)).status).toBe(404);
    const deleted = await kit.call<Message>(agent, 'DELETE', `/messages/${message.id}`);
    expect(deleted).toMatchObject({ status: 200, body: { id: message.id, isDeleted: true, body: 'apagar' } });
    expect(driver.deleted).toEqual([expect.objectContaining({ channelMessageId: sentRow.channelMessageId })]);
    expect(await kit.messageRow(message.id)).toMatchObject({ isDeleted: true, body: 'apagar' });
  });

  it('emits a delete event instead of an update when LGPD hides deleted messages', async () => {
    const url = await t.listen();
    const socket = await connectSocket(url, acme, agent.token);
    try {
      await kit.ctx.settings.set(acme, 'enableLGPD', 'enabled');
      await kit.ctx.settings.set(acme, 'lgpdDeleteMessage', 'enabled');
      const ticket = await agentTicket();
      const message = await sendOne(agent, ticket.id, { body: 'some', isPrivate: true });
      const event = nextEvent<{ action: string; messageId?: number }>(
        socket,
        `company-${acme}-appMessage`,
        (payload) => payload.action === 'delete',
      );
      await kit.call(agent, 'DELETE', `/messages/${message.id}`);
      expect(await event).toEqual({ action: 'delete', messageId: message.id, ticketId: ticket.id });
    } finally {
      socket.close();
    }
  });

  it('keeps one reaction per agent, replacing theirs, and sends it to the channel', async () => {
    const ticket = await agentTicket();
    const [inbound] = await kit.messages(acme, ticket.id, 1, { channelIds: true });
    const url = `/messages/${inbound}/reactions`;
    await kit.call(agent, 'POST', url, { type: '👍' });
    await kit.call(admin, 'POST', url, { type: '😂' });
    const replaced = await kit.call<Message>(agent, 'POST', url, { type: '❤️' });
    expect(replaced.status).toBe(200);
    expect(replaced.body.reactions).toEqual([
      { type: '😂', fromMe: true, userId: admin.id, contactId: null },
      { type: '❤️', fromMe: true, userId: agent.id, contactId: null },
    ]);
    expect(driver.reacted.map((call) => call.reaction)).toEqual(['👍', '😂', '❤️']);
    const removed = await kit.call<Message>(agent, 'POST', url, { type: '' });
    expect(removed.body.reactions).toEqual([{ type: '😂', fromMe: true, userId: admin.id, contactId: null }]);
  });
});

describe('POST /message/forward', () => {
  it("copies a message to the contact's active ticket, or a new open one for the caller, and delivers it", async () => {
    const source = await agentTicket();
    const response = await kit.multipart<SendAnswer>(agent, `/messages/${source.id}`, { body: 'veja' }, [
      { name: 'foto.png', type: 'image/png', data: SAMPLES.png },
    ]);
    const original = response.body.messages[0] as Message;
    const contactId = await kit.contact(acme, { name: 'Destino' });

    const forwarded = await kit.call<Message>(agent, 'POST', '/message/forward', { messageId: original.id, contactId });
    expect(forwarded.status).toBe(201);
    expect(forwarded.body).toMatchObject({ isForwarded: true, body: 'veja', mediaType: 'image', mediaName: 'foto.png' });
    const target = await kit.ticketRow(forwarded.body.ticketId);
    expect(target).toMatchObject({ contactId, status: 'open', userId: agent.id, whatsappId: 1 });
    expect(await kit.knex('ticketLogs').where({ ticketId: target.id }).pluck('type')).toEqual(['create']);
    await kit.settled(forwarded.body.id);
    expect(driver.sent.find((record) => record.message.messageId === forwarded.body.id)?.message).toMatchObject({
      isForwarded: true,
      media: expect.objectContaining({ fileName: 'foto.png' }),
    });

    const again = await kit.call<Message>(agent, 'POST', '/message/forward', {
      messageId: original.id,
      contactId,
      signMessage: true,
    });
    expect(again.body.ticketId).toBe(target.id);
    expect(again.body.body).toBe('*Ana Agente:*\nveja');
  });

  it('refuses invisible sources, private notes and unknown contacts', async () => {
    const hidden = await kit.ticket(acme, { status: 'open', userId: admin.id });
    const [hiddenMessage] = await kit.messages(acme, hidden.id, 1);
    const contactId = await kit.contact(acme);
    expect(await kit.call(agent, 'POST', '/message/forward', { messageId: hiddenMessage, contactId })).toEqual({
      status: 404,
      body: { error: 'ERR_NO_MESSAGE_FOUND' },
    });
    const mine = await agentTicket();
    const note = await sendOne(agent, mine.id, { body: 'interna', isPrivate: true });
    expect((await kit.call(agent, 'POST', '/message/forward', { messageId: note.id, contactId })).status).toBe(403);
    const text = await sendOne(agent, mine.id, { body: 'pública' });
    const liteContact = await kit.contact(lite);
    expect(await kit.call(agent, 'POST', '/message/forward', { messageId: text.id, contactId: liteContact })).toEqual({
      status: 404,
      body: { error: 'ERR_NO_CONTACT_FOUND' },
    });
  });
});

describe('GET /messages-allMe', () => {
  it("counts the messages of the caller's tickets, sent or received, between two dates", async () => {
    const counter = await kit.user(acme, { queueIds: [queue] });
    const ticket = await kit.ticket(acme, { status: 'open', userId: counter.id, queueId: queue });
    await kit.messages(acme, ticket.id, 3, { fromMe: true, start: new Date('2024-03-10T12:00:00Z') });
    await kit.messages(acme, ticket.id, 2, { fromMe: false, start: new Date('2024-03-10T13:00:00Z') });
    await kit.messages(acme, ticket.id, 4, { fromMe: true, start: new Date('2024-04-01T12:00:00Z') });
    const count = async (query: string) =>
      (await kit.call<{ count: Array<{ count: number }> }>(counter, 'GET', `/messages-allMe?${query}`)).body;
    expect(await count('fromMe=true&dateStart=2024-03-01&dateEnd=2024-03-31')).toEqual({ count: [{ count: 3 }] });
    expect(await count('fromMe=false&dateStart=2024-03-10&dateEnd=2024-03-10')).toEqual({ count: [{ count: 2 }] });
    expect(await count('fromMe=true')).toEqual({ count: [{ count: 7 }] });
    expect(await count('dateStart=2024-04-01')).toEqual({ count: [{ count: 4 }] });
    expect((await kit.call(counter, 'GET', '/messages-allMe?dateStart=ontem')).status).toBe(400);
  });
});

describe('cross-tenant', () => {
  it('answers 404 to another company for every message route, and changes nothing', async () => {
    const ticket = await agentTicket();
    const message = await sendOne(agent, ticket.id, { body: 'da acme' });
    await kit.settled(message.id);
    const before = await kit.messageRow(message.id);
    const calls: Array<[method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown]> = [
      ['GET', `/messages/${ticket.uuid}`],
      ['POST', `/messages/${ticket.id}`, { body: 'intruso' }],
      ['POST', `/messages/edit/${message.id}`, { body: 'intruso' }],
      ['DELETE', `/messages/${message.id}`],
      ['POST', `/messages/${message.id}/reactions`, { type: '👎' }],
      ['POST', `/messages/${message.id}/retry`],
      ['POST', '/message/forward', { messageId: message.id, contactId: ticket.contactId }],
    ];
    for (const [method, url, payload] of calls) {
      const response = await kit.call<{ error: string }>(liteAdmin, method, url, payload);
      expect([method, url, response.status]).toEqual([method, url, 404]);
    }
    expect(await kit.messageRow(message.id)).toEqual(before);
    expect(await kit.knex('messages').where({ ticketId: ticket.id })).toHaveLength(1);
    expect(driver.sent).toHaveLength(1);
  });

  it("fills the message variables of an agent's message (a quick reply's {{name}}) before it is stored and sent", async () => {
    const ticket = await agentTicket();
    const contact = await kit.knex('contacts').where({ id: ticket.contactId }).first('name');
    const message = await sendOne(agent, ticket.id, { body: 'Olá, {{firstName}}! Eu sou {{userName}}, {{unknown}}.' });
    const expected = `Olá, ${String(contact.name).split(/\s+/)[0]}! Eu sou Ana Agente, {{unknown}}.`;
    expect(message.body).toBe(expected);
    expect(await kit.settled(message.id)).toMatchObject({ body: expected, sendStatus: 'sent' });
    expect(driver.sent.map((sent) => sent.message.body)).toEqual([expected]);
  });

  it('fails a message at once, with why, when its connection is not connected — by the job and by deliver alike', async () => {
    // an id of its own: the kit's tickets name connection 1 without a row, whose absence other tests cached
    const [connection] = await kit
      .knex('whatsapps')
      .insert({
        id: 700_000 + Math.floor(Math.random() * 100_000),
        companyId: acme,
        name: 'Desconectado',
        channel: 'whatsapp',
        status: 'DISCONNECTED',
        token: `dc${Date.now()}`,
      })
      .returning('id');
    const ticket = await agentTicket({ whatsappId: connection.id });
    const message = await sendOne(agent, ticket.id, { body: 'não vai sair' });
    expect(await kit.settled(message.id)).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_WAPP_NOT_INITIALIZED', ack: 0 });
    // the product's own delivery (a campaign's) meets the same rule
    const [stored] = await kit
      .knex('messages')
      .insert({
        companyId: acme,
        ticketId: ticket.id,
        body: 'campanha',
        fromMe: true,
        whatsappId: connection.id,
        sendStatus: 'pending',
      })
      .returning('id');
    const [outcome] = await runInTenant({ companyId: acme }, () => inboxServiceOf(t).deliver([Number(stored.id)]));
    // the ticket's status comes with the outcome, as the delivery read it
    const { status } = await kit.knex('tickets').where({ id: ticket.id }).first('status');
    expect(outcome).toMatchObject({ status: 'failed', error: 'ERR_WAPP_NOT_INITIALIZED', ticketStatus: status });
    expect(driver.sent).toHaveLength(0);
  });

  it("delivers a message with a fresh driver registered per app (the registry is the app's)", async () => {
    const second = createFixtureDriver({ ack: 2 });
    const { unregister: off } = registerFixtureDriver(t, 'whatsapp', second);
    try {
      const ticket = await agentTicket();
      const message = await sendOne(agent, ticket.id, { body: 'via o segundo' });
      expect(await kit.settled(message.id)).toMatchObject({ sendStatus: 'sent', ack: 2 });
      expect(second.sent).toHaveLength(1);
      expect(driver.sent).toHaveLength(0);
    } finally {
      off();
      ({ unregister } = registerFixtureDriver(t, 'whatsapp', driver));
    }
  });
});
