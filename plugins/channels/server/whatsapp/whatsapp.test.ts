import { connectSocket, createTestApp, recordEvents, type TestApp } from '@balcao/plugin-sdk/testing';
import { proto } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, phoneNumbers, usePeer, usePeerEverywhere, WhatsAppKit } from './testing/kit';
import { muteLibsignalConsole, startWhatsAppPeer, type WhatsAppPeer } from './testing/peer';

/**
 * The WhatsApp driver end to end against the loopback protocol peer: the real Baileys client, our session,
 * auth state in Postgres, the inbox. The peer stands for WhatsApp's servers, the company's phone and its
 * customers' phones.
 */

muteLibsignalConsole();

let peer: WhatsAppPeer;
let t: TestApp;
let kit: WhatsAppKit;
const phone = phoneNumbers('5511');

/** The app's address: it listens once for every test that needs sockets. */
let address: string | undefined;
const listen = async () => {
  address ??= await t.listen();
  return address;
};

beforeAll(async () => {
  peer = await startWhatsAppPeer();
  usePeerEverywhere(peer);
  t = await createTestApp();
  kit = new WhatsAppKit(t);
});
afterAll(async () => {
  await t?.close();
  await peer?.stop();
});

/** A PNG of a few bytes (the peer's media server takes any bytes; the inbox checks the type by content). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A paired company with its account, and a customer who wrote first (their ticket accepted by the admin). */
async function conversation(first = 'Oi') {
  const company = await kit.company();
  const account = peer.account(phone(), { pushName: 'Acme' });
  await kit.pair(peer, company, account);
  const customer = peer.contact(phone(), { pushName: 'Cliente' });
  const id = await customer.sendText(account, first);
  const message = await eventually(() =>
    kit.knex('messages').where({ whatsappId: company.whatsappId, channelMessageId: id }).first(),
  );
  return { company, account, customer, ticketId: message.ticketId as number, firstId: id };
}

/** The admin accepts the ticket into a queue of the company (accepting needs one). */
async function accept(admin: NonNullable<Parameters<WhatsAppKit['call']>[0]>, ticketId: number) {
  const ticket = await kit.knex('tickets').where({ id: ticketId }).first();
  const queueId = await kit.queue(ticket.companyId);
  const accepted = await kit.call(admin, 'PUT', `/tickets/${ticketId}`, { status: 'open', userId: admin.id, queueId });
  expect(accepted.status).toBe(200);
}

const textOf = (m: { message: { conversation?: string | null; extendedTextMessage?: { text?: string | null } | null } }) =>
  m.message.conversation ?? m.message.extendedTextMessage?.text ?? '';

