import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, Ticket } from '../shared/types';
import { loadMessages } from './messages/serializer';
import { MessageKit } from './messages/testing/message-kit';
import { loadTickets } from './tickets/serializer';

/**
 * The hot reads render their JSON straight from raw columns (json-sql.ts): GET /tickets and GET
 * /messages/:ticketUuid must answer exactly what the objects of the serializers (`ticketFromRow`,
 * `loadMessages`) serialised by the response schemas answered — every field, null, mask, tag, rating,
 * quote, reaction, media address and timestamp (microseconds truncated, as node-pg reads them).
 */
let t: TestApp;
let kit: MessageKit;
beforeAll(async () => {
  t = await createTestApp();
  kit = new MessageKit(t);
});
afterAll(async () => {
  await t?.close();
});

/** A signed media address as its grant (company, key, file name): the expiry moves with the clock. */
function grantOf(url: unknown): unknown {
  if (typeof url !== 'string') return url;
  const token = url.split('/').pop() as string;
  const { c, k, n } = JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString()) as Record<string, unknown>;
  return { c, k, n };
}

const withGrants = (message: Omit<Message, 'quotedMsg'> & { quotedMsg?: Message['quotedMsg'] }): unknown => ({
  ...message,
  mediaUrl: grantOf(message.mediaUrl),
  ...(message.quotedMsg ? { quotedMsg: withGrants(message.quotedMsg) } : {}),
});

