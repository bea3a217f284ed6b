import { Readable } from 'node:stream';
import type { InboxService } from '@balcao/plugin-sdk/server';
import { connectSocket, createTestApp, nextEvent, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppMessageEvent, TicketEvent } from '../../shared/types';
import { MessageKit } from '../messages/testing/message-kit';
import { fixtureInbound, inboxServiceOf } from '../testing/fixture-driver';
import { loadTicket } from '../tickets/serializer';

/** The inbound side of the channel contract (plugin-sdk/src/server/channel-contract.ts): InboxService.receive & co. */
let t: TestApp;
let kit: MessageKit;
let inbox: InboxService;
let acme: number;
let lite: number;
let whatsappId = 100;
/** A connection id of its own per test, so that tests never share tickets. */
const connection = () => {
  whatsappId += 1;
  return whatsappId;
};
let numberSeq = 0;
const newNumber = () => {
  numberSeq += 1;
  return `55119${String(Date.now() % 1e5).padStart(5, '0')}${String(numberSeq).padStart(3, '0')}`;
};

beforeAll(async () => {
  t = await createTestApp();
  kit = new MessageKit(t);
  inbox = inboxServiceOf(t);
  acme = t.demo.companies.acme;
  lite = t.demo.companies.lite;
});
afterAll(async () => {
  await t?.close();
});

/** The app's address: it listens once for every test that needs sockets. */
let address: string | undefined;
const listen = async () => {
  address ??= await t.listen();
  return address;
};

const messagesOf = (ticketId: number) => kit.knex('messages').where({ ticketId }).orderBy('id');