describe('pairing and messages', () => {
  it('pairs by QR code, keeps the keys in Postgres, and carries messages both ways', async () => {
    const company = await kit.company();
    const account = peer.account(phone(), { pushName: 'Acme' });
    await kit.pair(peer, company, account);
    const row = await kit.row(company.whatsappId);
    expect(row).toMatchObject({ status: 'CONNECTED', qrcode: '', number: account.pn, sessionError: null });
    expect(await kit.knex('whatsappAuthCreds').where({ whatsappId: company.whatsappId }).first()).toBeTruthy();
    expect(
      Number((await kit.knex('whatsappAuthKeys').where({ whatsappId: company.whatsappId }).count({ n: '*' }).first())?.n),
    ).toBeGreaterThan(0);

    const ana = peer.contact(phone(), { pushName: 'Ana' });
    const id = await ana.sendText(account, 'Olá, preciso de ajuda');
    const message = await eventually(() =>
      kit.knex('messages').where({ whatsappId: company.whatsappId, channelMessageId: id }).first(),
    );
    expect(message).toMatchObject({ body: 'Olá, preciso de ajuda', fromMe: false });
    const contact = await kit.knex('contacts').where({ id: message.contactId }).first();
    expect(contact).toMatchObject({ name: 'Ana', number: ana.pn });
    const identifiers = await kit.knex('contactIdentities').where({ contactId: contact.id }).pluck('identifier');
    expect(identifiers).toContain(ana.jid);

    // the agent answers: the contact's phone decrypts it, and the acks come back
    await accept(company.admin, message.ticketId);
    const sent = await kit.call(company.admin, 'POST', `/messages/${message.ticketId}`, { body: 'Claro! Como posso ajudar?' });
    expect(sent.status).toBe(201);
    const received = await ana.waitFor((m) => textOf(m) === 'Claro! Como posso ajudar?');
    const outbound = await eventually(() =>
      kit
        .knex('messages')
        .where({ ticketId: message.ticketId, fromMe: true, channelMessageId: received.id })
        .where('ack', '>=', 2)
        .first(),
    );
    expect(outbound.sendStatus).toBe('sent');
  });

  it('takes in media, locations, contact cards, edits, reactions and deletes', async () => {
    const { company, account, customer, ticketId, firstId } = await conversation();
    const imageId = await customer.sendImage(account, PNG, { caption: 'a foto' });
    const audioId = await customer.sendAudio(account, Buffer.from('ID3 not really an mp3, just bytes'), { ptt: true });
    const locationId = await customer.sendLocation(account, { latitude: -23.55052, longitude: -46.633308, name: 'Praça da Sé' });
    const cardId = await customer.sendContact(account, {
      displayName: 'Bia',
      vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Bia\nTEL;type=CELL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD',
    });
    const byId = (id: string) =>
      eventually(() => kit.knex('messages').where({ whatsappId: company.whatsappId, channelMessageId: id }).first(), 10_000, id);
    const image = await byId(imageId);
    expect(image).toMatchObject({ mediaType: 'image', body: 'a foto', ticketId });
    const stored = await kit.ctx.storage.get(company.companyId, image.mediaPath);
    const chunks: Buffer[] = [];
    for await (const chunk of stored as AsyncIterable<Buffer>) chunks.push(chunk);
    expect(Buffer.concat(chunks).equals(PNG)).toBe(true);
    expect(await byId(audioId)).toMatchObject({ mediaType: 'audio' });
    expect((await byId(locationId)).body).toContain('-23.55052');
    expect(await byId(cardId)).toMatchObject({ mediaType: 'contactMessage' });
    expect((await byId(cardId)).body).toContain('BEGIN:VCARD');

    await customer.edit(account, firstId, 'Oi, tudo bem?');
    await eventually(async () => (await byId(firstId)).isEdited === true);
    expect((await byId(firstId)).body).toBe('Oi, tudo bem?');
    await customer.sendReaction(account, imageId, '❤️');
    await eventually(async () => ((await byId(imageId)).reactions ?? []).length === 1);
    await customer.revoke(account, cardId);
    await eventually(async () => (await byId(cardId)).isDeleted === true);
  });

  it("keeps a file over the company's download limit out of storage, and the message naming it", async () => {
    const { company, account, customer } = await conversation();
    // about 2 KB (the settings screen offers 32 MB and up; the rule is the same)
    await kit.setting(company.companyId, 'downloadLimit', String(2 / 1024));
    const big = Buffer.concat([PNG, Buffer.alloc(8 * 1024, 1)]);
    const id = await customer.sendDocument(account, big, { fileName: 'contrato.pdf', mimetype: 'application/pdf' });
    const message = await eventually(() =>
      kit.knex('messages').where({ whatsappId: company.whatsappId, channelMessageId: id }).first(),
    );
    expect(message.mediaPath).toBeNull();
    expect(message.body).toContain('contrato.pdf');
  });

  it('keeps a customer who writes from their LID one contact with both identities', async () => {
    const { company, account, customer, ticketId } = await conversation('pelo número');
    const id = await customer.sendText(account, 'agora pelo LID', { asLid: true });
    const message = await eventually(() =>
      kit.knex('messages').where({ whatsappId: company.whatsappId, channelMessageId: id }).first(),
    );
    expect(message.ticketId).toBe(ticketId);
    const identifiers = await kit.knex('contactIdentities').where({ contactId: message.contactId }).pluck('identifier');
    expect(identifiers.sort()).toEqual([customer.jid, customer.lidJid].sort());
    expect(Number((await kit.knex('contacts').where({ companyId: company.companyId }).count({ n: '*' }).first())?.n)).toBe(1);
  });

  it('sends read receipts only when the agent opens the ticket, never on arrival', async () => {
    const { company, account, customer, ticketId, firstId } = await conversation('alguém aí?');
    // delivered, not read
    await account.waitForReceipt((r) => r.ids.includes(firstId) && r.type === 'delivery');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(account.receipts.some((r) => r.ids.includes(firstId) && r.type === 'read')).toBe(false);
    await accept(company.admin, ticketId);
    const ticket = await kit.knex('tickets').where({ id: ticketId }).first();
    const read = await kit.call(company.admin, 'GET', `/messages/${ticket.uuid}`);
    expect(read.status).toBe(200);
    const receipt = await account.waitForReceipt((r) => r.ids.includes(firstId) && r.type === 'read');
    expect(receipt.to).toBe(customer.jid);
  });

  it('sends a picture with its caption and a quoted reply; the customer decrypts the same bytes', async () => {
    const { company, customer, ticketId, firstId } = await conversation('manda a foto?');
    await accept(company.admin, ticketId);
    const first = await kit.knex('messages').where({ channelMessageId: firstId }).first();
    const upload = await t.inject({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      token: company.admin.token,
      ...multipart({ body: 'aqui está', quotedMsg: String(first.id) }, { name: 'foto.png', type: 'image/png', data: PNG }),
    });
    expect(upload.statusCode).toBe(201);
    const picture = await customer.waitFor((m) => Boolean(m.message.imageMessage));
    expect(picture.message.imageMessage?.caption).toBe('aqui está');
    expect(picture.message.imageMessage?.contextInfo?.stanzaId).toBe(firstId);
    expect((await customer.downloadMedia(picture.message)).equals(PNG)).toBe(true);
  });
});