describe('JSON rendered from raw columns', () => {
  let companyId: number;
  let admin: Awaited<ReturnType<MessageKit['company']>>['admin'];
  let agent: Awaited<ReturnType<MessageKit['user']>>;
  let queue: number;
  const tickets: number[] = [];
  let busy: { id: number; uuid: string };

  beforeAll(async () => {
    ({ companyId, admin } = await kit.company());
    queue = await kit.queue(companyId, 'Fila "especial" \\ ç');
    agent = await kit.user(companyId, { queueIds: [queue], name: 'Agente \u2028 "A"' });
    const group = await kit.contact(companyId, { number: '120363000000001', isGroup: true, name: 'Grupo' });
    const person = await kit.contact(companyId, { number: '5511999998877', name: 'Zé "Aspas" \\ \n nova linha 😀' });
    const noNumber = await kit.contact(companyId, { number: null, name: 'Sem número' });
    await kit.knex('contacts').where({ id: person }).update({ email: 'ze@example.test', urlPicture: 'https://x/p.png' });
    const tagA = await kit.tag(companyId, 'Beta');
    const tagB = await kit.tag(companyId, 'Alfa');
    const at = (iso: string) => new Date(iso);
    busy = await kit.ticket(companyId, {
      contactId: person,
      status: 'open',
      queueId: queue,
      userId: agent.id,
      unreadMessages: 3,
      lastMessage: 'última "mensagem"\t',
      createdAt: at('2024-05-01T10:00:00Z'),
      updatedAt: at('2024-05-02T10:00:00Z'),
    });
    tickets.push(busy.id);
    tickets.push((await kit.ticket(companyId, { contactId: group, isGroup: true, status: 'open', userId: agent.id })).id);
    tickets.push((await kit.ticket(companyId, { contactId: noNumber, status: 'open', queueId: queue, userId: agent.id })).id);
    // a whole second and a tenth: Postgres writes no fraction, and '.1'
    const whole = at('2024-05-03T10:00:00Z');
    tickets.push(
      (await kit.ticket(companyId, { status: 'open', userId: agent.id, whatsappId: 7, createdAt: whole, updatedAt: whole })).id,
    );
    const tenth = at('2024-05-03T10:00:01.100Z');
    tickets.push((await kit.ticket(companyId, { status: 'open', userId: agent.id, createdAt: tenth, updatedAt: tenth })).id);
    await kit.tagTicket(companyId, busy.id, tagA);
    await kit.tagContact(companyId, person, tagB);
    await kit.tagContact(companyId, noNumber, tagA);
    await kit.knex('ticketRatings').insert({ companyId, ticketId: busy.id, userId: agent.id, rate: 9 });
    // timestamps with microseconds: truncated to milliseconds, as node-pg reads them
    await kit.knex.raw(
      `UPDATE tickets SET created_at = '2024-05-01 10:00:00.123987+00', updated_at = '2024-05-02 10:00:00.9999+00' WHERE id = ?`,
      [busy.id],
    );

    // messages: media, a quote of a media message, reactions, deleted, private, a removed contact
    const [photo] = (await kit.messages(companyId, busy.id, 1)) as [number];
    await kit
      .knex('messages')
      .where({ id: photo })
      .update({
        mediaType: 'image',
        mediaPath: 'inbound-1/foto.jpg',
        mediaName: 'foto "1".jpg',
        contactId: person,
        reactions: JSON.stringify([
          { type: '👍', fromMe: false, userId: null, contactId: person },
          { type: '❤', fromMe: true, userId: agent.id, contactId: null },
        ]),
      });
    const [quote, deleted, privateNote, orphan] = (await kit.messages(companyId, busy.id, 4, {
      start: new Date(Date.now() - 3_600_000),
    })) as [number, number, number, number];
    await kit
      .knex('messages')
      .where({ id: quote })
      .update({ quotedMsgId: photo, fromMe: true, userId: agent.id, ack: 3, body: 'olha?' });
    await kit
      .knex('messages')
      .where({ id: deleted })
      .update({ isDeleted: true, isEdited: true, sendStatus: 'failed', sendError: 'ERR_X' });
    await kit
      .knex('messages')
      .where({ id: privateNote })
      .update({ isPrivate: true, isForwarded: true, mediaType: 'audio', mediaPath: 'x/a.ogg' });
    await kit.knex('messages').where({ id: orphan }).update({ contactId: null, body: 'tab\there "quoted" \\ back' });
    await kit.knex.raw(`UPDATE messages SET created_at = created_at + interval '0.000456 second' WHERE id = ?`, [quote]);
  });

  it('GET /tickets answers what the ticket serializer answers, masked or not', async () => {
    const listed = await kit.list(agent, { status: 'open' });
    expect(listed.status).toBe(200);
    const expected = await loadTickets(
      kit.knex,
      companyId,
      listed.body.tickets.map((ticket) => ticket.id),
    );
    expect(listed.body.tickets.map((ticket) => ticket.id).sort()).toEqual([...tickets].sort());
    expect(listed.body.tickets).toEqual(expected);
    expect(listed.body.tickets.find((ticket) => ticket.id === busy.id)).toMatchObject({
      tags: [{ name: 'Alfa' }, { name: 'Beta' }],
      userRating: { rate: 9 },
      createdAt: '2024-05-01T10:00:00.123Z',
      updatedAt: '2024-05-02T10:00:00.999Z',
    });

    await kit.setting(companyId, 'enableLGPD', 'enabled');
    await kit.setting(companyId, 'lgpdHideNumber', 'enabled');
    try {
      const masked = await kit.list(agent, { status: 'open' });
      const expectedMasked = await loadTickets(
        kit.knex,
        companyId,
        masked.body.tickets.map((ticket) => ticket.id),
        true,
      );
      expect(masked.body.tickets).toEqual(expectedMasked);
      const numbers = masked.body.tickets.map((ticket: Ticket) => ticket.contact.number);
      expect(numbers).toEqual(expect.arrayContaining(['***********77', '120363000000001', null]));
      // the search view renders the same way
      const search = await kit.list(admin, { searchParam: 'Aspas' });
      expect(search.body.tickets).toEqual(await loadTickets(kit.knex, companyId, [busy.id]));
    } finally {
      await kit.setting(companyId, 'enableLGPD', 'disabled');
    }
  });

  it('GET /messages/:ticketUuid answers what the message serializer answers', async () => {
    const page = await kit.call<{ messages: Message[]; ticket: Ticket; count: number; hasMore: boolean }>(
      admin,
      'GET',
      `/messages/${busy.uuid}?pageNumber=1`,
    );
    expect(page.status).toBe(200);
    const expected = await loadMessages(kit.ctx, companyId, { ticketId: busy.id, offset: 0, limit: 30, hideDeleted: false });
    expect(page.body.messages.map(withGrants)).toEqual(expected.map(withGrants));
    expect(page.body.ticket).toEqual((await loadTickets(kit.knex, companyId, [busy.id]))[0]);
    expect(page.body).toMatchObject({ count: 5, hasMore: false });
    const quoting = page.body.messages.find((message) => message.quotedMsg !== null);
    expect(grantOf(quoting?.quotedMsg?.mediaUrl)).toEqual({ c: companyId, k: 'inbound-1/foto.jpg', n: 'foto "1".jpg' });
    expect(quoting?.createdAt).toMatch(/\.\d{3}Z$/);
    expect(page.body.messages.find((message) => message.contactId === null)?.contact).toBeNull();
  });
});