describe('receive', () => {
  it('stores a first message: a new contact with its identifiers, a pending ticket (logged create), unread 1', async () => {
    const wa = connection();
    const number = newNumber();
    const input = fixtureInbound(acme, wa, {
      number,
      name: 'Maria',
      identifiers: [`${number}@s.whatsapp.net`, `lid-${number}`],
      body: 'Bom dia',
    });
    const result = await inbox.receive(input);
    expect(result).toMatchObject({ created: true, ticketCreated: true });
    const contact = await kit.knex('contacts').where({ id: result.contactId }).first();
    expect(contact).toMatchObject({ companyId: acme, name: 'Maria', number, channel: 'whatsapp', whatsappId: wa });
    const identities = await kit.knex('contactIdentities').where({ contactId: result.contactId }).pluck('identifier');
    expect(identities.sort()).toEqual([`${number}@s.whatsapp.net`, `lid-${number}`].sort());
    const ticket = await kit.ticketRow(result.ticketId);
    expect(ticket).toMatchObject({
      status: 'pending',
      unreadMessages: 1,
      lastMessage: 'Bom dia',
      whatsappId: wa,
      isGroup: false,
    });
    expect(ticket.uuid).toBe(result.ticketUuid);
    const logs = await kit.knex('ticketLogs').where({ ticketId: result.ticketId }).pluck('type');
    expect(logs).toEqual(['create']);
    const [message] = await messagesOf(result.ticketId);
    expect(message).toMatchObject({ body: 'Bom dia', fromMe: false, read: false, channelMessageId: input.message.id });
  });

  it('finds a sender of many identifiers (quotes and backslashes in them) on its next message', async () => {
    const wa = connection();
    const number = newNumber();
    const identifiers = [
      `${number}@s.whatsapp.net`,
      `lid-${number}`,
      `a"quote-${number}`,
      `back\\slash-${number}`,
      `{${number},x}`,
    ];
    const first = await inbox.receive(fixtureInbound(acme, wa, { number, identifiers, body: 'um' }));
    const stored = await kit.knex('contactIdentities').where({ contactId: first.contactId }).pluck('identifier');
    expect(stored.sort()).toEqual([...identifiers].sort());
    const second = await inbox.receive(fixtureInbound(acme, wa, { number, identifiers, body: 'dois' }));
    expect(second).toMatchObject({ created: true, ticketCreated: false, contactId: first.contactId, ticketId: first.ticketId });
  });

  it('is idempotent per channel id: a redelivery stores nothing, counts nothing and answers created=false', async () => {
    const wa = connection();
    const input = fixtureInbound(acme, wa, { number: newNumber() });
    const published: unknown[] = [];
    const off = kit.ctx.events.on('message.received', (payload) => {
      if (payload.whatsappId === wa) published.push(payload);
    });
    try {
      const first = await inbox.receive(input);
      const again = await inbox.receive(input);
      expect(again).toEqual({ ...first, created: false, ticketCreated: false });
      expect(await messagesOf(first.ticketId)).toHaveLength(1);
      expect((await kit.ticketRow(first.ticketId)).unreadMessages).toBe(1);
      expect(published).toHaveLength(1);
    } finally {
      off();
    }
  });

  it('stores an imported message (channel history) read, without an unread count or message.received', async () => {
    const wa = connection();
    const published: unknown[] = [];
    const off = kit.ctx.events.on('message.received', (payload) => {
      if (payload.whatsappId === wa) published.push(payload);
    });
    try {
      const result = await inbox.receive({
        ...fixtureInbound(acme, wa, { number: newNumber(), body: 'de ontem' }),
        imported: true,
      });
      expect(result).toMatchObject({ created: true, ticketCreated: true });
      expect((await kit.ticketRow(result.ticketId)).unreadMessages).toBe(0);
      expect(await kit.messageRow(result.messageId)).toMatchObject({ body: 'de ontem', read: true });
      // a new message of the same contact is a live one again: counted and published
      await inbox.receive(
        fixtureInbound(acme, wa, { number: (await kit.knex('contacts').where({ id: result.contactId }).first()).number }),
      );
      expect((await kit.ticketRow(result.ticketId)).unreadMessages).toBe(1);
      expect(published).toHaveLength(1);
    } finally {
      off();
    }
  });

  it('makes one contact and one ticket for 20 parallel first messages of a new contact', async () => {
    const wa = connection();
    const number = newNumber();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => inbox.receive(fixtureInbound(acme, wa, { number, body: `m${index}` }))),
    );
    expect(new Set(results.map((result) => result.contactId)).size).toBe(1);
    expect(new Set(results.map((result) => result.ticketId)).size).toBe(1);
    expect(results.filter((result) => result.ticketCreated)).toHaveLength(1);
    expect(await kit.knex('contacts').where({ companyId: acme, number })).toHaveLength(1);
    expect(await kit.knex('tickets').where({ contactId: results[0]?.contactId })).toHaveLength(1);
    expect(await messagesOf(results[0]?.ticketId as number)).toHaveLength(20);
    expect((await kit.ticketRow(results[0]?.ticketId as number)).unreadMessages).toBe(20);
  });

  it('makes one contact for parallel first messages of a number-less contact (webchat visitor)', async () => {
    const wa = connection();
    const visitor = `visitor-${newNumber()}`;
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        inbox.receive({
          ...fixtureInbound(acme, wa, { channel: 'webchat', identifiers: [visitor] }),
          contact: { identifiers: [visitor], name: 'Visitante' },
        }),
      ),
    );
    expect(new Set(results.map((result) => result.contactId)).size).toBe(1);
    expect(new Set(results.map((result) => result.ticketId)).size).toBe(1);
    const contacts = await kit
      .knex('contacts')
      .where({ companyId: acme, name: 'Visitante', whatsappId: wa })
      .select('id', 'number', 'channel');
    expect(contacts).toEqual([{ id: results[0]?.contactId, number: null, channel: 'webchat' }]);
  });

  it('keeps one person one contact when the channel switches identifiers, and remembers the new one', async () => {
    const wa = connection();
    const number = newNumber();
    const first = await inbox.receive(fixtureInbound(acme, wa, { number, identifiers: [`${number}@s.whatsapp.net`] }));
    const second = await inbox.receive(
      fixtureInbound(acme, wa, { number, identifiers: [`lid-${number}`, `${number}@s.whatsapp.net`] }),
    );
    expect(second.contactId).toBe(first.contactId);
    expect(second.ticketId).toBe(first.ticketId);
    const third = await inbox.receive({
      ...fixtureInbound(acme, wa, { identifiers: [`lid-${number}`] }),
      contact: { identifiers: [`lid-${number}`] },
    });
    expect(third.contactId).toBe(first.contactId);
    expect(await kit.knex('contactIdentities').where({ contactId: first.contactId }).pluck('identifier')).toHaveLength(2);
  });

  it('makes one contact of a person who wrote from two identifiers once the channel gives both', async () => {
    const wa = connection();
    const number = newNumber();
    const lid = `${number.slice(-6)}99@lid`;
    // first from the LID alone (no number known), then from the phone number alone: two contacts, two tickets
    const byLid = await inbox.receive(
      fixtureInbound(acme, wa, { number: '', identifiers: [lid], name: 'Maria', body: 'pelo lid' }),
    );
    const byNumber = await inbox.receive(
      fixtureInbound(acme, wa, { number, identifiers: [`${number}@s.whatsapp.net`], name: number, body: 'pelo número' }),
    );
    expect(byLid.contactId).not.toBe(byNumber.contactId);
    await kit
      .knex('ticketNotes')
      .insert({ companyId: acme, ticketId: byNumber.ticketId, contactId: byNumber.contactId, note: 'nota' });
    // a message carrying both: the older contact takes everything, the newer ticket folds into the older
    const both = await inbox.receive(
      fixtureInbound(acme, wa, { number, identifiers: [lid, `${number}@s.whatsapp.net`], name: 'Maria', body: 'os dois' }),
    );
    expect(both.contactId).toBe(byLid.contactId);
    expect(both.ticketId).toBe(byLid.ticketId);
    expect(await kit.knex('contacts').where({ id: byNumber.contactId }).first()).toBeUndefined();
    expect(await kit.knex('tickets').where({ id: byNumber.ticketId }).first()).toBeUndefined();
    const survivor = await kit.knex('contacts').where({ id: byLid.contactId }).first();
    expect(survivor).toMatchObject({ name: 'Maria', number });
    const identities = await kit.knex('contactIdentities').where({ contactId: survivor.id }).select('identifier');
    expect(identities.map((row) => row.identifier).sort()).toEqual([lid, `${number}@s.whatsapp.net`].sort());
    expect((await messagesOf(byLid.ticketId)).map((m) => m.body)).toEqual(['pelo lid', 'pelo número', 'os dois']);
    expect((await kit.ticketRow(byLid.ticketId)).unreadMessages).toBe(3);
    expect(await kit.knex('ticketNotes').where({ ticketId: byLid.ticketId, contactId: survivor.id }).first()).toBeTruthy();
  });

  it('links identifiers the channel says are one person: remembered, or merged when both made contacts', async () => {
    const wa = connection();
    const number = newNumber();
    const lid = `${number.slice(-6)}88@lid`;
    const first = await inbox.receive(fixtureInbound(acme, wa, { number, identifiers: [`${number}@s.whatsapp.net`] }));
    await inbox.linkIdentities({ companyId: acme, channel: 'whatsapp', identifiers: [lid, `${number}@s.whatsapp.net`] });
    expect(await kit.knex('contactIdentities').where({ identifier: lid }).first()).toMatchObject({ contactId: first.contactId });
    // another company's link touches nothing of this one
    await inbox.linkIdentities({ companyId: lite, channel: 'whatsapp', identifiers: [lid, 'x@lid'] });
    expect(await kit.knex('contactIdentities').where({ identifier: 'x@lid' }).first()).toBeUndefined();

    const other = newNumber();
    const otherLid = `${other.slice(-6)}77@lid`;
    const a = await inbox.receive(fixtureInbound(acme, wa, { number: '', identifiers: [otherLid], body: 'a' }));
    const b = await inbox.receive(
      fixtureInbound(acme, wa, { number: other, identifiers: [`${other}@s.whatsapp.net`], body: 'b' }),
    );
    await inbox.linkIdentities({ companyId: acme, channel: 'whatsapp', identifiers: [otherLid, `${other}@s.whatsapp.net`] });
    expect(await kit.knex('contacts').where({ id: b.contactId }).first()).toBeUndefined();
    expect((await messagesOf(a.ticketId)).map((m) => m.body)).toEqual(['a', 'b']);
  });

  it('finds contacts by identifiers with quotes, commas, braces and backslashes', async () => {
    const wa = connection();
    const odd = `odd "id", {x} \\ ${newNumber()}`;
    const first = await inbox.receive({ ...fixtureInbound(acme, wa), contact: { identifiers: [odd], name: 'Odd' } });
    const second = await inbox.receive({ ...fixtureInbound(acme, wa), contact: { identifiers: [odd] } });
    expect(second).toMatchObject({ contactId: first.contactId, ticketId: first.ticketId, created: true, ticketCreated: false });
    expect(await kit.knex('contactIdentities').where({ contactId: first.contactId }).pluck('identifier')).toEqual([odd]);
  });

  it('finds a contact by number when no identifier is known yet (a contact made by hand)', async () => {
    const wa = connection();
    const contactId = await kit.contact(acme, { name: 'Feito à mão' });
    const { number } = await kit.knex('contacts').where({ id: contactId }).first('number');
    const result = await inbox.receive(fixtureInbound(acme, wa, { number, name: 'Outro nome' }));
    expect(result.contactId).toBe(contactId);
    expect(await kit.knex('contactIdentities').where({ contactId }).pluck('identifier')).toEqual([`${number}@s.whatsapp.net`]);
  });

  it('opens a new ticket for the next message after the ticket was closed (and a redelivery does not)', async () => {
    const wa = connection();
    const number = newNumber();
    const firstInput = fixtureInbound(acme, wa, { number });
    const first = await inbox.receive(firstInput);
    await kit.knex('tickets').where({ id: first.ticketId }).update({ status: 'closed' });
    // the first message again, after the close: still a no-op
    expect(await inbox.receive(firstInput)).toMatchObject({ created: false, ticketId: first.ticketId });
    const next = await inbox.receive(fixtureInbound(acme, wa, { number, body: 'voltei' }));
    expect(next).toMatchObject({ created: true, ticketCreated: true, contactId: first.contactId });
    expect(next.ticketId).not.toBe(first.ticketId);
    expect(await kit.ticketRow(next.ticketId)).toMatchObject({ status: 'pending', unreadMessages: 1, lastMessage: 'voltei' });
    // an open ticket is found again (one active ticket per contact and connection)
    const third = await inbox.receive(fixtureInbound(acme, wa, { number }));
    expect(third).toMatchObject({ ticketId: next.ticketId, ticketCreated: false });
    // another connection: another ticket
    const elsewhere = await inbox.receive(fixtureInbound(acme, connection(), { number }));
    expect(elsewhere.ticketId).not.toBe(next.ticketId);
    expect(elsewhere.contactId).toBe(first.contactId);
  });

  it('counts only messages from the contact as unread and keeps lastMessage and updatedAt current', async () => {
    const wa = connection();
    const number = newNumber();
    const first = await inbox.receive(fixtureInbound(acme, wa, { number, body: 'um' }));
    const before = (await kit.ticketRow(first.ticketId)).updatedAt as Date;
    await inbox.receive(fixtureInbound(acme, wa, { number, body: 'dois' }));
    await inbox.receive(fixtureInbound(acme, wa, { number, body: 'do celular', fromMe: true }));
    const ticket = await kit.ticketRow(first.ticketId);
    expect(ticket).toMatchObject({ unreadMessages: 2, lastMessage: 'do celular' });
    expect((ticket.updatedAt as Date).getTime()).toBeGreaterThanOrEqual(before.getTime());
    const fromPhone = (await messagesOf(first.ticketId)).at(-1);
    expect(fromPhone).toMatchObject({ fromMe: true, read: true, ack: 1 });
  });

  it('files a group message on the group contact (isGroup ticket), from the participant', async () => {
    const wa = connection();
    const groupId = `group-${newNumber()}@g.us`;
    const group = { identifiers: [groupId], name: 'Família' };
    const ana = newNumber();
    const bia = newNumber();
    const one = await inbox.receive(fixtureInbound(acme, wa, { number: ana, name: 'Ana', group, body: 'oi grupo' }));
    const two = await inbox.receive(fixtureInbound(acme, wa, { number: bia, name: 'Bia', group }));
    expect(two.ticketId).toBe(one.ticketId);
    const ticket = await kit.ticketRow(one.ticketId);
    expect(ticket).toMatchObject({ isGroup: true, status: 'pending' });
    const owner = await kit.knex('contacts').where({ id: ticket.contactId }).first();
    expect(owner).toMatchObject({ name: 'Família', isGroup: true });
    expect(one.contactId).toBe(owner.id);
    const rows = await messagesOf(one.ticketId);
    const senders = await kit
      .knex('contacts')
      .whereIn(
        'id',
        rows.map((row) => row.contactId),
      )
      .pluck('name');
    expect(senders.sort()).toEqual(['Ana', 'Bia']);
  });

  it('links a reply to the quoted message by its channel id', async () => {
    const wa = connection();
    const number = newNumber();
    const original = await inbox.receive(fixtureInbound(acme, wa, { number, id: `orig-${number}` }));
    const reply = await inbox.receive(
      fixtureInbound(acme, wa, { number, message: { quotedId: `orig-${number}`, body: 'respondendo' } }),
    );
    expect(Number((await kit.messageRow(reply.messageId)).quotedMsgId)).toBe(original.messageId);
  });

  it('streams inbound media to the company storage, served by a signed address', async () => {
    const wa = connection();
    const input = fixtureInbound(acme, wa, { number: newNumber(), body: '' });
    input.message.media = {
      data: Readable.from([Buffer.from('%PDF-1.4 fake')]),
      mimetype: 'application/pdf',
      fileName: 'boleto.pdf',
    };
    input.message.mediaType = 'application';
    const result = await inbox.receive(input);
    const row = await kit.messageRow(result.messageId);
    expect(row).toMatchObject({ mediaType: 'application', mediaName: 'boleto.pdf' });
    expect(String(row.mediaPath)).toMatch(/^media\/inbound-\d+\/[0-9a-f]{16}-boleto\.pdf$/);
    expect((await kit.ticketRow(result.ticketId)).lastMessage).toBe('boleto.pdf');
    const stored = await t.balcao.core.storage.get(acme, String(row.mediaPath));
    const chunks: Buffer[] = [];
    for await (const chunk of stored as Readable) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('%PDF-1.4 fake');
  });

  it('keeps companies apart: the same identifier in two companies makes two contacts', async () => {
    const number = newNumber();
    const wa = connection();
    const inAcme = await inbox.receive(fixtureInbound(acme, wa, { number }));
    const inLite = await inbox.receive(fixtureInbound(lite, wa, { number }));
    expect(inLite.contactId).not.toBe(inAcme.contactId);
    expect((await kit.knex('contacts').where({ id: inLite.contactId }).first()).companyId).toBe(lite);
    expect((await kit.knex('tickets').where({ id: inLite.ticketId }).first()).companyId).toBe(lite);
  });

  it('refuses a message without a company or without identifiers', async () => {
    const input = fixtureInbound(acme, connection());
    await expect(inbox.receive({ ...input, companyId: undefined as unknown as number })).rejects.toThrow(/companyId/);
    await expect(inbox.receive({ ...input, contact: { identifiers: [] } })).rejects.toThrow(/identifier/);
  });

  it('emits appMessage create and the ticket update to entitled users only', async () => {
    const url = await listen();
    const queue = await kit.queue(acme);
    const member = await kit.user(acme, { queueIds: [queue] });
    const outsider = await kit.user(acme, { queueIds: [await kit.queue(acme)] });
    const memberSocket = await connectSocket(url, acme, member.token);
    const outsiderSocket = await connectSocket(url, acme, outsider.token);
    const outsiderGot: string[] = [];
    outsiderSocket.onAny((event: string) => outsiderGot.push(event));
    try {
      const wa = connection();
      const created = nextEvent<AppMessageEvent>(memberSocket, `company-${acme}-appMessage`);
      const ticketUpdate = nextEvent<TicketEvent>(memberSocket, `company-${acme}-ticket`);
      const result = await inbox.receive({
        ...fixtureInbound(acme, wa, { number: newNumber(), body: 'na fila' }),
        queueId: queue,
      });
      const event = await created;
      expect(event).toMatchObject({ action: 'create', message: { id: result.messageId, body: 'na fila', fromMe: false } });
      expect(event.action === 'create' && event.ticket.id).toBe(result.ticketId);
      expect(await ticketUpdate).toMatchObject({ action: 'update', ticket: { id: result.ticketId, unreadMessages: 1 } });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(outsiderGot.filter((name) => name.includes('appMessage') || name.includes('-ticket'))).toEqual([]);
    } finally {
      memberSocket.close();
      outsiderSocket.close();
    }
  });
  it('sends in its events the ticket as loadTicket reads it after the message (read in the same statement)', async () => {
    const url = await listen();
    const queue = await kit.queue(acme);
    const member = await kit.user(acme, { queueIds: [queue] });
    const socket = await connectSocket(url, acme, member.token);
    try {
      const wa = connection();
      const number = newNumber();
      const receiveAndCompare = async (body: string) => {
        const created = nextEvent<AppMessageEvent>(socket, `company-${acme}-appMessage`);
        const updated = nextEvent<TicketEvent>(socket, `company-${acme}-ticket`);
        const result = await inbox.receive({ ...fixtureInbound(acme, wa, { number, body }), queueId: queue });
        const expected = await loadTicket(kit.knex, acme, result.ticketId);
        const event = await created;
        expect(event.action === 'create' && event.ticket).toEqual(expected);
        expect(await updated).toEqual({ action: 'update', ticket: expected });
        return result;
      };
      // a new ticket (the general path), then a known one (the one-statement path) with tags and a rating
      const first = await receiveAndCompare('primeira');
      await kit.tagContact(acme, first.contactId, await kit.tag(acme));
      await kit.tagTicket(acme, first.ticketId, await kit.tag(acme));
      await kit.knex('ticketRatings').insert({ companyId: acme, ticketId: first.ticketId, rate: 4 });
      const second = await receiveAndCompare('segunda');
      expect(second.ticketId).toBe(first.ticketId);
    } finally {
      socket.close();
    }
  });
});