/** A multipart body of fields and one file under `medias`. */
function multipart(fields: Record<string, string>, file: { name: string; type: string; data: Buffer }) {
  const boundary = `----wa${Date.now().toString(36)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('sessions', () => {
  it('comes back after the network drops, and what was written meanwhile arrives once', async () => {
    const { company, account, customer, ticketId } = await conversation();
    const logins = account.loginCount;
    peer.drop(account);
    const id = await customer.sendText(account, 'escrevi enquanto caiu');
    await kit.connectionWhen(company.whatsappId, (r) => r.status === 'CONNECTED' && account.loginCount > logins);
    await eventually(() => kit.knex('messages').where({ whatsappId: company.whatsappId, channelMessageId: id }).first());
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stored = await kit.knex('messages').where({ whatsappId: company.whatsappId, channelMessageId: id });
    expect(stored).toHaveLength(1);
    expect(stored[0].ticketId).toBe(ticketId);
  });

  it('stops on a logout from the phone, says why, forgets the keys and fails what was queued', async () => {
    const { company, account, ticketId } = await conversation();
    await accept(company.admin, ticketId);
    peer.logout(account);
    const row = await kit.connectionWhen(company.whatsappId, (r) => r.status === 'DISCONNECTED');
    expect(row.sessionError).toBe('ERR_WAPP_LOGGED_OUT');
    expect(await kit.knex('whatsappAuthCreds').where({ whatsappId: company.whatsappId }).first()).toBeUndefined();
    await eventually(() => kit.session(company.whatsappId) === undefined, 5_000, 'the session to end');
    // a reply now can't leave: it fails where the agent sees it (no session will take it)
    const sent = await kit.call(company.admin, 'POST', `/messages/${ticketId}`, { body: 'ainda aí?' });
    expect(sent.status).toBe(201);
    const [message] = sent.body.messages;
    await eventually(async () => (await kit.knex('messages').where({ id: message.id }).first()).sendStatus !== 'pending');
    // and it stays failed once the admin disconnects (the connection refused it before any outbox)
    const disconnect = await kit.call(company.admin, 'DELETE', `/whatsappsession/${company.whatsappId}`);
    expect(disconnect.status).toBe(200);
    await eventually(async () => (await kit.knex('messages').where({ id: message.id }).first()).sendStatus === 'failed');
  });

  it('stops asking after the QR codes run out (TIMEOUT), and starts again on request', async () => {
    const quick = await startWhatsAppPeer({ qrRefs: 2 });
    const app = await createTestApp();
    try {
      usePeer(app, quick, { qrTimeoutMs: 150 });
      const quickKit = new WhatsAppKit(app);
      const company = await quickKit.company();
      await quickKit.startForQr(company);
      const row = await quickKit.connectionWhen(company.whatsappId, (r) => r.status === 'TIMEOUT');
      expect(row).toMatchObject({ sessionError: 'ERR_WAPP_QR_EXPIRED', qrcode: '' });
      await eventually(() => quickKit.session(company.whatsappId) === undefined, 5_000, 'the session to end');
      const again = await quickKit.startForQr(company);
      expect(again.length).toBeGreaterThan(10);
    } finally {
      await app.close();
      await quick.stop();
    }
  });

  it('pairs by phone number: the code goes to the connection, the phone types it, CONNECTED', async () => {
    const company = await kit.company();
    const account = peer.account(phone(), { pushName: 'Acme' });
    const bad = await kit.call(company.admin, 'POST', `/whatsappsession/${company.whatsappId}/pairing-code`, { number: '12' });
    expect(bad).toMatchObject({ status: 400, body: { error: 'ERR_WAPP_PAIRING_NUMBER_INVALID' } });
    const asked = await kit.call(company.admin, 'POST', `/whatsappsession/${company.whatsappId}/pairing-code`, {
      number: `+${account.pn}`,
    });
    expect(asked.status).toBe(200);
    const row = await kit.connectionWhen(company.whatsappId, (r) => r.status === 'PAIRING' && Boolean(r.pairingCode));
    await peer.enterPairingCode(account, String(row.pairingCode));
    const connected = await kit.connectionWhen(company.whatsappId, (r) => r.status === 'CONNECTED');
    expect(connected).toMatchObject({ pairingCode: null, number: account.pn });
  });

  it('disconnects by hand: logs out from the phone and forgets the pairing', async () => {
    const { company, account } = await conversation();
    const stopped = await kit.call(company.admin, 'DELETE', `/whatsappsession/${company.whatsappId}`);
    expect(stopped).toMatchObject({ status: 200, body: { status: 'DISCONNECTED' } });
    await eventually(() => account.devices.length === 0);
    await eventually(async () => !(await kit.knex('whatsappAuthCreds').where({ whatsappId: company.whatsappId }).first()));
    expect((await kit.row(company.whatsappId))?.status).toBe('DISCONNECTED');
  });
});

describe('more of the conversation', () => {
  it("edits, deletes, reacts to and forwards the agent's messages on WhatsApp, and its acks reach the agent live", async () => {
    const { company, customer, ticketId, firstId } = await conversation('tudo certo?');
    await accept(company.admin, ticketId);
    const socket = await connectSocket(await listen(), company.companyId, company.admin.token);
    const events = recordEvents(socket);
    try {
      const sent = await kit.call(company.admin, 'POST', `/messages/${ticketId}`, { body: 'primeira versão' });
      const mine = sent.body.messages[0] as { id: number };
      const original = await customer.waitFor((m) => textOf(m) === 'primeira versão');
      // the customer's phone reads it: the agent sees ack 3 arrive on its socket
      await eventually(async () => (await kit.knex('messages').where({ id: mine.id }).first()).ack >= 2);
      customer.readReceipt(peer.account((await kit.row(company.whatsappId))?.number as string), [original.id]);
      await eventually(
        () =>
          events.some(
            (e) =>
              e.event === `company-${company.companyId}-appMessage` &&
              (e.payload as { action: string; message?: { id: number; ack: number } }).message?.id === mine.id &&
              ((e.payload as { message: { ack: number } }).message.ack ?? 0) >= 3,
          ),
        10_000,
        'ack 3 on the agent socket',
      );

      expect((await kit.call(company.admin, 'POST', `/messages/edit/${mine.id}`, { body: 'versão corrigida' })).status).toBe(200);
      const edit = await customer.waitFor(
        (m) => m.message.protocolMessage?.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
      );
      expect(edit.message.protocolMessage?.key?.id).toBe(original.id);
      expect(textOf({ message: edit.message.protocolMessage?.editedMessage ?? {} })).toBe('versão corrigida');

      const first = await kit.knex('messages').where({ channelMessageId: firstId }).first();
      expect((await kit.call(company.admin, 'POST', `/messages/${first.id}/reactions`, { type: '👍' })).status).toBe(200);
      const reaction = await customer.waitFor((m) => Boolean(m.message.reactionMessage));
      expect(reaction.message.reactionMessage).toMatchObject({ text: '👍', key: { id: firstId } });

      expect((await kit.call(company.admin, 'DELETE', `/messages/${mine.id}`)).status).toBe(200);
      const revoke = await customer.waitFor((m) => m.message.protocolMessage?.type === proto.Message.ProtocolMessage.Type.REVOKE);
      expect(revoke.message.protocolMessage?.key?.id).toBe(original.id);

      const forwarded = await kit.call(company.admin, 'POST', '/message/forward', {
        messageId: first.id,
        contactId: first.contactId,
      });
      expect(forwarded.status).toBe(201);
      const copy = await customer.waitFor((m) => textOf(m) === 'tudo certo?' && m.id !== firstId);
      expect(copy.message.extendedTextMessage?.contextInfo?.isForwarded).toBe(true);
    } finally {
      socket.close();
    }
  });

  it("keeps a sent message for WhatsApp's retry requests (getMessage reads the outbox)", async () => {
    const { company, ticketId } = await conversation();
    await accept(company.admin, ticketId);
    const sent = await kit.call(company.admin, 'POST', `/messages/${ticketId}`, { body: 'guardada para reenvio' });
    const message = await eventually(() =>
      kit.knex('messages').where({ id: sent.body.messages[0].id }).where('ack', '>=', 1).first(),
    );
    const row = await eventually(() =>
      kit.knex('whatsappOutbox').where({ channelMessageId: message.channelMessageId, state: 'sent' }).first(),
    );
    expect(textOf({ message: proto.Message.decode(row.content) })).toBe('guardada para reenvio');
  });

  it('takes group messages only when the connection allows groups: the group is the ticket, named by its subject', async () => {
    const company = await kit.company({ allowGroup: true });
    const account = peer.account(phone(), { pushName: 'Acme' });
    await kit.pair(peer, company, account);
    const ana = peer.contact(phone(), { pushName: 'Ana' });
    const bia = peer.contact(phone(), { pushName: 'Bia' });
    const group = peer.group(account, 'Clientes VIP', [ana, bia]);
    const id = await ana.sendText(group, 'bom dia, grupo');
    const message = await eventually(() =>
      kit.knex('messages').where({ whatsappId: company.whatsappId, channelMessageId: id }).first(),
    );
    const ticket = await kit.knex('tickets').where({ id: message.ticketId }).first();
    expect(ticket.isGroup).toBe(true);
    const groupContact = await kit.knex('contacts').where({ id: ticket.contactId }).first();
    expect(groupContact).toMatchObject({ isGroup: true, name: 'Clientes VIP' });
    const participant = await kit.knex('contacts').where({ id: message.contactId }).first();
    expect(participant.name).toBe('Ana');

    await kit.knex('whatsapps').where({ id: company.whatsappId }).update({ allowGroup: false });
    const ignored = await bia.sendText(group, 'ninguém vai ver');
    await account.waitForReceipt((r) => r.ids.includes(ignored));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await kit.knex('messages').where({ channelMessageId: ignored }).first()).toBeUndefined();
  });

  it("logs every call; with calls refused it rejects them and answers with the company's message", async () => {
    const { company, account, customer, ticketId } = await conversation();
    customer.call(account);
    const log = await eventually(() => kit.knex('messages').where({ ticketId, mediaType: 'call_log' }).first());
    expect(log.fromMe).toBe(false);
    expect(customer.rejectedCalls).toHaveLength(0);

    await kit.setting(company.companyId, 'acceptCallWhatsapp', 'disabled');
    await kit.setting(company.companyId, 'AcceptCallWhatsappMessage', 'Não atendemos ligações, escreva por aqui.');
    const callId = customer.call(account, { video: true });
    await eventually(() => customer.rejectedCalls.includes(callId), 10_000, 'the call to be rejected');
    await customer.waitFor((m) => textOf(m) === 'Não atendemos ligações, escreva por aqui.');
  });

  it('backs off when another session keeps replacing this one, and says so', async () => {
    const app = await createTestApp();
    try {
      // the kit's reconnectMaxMs (1 s) would cap the third wait (1.6 s) below what the doubling promises
      usePeer(app, peer, { conflictBaseMs: 400, reconnectMaxMs: 5_000 });
      const conflictKit = new WhatsAppKit(app);
      const company = await conflictKit.company();
      const account = peer.account(phone());
      await conflictKit.pair(peer, company, account);
      const times: number[] = [];
      for (let round = 0; round < 3; round++) {
        const logins = account.loginCount;
        const at = Date.now();
        peer.conflict(account);
        await eventually(() => account.loginCount > logins, 10_000, `login after conflict ${round + 1}`);
        times.push(Date.now() - at);
      }
      // each conflict waits about twice the previous one (with jitter: ×0.5 to ×1.5)
      expect(times[0]).toBeGreaterThanOrEqual(150);
      expect(times[2]).toBeGreaterThanOrEqual(700);
      expect((await conflictKit.row(company.whatsappId))?.status).not.toBe('DISCONNECTED');
    } finally {
      await app.close();
    }
  }, 30_000);
});

describe('history', () => {
  it('imports the window of old messages on a new pairing, as history, and closes its tickets on request', async () => {
    const day = 86_400;
    const now = Math.floor(Date.now() / 1000);
    const iso = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
    const company = await kit.company({});
    const queueId = await kit.queue(company.companyId);
    await kit
      .knex('whatsapps')
      .where({ id: company.whatsappId })
      .update({
        importOldMessages: iso(now - 10 * day),
        importRecentMessages: iso(now),
        queueIdImportMessages: queueId,
        closedTicketsPostImported: false,
      });
    const account = peer.account(phone());
    const socket = await connectSocket(await listen(), company.companyId, company.admin.token);
    const events = recordEvents(socket);
    try {
      await kit.pair(peer, company, account);
      await kit.connectionWhen(company.whatsappId, (r) => Number(r.statusImportMessages) > 0);
      const ana = peer.contact(phone(), { pushName: 'Ana' });
      const bia = peer.contact(phone(), { pushName: 'Bia' });
      await peer.sendHistorySync(account, {
        syncType: proto.HistorySync.HistorySyncType.FULL,
        messages: [
          ana.historyEntry('pedido de três dias atrás', { timestamp: now - 3 * day }),
          ana.historyEntry('respondido pelo celular', { timestamp: now - 3 * day + 60, fromCompany: true }),
          bia.historyEntry('de um mês atrás: fora da janela', { timestamp: now - 30 * day }),
        ],
        progress: 100,
      });
      const row = await kit.connectionWhen(company.whatsappId, (r) => r.statusImportMessages === 'renderButtonCloseTickets');
      expect(row.statusImportMessages).toBe('renderButtonCloseTickets');
      const imported = await kit
        .knex('messages')
        .where({ whatsappId: company.whatsappId })
        .whereIn('body', ['pedido de três dias atrás', 'respondido pelo celular', 'de um mês atrás: fora da janela']);
      expect(imported.map((m) => m.body).sort()).toEqual(['pedido de três dias atrás', 'respondido pelo celular']);
      expect(imported.every((m) => m.read === true)).toBe(true);
      const ticket = await kit.knex('tickets').where({ id: imported[0].ticketId }).first();
      expect(ticket).toMatchObject({ queueId, unreadMessages: 0, status: 'pending' });
      expect(
        events.some(
          (e) => e.event === `importMessages-${company.companyId}` && (e.payload as { action: string }).action === 'update',
        ),
      ).toBe(true);

      const closed = await kit.call(company.admin, 'POST', `/closedimported/${company.whatsappId}`);
      expect(closed).toMatchObject({ status: 200, body: { closed: 1 } });
      expect((await kit.knex('tickets').where({ id: ticket.id }).first()).status).toBe('closed');
      expect((await kit.row(company.whatsappId))?.statusImportMessages).toBeNull();
      // another company can't close them
      const other = await kit.company();
      expect((await kit.call(other.admin, 'POST', `/closedimported/${company.whatsappId}`)).status).toBe(404);
    } finally {
      socket.close();
    }
  });

  it('takes history newer than the downtime as new messages (the gap), never older ones without an import', async () => {
    const { company, account, customer } = await conversation();
    const before = Math.floor(Date.now() / 1000) - 3_600;
    const logins = account.loginCount;
    peer.drop(account);
    // back after the drop (so the session noted until when it had heard everything)
    await eventually(() => account.loginCount > logins, 10_000, 'the login after the drop');
    await kit.connectionWhen(company.whatsappId, (r) => r.status === 'CONNECTED');
    const later = Math.floor(Date.now() / 1000) + 1;
    await peer.sendHistorySync(account, {
      messages: [
        customer.historyEntry('perdida na queda', { timestamp: later }),
        customer.historyEntry('antiga, sem importação', { timestamp: before }),
      ],
    });
    const gap = await eventually(() =>
      kit.knex('messages').where({ whatsappId: company.whatsappId, body: 'perdida na queda' }).first(),
    );
    expect(gap.read).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      await kit.knex('messages').where({ whatsappId: company.whatsappId, body: 'antiga, sem importação' }).first(),
    ).toBeUndefined();
  });
});
