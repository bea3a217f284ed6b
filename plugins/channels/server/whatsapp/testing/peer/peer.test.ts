import { randomBytes } from 'node:crypto';
import type { Boom } from '@hapi/boom';
import makeWASocket, {
  type AuthenticationState,
  type BaileysEventMap,
  DisconnectReason,
  downloadMediaMessage,
  initAuthCreds,
  proto,
  type SignalDataTypeMap,
  type UserFacingSocketConfig,
  type WAMessage,
} from '@whiskeysockets/baileys';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { muteLibsignalConsole, type PeerAccount, type PeerContact, startWhatsAppPeer, type WhatsAppPeer } from './index';

/**
 * The peer proven with an unmodified Baileys client: linking (QR, pairing code, QR expiry), login with saved
 * credentials, every inbound message kind from a LID contact, outbound text / media / replies, receipts both
 * ways, groups with sender keys, history sync, offline delivery, and the server's disconnects.
 */

muteLibsignalConsole();

let peer: WhatsAppPeer;
const logger = pino({ level: process.env.WA_CLIENT_LOG ?? 'silent' });

beforeAll(async () => {
  peer = await startWhatsAppPeer();
});
afterAll(async () => {
  await peer?.stop();
});

/** Baileys' auth state in memory: `initAuthCreds()` and a tiny key store (`store` keyed `<type>:<id>`). */
function memoryAuth(): AuthenticationState & { store: Map<string, unknown> } {
  const creds = initAuthCreds();
  const store = new Map<string, unknown>();
  return {
    store,
    creds,
    keys: {
      get: (type, ids) => {
        const out: { [id: string]: SignalDataTypeMap[typeof type] } = {};
        for (const id of ids) {
          const value = store.get(`${type}:${id}`);
          if (value !== undefined) out[id] = value as SignalDataTypeMap[typeof type];
        }
        return out;
      },
      set: (data) => {
        for (const [type, values] of Object.entries(data)) {
          for (const [id, value] of Object.entries(values ?? {})) {
            if (value === null || value === undefined) store.delete(`${type}:${id}`);
            else store.set(`${type}:${id}`, value);
          }
        }
      },
    },
  };
}

type Socket = ReturnType<typeof makeWASocket>;

/** A Baileys client and everything it emitted. */
interface Client {
  sock: Socket;
  auth: AuthenticationState;
  qrs: string[];
  upserts: { type: string; message: WAMessage }[];
  updates: BaileysEventMap['messages.update'];
  reactions: BaileysEventMap['messages.reaction'];
  groups: BaileysEventMap['groups.upsert'];
  history: BaileysEventMap['messaging-history.set'][];
  opened: Promise<void>;
  closed: Promise<Boom>;
}

function start(auth: AuthenticationState, config: Partial<UserFacingSocketConfig> = {}, target = peer): Client {
  const sock = makeWASocket({ ...target.clientOptions, auth, logger, keepAliveIntervalMs: 10_000, ...config });
  const client: Client = {
    sock,
    auth,
    qrs: [],
    upserts: [],
    updates: [],
    reactions: [],
    groups: [],
    history: [],
    opened: Promise.resolve(),
    closed: Promise.resolve() as unknown as Promise<Boom>,
  };
  client.opened = new Promise((resolve, reject) => {
    client.closed = new Promise((resolveClosed) => {
      sock.ev.on('connection.update', (update) => {
        if (update.qr) client.qrs.push(update.qr);
        if (update.connection === 'open') resolve();
        if (update.connection === 'close') {
          const error = update.lastDisconnect?.error as Boom;
          reject(error);
          resolveClosed(error);
        }
      });
    });
  });
  client.opened.catch(() => undefined);
  sock.ev.on('messages.upsert', ({ messages, type }) => {
    for (const message of messages) client.upserts.push({ type, message });
  });
  sock.ev.on('messages.update', (updates) => client.updates.push(...updates));
  sock.ev.on('messages.reaction', (reactions) => client.reactions.push(...reactions));
  sock.ev.on('groups.upsert', (groups) => client.groups.push(...groups));
  sock.ev.on('messaging-history.set', (history) => client.history.push(history));
  return client;
}