describe('acks, edits, deletes and reactions from the channel', () => {
  it('moves acks forward only, and applies a contact edit, delete and reaction', async () => {
    const wa = connection();
    const number = newNumber();
    const result = await inbox.receive(fixtureInbound(acme, wa, { number, id: `x-${number}`, fromMe: true }));
    await inbox.updateAck({ companyId: acme, whatsappId: wa, channelMessageId: `x-${number}`, ack: 3 });
    await inbox.updateAck({ companyId: acme, whatsappId: wa, channelMessageId: `x-${number}`, ack: 2 });
    expect((await kit.messageRow(result.messageId)).ack).toBe(3);

    await inbox.applyEdit({ companyId: acme, whatsappId: wa, channelMessageId: `x-${number}`, body: 'editada' });
    expect(await kit.messageRow(result.messageId)).toMatchObject({ body: 'editada', isEdited: true });

    await inbox.applyReaction({
      companyId: acme,
      whatsappId: wa,
      channelMessageId: `x-${number}`,
      type: '👍',
      fromMe: false,
      contactIdentifier: `${number}@s.whatsapp.net`,
    });
    await inbox.applyReaction({
      companyId: acme,
      whatsappId: wa,
      channelMessageId: `x-${number}`,
      type: '❤️',
      fromMe: false,
      contactIdentifier: `${number}@s.whatsapp.net`,
    });
    expect((await kit.messageRow(result.messageId)).reactions).toEqual([
      { type: '❤️', fromMe: false, userId: null, contactId: result.contactId },
    ]);
    await inbox.applyReaction({
      companyId: acme,
      whatsappId: wa,
      channelMessageId: `x-${number}`,
      type: '',
      fromMe: false,
      contactIdentifier: `${number}@s.whatsapp.net`,
    });
    expect((await kit.messageRow(result.messageId)).reactions).toEqual([]);

    await inbox.applyDelete({ companyId: acme, whatsappId: wa, channelMessageId: `x-${number}` });
    expect(await kit.messageRow(result.messageId)).toMatchObject({ isDeleted: true, body: 'editada' });
  });

  it('marks a queued outbound message failed when the channel reports it undeliverable, never a delivered one', async () => {
    const wa = connection();
    const number = newNumber();
    const queued = await inbox.receive(fixtureInbound(acme, wa, { number, id: `q-${number}`, fromMe: true }));
    await kit.knex('messages').where({ id: queued.messageId }).update({ ack: 0, sendStatus: 'sent' });
    await inbox.reportDeliveryFailure({
      companyId: acme,
      whatsappId: wa,
      channelMessageId: `q-${number}`,
      error: 'ERR_WAPP_INVALID_CONTACT',
    });
    expect(await kit.messageRow(queued.messageId)).toMatchObject({
      sendStatus: 'failed',
      sendError: 'ERR_WAPP_INVALID_CONTACT',
      ack: 0,
    });

    const delivered = await inbox.receive(fixtureInbound(acme, wa, { number, id: `d-${number}`, fromMe: true }));
    await inbox.updateAck({ companyId: acme, whatsappId: wa, channelMessageId: `d-${number}`, ack: 2 });
    await inbox.reportDeliveryFailure({ companyId: acme, whatsappId: wa, channelMessageId: `d-${number}`, error: 'not a code' });
    expect(await kit.messageRow(delivered.messageId)).toMatchObject({ sendStatus: 'sent', ack: 2 });
    // another company's report touches nothing
    await inbox.reportDeliveryFailure({ companyId: lite, whatsappId: wa, channelMessageId: `d-${number}`, error: 'ERR_X' });
    expect((await kit.messageRow(delivered.messageId)).sendStatus).toBe('sent');
  });

  it("never touches another company's message with the same channel id", async () => {
    const wa = connection();
    const number = newNumber();
    const mine = await inbox.receive(fixtureInbound(acme, wa, { number, id: `same-${number}`, body: 'acme' }));
    await inbox.applyEdit({ companyId: lite, whatsappId: wa, channelMessageId: `same-${number}`, body: 'lite' });
    await inbox.applyDelete({ companyId: lite, whatsappId: wa, channelMessageId: `same-${number}` });
    expect(await kit.messageRow(mine.messageId)).toMatchObject({ body: 'acme', isDeleted: false });
  });
});