async function until<T>(read: () => T | undefined | false, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

const statusOf = (error: Boom | undefined) => error?.output?.statusCode;

/** Links a fresh client to the account by QR and logs it in. */
async function pair(account: PeerAccount): Promise<Client> {
  const auth = memoryAuth();
  const linking = start(auth);
  const qr = await until(() => linking.qrs[0]);
  await peer.scanQr(qr, account);
  expect(statusOf(await linking.closed)).toBe(DisconnectReason.restartRequired);
  const client = start(auth);
  await client.opened;
  // the phone's initial sync (app-state key, bootstrap history) processed and acknowledged
  await until(() => client.history.length > 0 && account.undelivered === 0);
  return client;
}

/**
 * A sent message's status: from `messages.update`, or from its own `messages.upsert` — Baileys' event buffer
 * folds an update into a still-buffered upsert of the same message instead of emitting it.
 */
function messageStatus(client: Client, id: string): number | undefined {
  const statuses = [
    ...client.upserts.filter((u) => u.message.key.id === id).map((u) => u.message.status),
    ...client.updates.filter((u) => u.key.id === id).map((u) => u.update.status),
  ].filter((s): s is number => typeof s === 'number');
  return statuses.length ? Math.max(...statuses) : undefined;
}

async function upsert(client: Client, id: string): Promise<{ type: string; message: WAMessage }> {
  return until(() => client.upserts.find((u) => u.message.key.id === id));
}

describe('linking and login', () => {
  it('pairs by QR (pair-success, 515), logs in, and logs in again later with the saved credentials', async () => {
    const account = peer.account('5511900000001', { lid: '100000000000001', pushName: 'Acme QR' });
    const client = await pair(account);
    expect(client.auth.creds.me).toMatchObject({
      id: '5511900000001:1@s.whatsapp.net',
      lid: '100000000000001:1@lid',
      name: 'Acme QR',
    });
    expect(client.qrs).toEqual([]);
    client.sock.end(undefined);
    await client.closed;

    const again = start(client.auth);
    await again.opened;
    expect(again.qrs).toEqual([]);
    expect(account.loginCount).toBe(2);
    expect(account.maxConcurrentSessions).toBe(1);
    expect(peer.connections).toContainEqual(expect.objectContaining({ account: account.pn, device: 1, state: 'logged-in' }));
    again.sock.end(undefined);
    await again.closed;
  });

  it('pairs with a pairing code (companion_hello → primary_hello → companion_finish)', async () => {
    const account = peer.account('5511900000002', { pushName: 'Acme Code' });
    const auth = memoryAuth();
    const linking = start(auth);
    await until(() => linking.qrs[0]);
    const code = await linking.sock.requestPairingCode(account.pn);
    // a mistyped code: the two sides derive different keys and the companion's key bundle does not open
    await expect(
      peer.enterPairingCode(
        account,
        code.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
      ),
    ).rejects.toThrow('wrong pairing code');
    const jid = await peer.enterPairingCode(account, code);
    expect(jid).toBe('5511900000002:1@s.whatsapp.net');
    expect(statusOf(await linking.closed)).toBe(DisconnectReason.restartRequired);
    expect(auth.creds.registered).toBe(true);
    const client = start(auth);
    await client.opened;
    expect(client.auth.creds.me?.id).toBe(jid);
    await until(() => client.history.length > 0 && account.undelivered === 0);
    client.sock.end(undefined);
    await client.closed;
  });

  it('ends with 408 when the QR refs run out', async () => {
    const short = await startWhatsAppPeer({ qrRefs: 2 });
    try {
      const client = start(memoryAuth(), { qrTimeout: 150 }, short);
      const error = await client.closed;
      expect(statusOf(error)).toBe(DisconnectReason.timedOut);
      expect(error.message).toBe('QR refs attempts ended');
      expect(client.qrs).toHaveLength(2);
    } finally {
      await short.stop();
    }
  });
});

describe('messages', () => {
  let account: PeerAccount;
  let ana: PeerContact;
  let bob: PeerContact;
  let client: Client;

  beforeAll(async () => {
    account = peer.account('5511999990000', { lid: '111111111111111', pushName: 'Acme' });
    ana = peer.contact('5511988887777', { lid: '222222222222222', pushName: 'Ana' });
    bob = peer.contact('5511977776666', { lid: '333333333333333', pushName: 'Bob' });
    client = await pair(account);
  });
  afterAll(async () => {
    client?.sock.end(undefined);
  });

  it('receives every kind of message from a LID contact, with the PN as the alternate address', async () => {
    const image = randomBytes(2_000);
    const text = await ana.sendText(account, 'olá', { asLid: true });
    const first = await upsert(client, text);
    expect(first.type).toBe('notify');
    expect(first.message.key).toMatchObject({
      remoteJid: ana.lidJid,
      remoteJidAlt: ana.jid,
      fromMe: false,
      addressingMode: 'lid',
    });
    expect(first.message.message?.conversation).toBe('olá');
    expect(first.message.pushName).toBe('Ana');

    const imageId = await ana.sendImage(account, image, { caption: 'foto', asLid: true });
    const received = (await upsert(client, imageId)).message;
    expect(received.message?.imageMessage?.caption).toBe('foto');
    expect(await downloadMediaMessage(received, 'buffer', peer.downloadOptions)).toEqual(image);

    const voice = randomBytes(900);
    const audioId = await ana.sendAudio(account, voice, { ptt: true, seconds: 3, asLid: true });
    const audio = (await upsert(client, audioId)).message;
    expect(audio.message?.audioMessage?.ptt).toBe(true);
    expect(await downloadMediaMessage(audio, 'buffer', peer.downloadOptions)).toEqual(voice);

    const pdf = randomBytes(1_500);
    const docId = await ana.sendDocument(account, pdf, { fileName: 'boleto.pdf', mimetype: 'application/pdf', asLid: true });
    const doc = (await upsert(client, docId)).message;
    expect(doc.message?.documentMessage).toMatchObject({ fileName: 'boleto.pdf', mimetype: 'application/pdf' });
    expect(await downloadMediaMessage(doc, 'buffer', peer.downloadOptions)).toEqual(pdf);

    const locId = await ana.sendLocation(account, { latitude: -23.55, longitude: -46.63, name: 'Sé' }, { asLid: true });
    expect((await upsert(client, locId)).message.message?.locationMessage).toMatchObject({ degreesLatitude: -23.55, name: 'Sé' });

    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Carlos\nTEL;type=CELL;waid=5511966665555:+55 11 96666-5555\nEND:VCARD';
    const cardId = await ana.sendContact(account, { displayName: 'Carlos', vcard }, { asLid: true });
    expect((await upsert(client, cardId)).message.message?.contactMessage).toMatchObject({ displayName: 'Carlos', vcard });

    // a reply from the company, then the contact reacts to it
    const reply = await client.sock.sendMessage(ana.lidJid, { text: 'recebido' });
    await ana.waitFor((m) => m.id === reply?.key.id);
    await ana.sendReaction(account, reply?.key.id ?? '', '👍', { asLid: true });
    const reaction = await until(() => client.reactions.find((r) => r.key.id === reply?.key.id));
    expect(reaction.reaction.text).toBe('👍');
    expect(reaction.key.fromMe).toBe(true);

    await ana.edit(account, text, 'olá, bom dia', { asLid: true });
    const edit = await until(() => client.updates.find((u) => u.key.id === text && u.update.message?.editedMessage));
    expect(edit.update.message?.editedMessage?.message?.conversation).toBe('olá, bom dia');

    await ana.revoke(account, locId, { asLid: true });
    const revoke = await until(() => client.updates.find((u) => u.key.id === locId && u.update.messageStubType !== undefined));
    expect(revoke.update.messageStubType).toBe(proto.WebMessageInfo.StubType.REVOKE);
  });

  it('sends text, media and quoted replies that the contact decrypts', async () => {
    const inbound = await ana.sendText(account, 'preciso de ajuda');
    const quoted = (await upsert(client, inbound)).message;
    expect(quoted.key).toMatchObject({ remoteJid: ana.jid, remoteJidAlt: ana.lidJid, addressingMode: 'pn' });

    const text = await client.sock.sendMessage(ana.jid, { text: 'Olá Ana, como posso ajudar?' });
    const got = await ana.waitFor((m) => m.id === text?.key.id);
    expect(got.message.extendedTextMessage?.text ?? got.message.conversation).toBe('Olá Ana, como posso ajudar?');
    expect(got).toMatchObject({ to: ana.jid, from: '5511999990000:1@s.whatsapp.net' });

    const image = randomBytes(3_000);
    const sent = await client.sock.sendMessage(ana.jid, { image, caption: 'segue' });
    const media = await ana.waitFor((m) => m.id === sent?.key.id);
    expect(media.message.imageMessage?.caption).toBe('segue');
    expect(await ana.downloadMedia(media.message)).toEqual(image);
    expect(peer.media.uploads).toBeGreaterThan(0);

    const reply = await client.sock.sendMessage(ana.jid, { text: 'respondendo' }, { quoted });
    const replied = await ana.waitFor((m) => m.id === reply?.key.id);
    expect(replied.message.extendedTextMessage?.contextInfo).toMatchObject({ stanzaId: inbound });
  });

  it('carries receipts both ways: delivery and read from the contact, read from the client only when asked', async () => {
    const sent = await client.sock.sendMessage(ana.jid, { text: 'chegou?' });
    const id = sent?.key.id ?? '';
    await until(() => messageStatus(client, id) === proto.WebMessageInfo.Status.DELIVERY_ACK);
    ana.readReceipt(account, [id]);
    await until(() => messageStatus(client, id) === proto.WebMessageInfo.Status.READ);
    const read = client.updates.find((u) => u.key.id === id && u.update.status === proto.WebMessageInfo.Status.READ);
    expect(read?.key).toMatchObject({ remoteJid: ana.jid, fromMe: true });

    const inbound = await ana.sendText(account, 'vou ler?');
    const message = (await upsert(client, inbound)).message;
    await account.waitForReceipt((r) => r.type === 'delivery' && r.ids.includes(inbound));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(account.receipts.some((r) => r.type === 'read' && r.ids.includes(inbound))).toBe(false);
    await client.sock.readMessages([message.key]);
    const readReceipt = await account.waitForReceipt((r) => r.type === 'read' && r.ids.includes(inbound));
    expect(readReceipt).toMatchObject({ to: ana.jid, device: 1 });
  });

  it('exchanges group messages with sender keys', async () => {
    const group = peer.group(account, 'Equipe', [ana, bob]);
    await until(() => client.groups.find((g) => g.id === group.jid));
    const fromAna = await ana.sendText(group, 'oi grupo');
    const got = (await upsert(client, fromAna)).message;
    expect(got.key).toMatchObject({ remoteJid: group.jid, participant: ana.lidJid, participantAlt: ana.jid });
    expect(got.message?.conversation).toBe('oi grupo');
    const second = await bob.sendText(group, 'oi de novo');
    expect((await upsert(client, second)).message.message?.conversation).toBe('oi de novo');

    const sent = await client.sock.sendMessage(group.jid, { text: 'bom dia, equipe' });
    for (const member of [ana, bob]) {
      const received = await member.waitFor((m) => m.id === sent?.key.id);
      expect(received).toMatchObject({ group: group.jid, encType: 'skmsg' });
      expect(received.message.extendedTextMessage?.text ?? received.message.conversation).toBe('bom dia, equipe');
    }
  });

  it('answers retry receipts: a client that lost its session gets the message again under a new one', async () => {
    // the client already talks to Ana: her messages are plain `msg` now
    const before = await ana.sendText(account, 'primeira');
    await upsert(client, before);
    const reply = await client.sock.sendMessage(ana.jid, { text: 'ok' });
    await ana.waitFor((m) => m.id === reply?.key.id);
    const store = (client.auth as ReturnType<typeof memoryAuth>).store;
    for (const key of [...store.keys()]) if (key.startsWith('session:') && key.includes(ana.lid)) store.delete(key);
    const id = await ana.sendText(account, 'de novo');
    // Baileys first upserts a CIPHERTEXT stub, asks again (retry 1: same session; retry 2: with new prekeys)…
    const stub = await upsert(client, id);
    expect(stub.message.messageStubType).toBe(proto.WebMessageInfo.StubType.CIPHERTEXT);
    // …and the contact re-keys from the keys in the retry receipt and sends it again
    const again = await until(() => client.upserts.find((u) => u.message.key.id === id && u.message.message?.conversation));
    expect(again.message.message?.conversation).toBe('de novo');
    expect(account.receipts.some((r) => r.type === 'retry' && r.ids.includes(id))).toBe(true);
  });

  it('tells the client when its uploaded prekeys run low, and it uploads more', async () => {
    const device = account.devices[0];
    if (!device) throw new Error('no linked device');
    device.preKeys.splice(5);
    const dora = peer.contact('5511944443333', { pushName: 'Dora' });
    const id = await dora.sendText(account, 'oi');
    await upsert(client, id);
    await until(() => device.preKeys.length >= 9);
  });

  it('takes a burst (prepared, then written at once) and delivers it in order', async () => {
    const texts = Array.from({ length: 300 }, (_, i) => `burst ${i}`);
    const batch = await bob.prepareMany(account, texts);
    const started = performance.now();
    batch.send();
    await until(
      () => client.upserts.filter((u) => u.message.message?.conversation?.startsWith('burst ')).length === texts.length,
      15_000,
    );
    const elapsed = performance.now() - started;
    const received = client.upserts.filter((u) => u.message.message?.conversation?.startsWith('burst '));
    expect(received.map((u) => u.message.key.id)).toEqual(batch.ids);
    await until(() => account.undelivered === 0);
    console.info(`burst: ${texts.length} messages through Baileys in ${elapsed.toFixed(0)} ms`);
  });

  it('delivers a history sync (uploaded, encrypted) as messaging-history.set', async () => {
    await peer.sendHistorySync(account, {
      messages: [
        ana.historyEntry('pedido 123', { id: 'HIST1' }),
        ana.historyEntry('enviado', { id: 'HIST2', fromCompany: true }),
      ],
    });
    const history = await until(() => client.history.find((h) => h.messages.some((m) => m.key.id === 'HIST1')));
    expect(history.messages.map((m) => m.key.id)).toEqual(['HIST1', 'HIST2']);
    expect(history.syncType).toBe(proto.HistorySync.HistorySyncType.RECENT);
  });
});

describe('disconnects', () => {
  it('queues messages while the client is away and delivers them at the next login', async () => {
    const account = peer.account('5511900000003', { pushName: 'Acme Offline' });
    const carla = peer.contact('5511955554444', { pushName: 'Carla' });
    const client = await pair(account);
    peer.drop(account);
    expect(statusOf(await client.closed)).toBe(DisconnectReason.connectionClosed);
    const ids = await carla.sendMany(account, ['um', 'dois', 'três']);
    const again = start(client.auth);
    await again.opened;
    for (const id of ids) expect((await upsert(again, id)).type).toBe('append');
    expect(again.upserts.map((u) => u.message.message?.conversation).filter(Boolean)).toEqual(['um', 'dois', 'três']);
    expect(account.maxConcurrentSessions).toBe(1);
    again.sock.end(undefined);
    await again.closed;
  });

  it('replaces a session with conflict (440)', async () => {
    const account = peer.account('5511900000004', { pushName: 'Acme Conflict' });
    const client = await pair(account);
    peer.conflict(account);
    expect(statusOf(await client.closed)).toBe(DisconnectReason.connectionReplaced);
  });

  it('logs the device out (401) and refuses its credentials afterwards', async () => {
    const account = peer.account('5511900000005', { pushName: 'Acme Logout' });
    const client = await pair(account);
    peer.logout(account);
    expect(statusOf(await client.closed)).toBe(DisconnectReason.loggedOut);
    const again = start(client.auth);
    expect(statusOf(await again.closed)).toBe(DisconnectReason.loggedOut);
  });
});
