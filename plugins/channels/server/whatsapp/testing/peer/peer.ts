import { randomBytes, randomInt } from 'node:crypto';
import type { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import {
  aesDecryptCTR,
  aesDecryptGCM,
  aesEncryptCTR,
  type BinaryNode,
  binaryNodeToString,
  Curve,
  decodeBinaryNode,
  derivePairingCodeKey,
  encodeBigEndian,
  encodeBinaryNode,
  generateSignalPubKey,
  getAllBinaryNodeChildren,
  getBinaryNodeChild,
  getBinaryNodeChildBuffer,
  getBinaryNodeChildren,
  getBinaryNodeChildString,
  hkdf,
  hmacSign,
  jidDecode,
  KEY_BUNDLE_TYPE,
  type KeyPair,
  proto,
  S_WHATSAPP_NET,
  type SocketConfig,
  unixTimestampSeconds,
  WA_ADV_ACCOUNT_SIG_PREFIX,
  WA_ADV_DEVICE_SIG_PREFIX,
} from '@whiskeysockets/baileys';
import type { ILogger } from '@whiskeysockets/baileys/lib/Utils/logger.js';
import pino from 'pino';
import type { Agent as UndiciAgent } from 'undici';
import { type WebSocket, WebSocketServer } from 'ws';
import { encryptMedia, MediaServer } from './media';
import { makeServerIdentity, NoiseResponder, type NoiseTransport, type ServerIdentity, trustPeerRoot } from './noise';
import {
  type AccountOptions,
  Companion,
  type CompanionReceipt,
  type ContactOptions,
  type Deliverable,
  type GroupOptions,
  newMessageId,
  PeerAccount,
  PeerContact,
  type PeerCore,
  PeerGroup,
} from './parties';
import { makeClientTransport, type PeerTls, peerTls } from './tls';

export interface WhatsAppPeerOptions {
  /**
   * How many QR refs the server sends in `pair-device` (WhatsApp sends a handful; Baileys shows one per
   * `qrTimeout` and ends with 408 "QR refs attempts ended" when they run out). Default 6.
   */
  qrRefs?: number;
  /** contacts answer accepted messages with a delivery receipt (default true; per contact too) */
  autoDeliveryReceipts?: boolean;
  /**
   * After a newly linked device's first login the primary phone sends an app-state key share and the initial
   * history sync (INITIAL_BOOTSTRAP, inline), as a real phone does — without it Baileys holds its events up to
   * 20 s waiting for history. Default true.
   */
  initialSync?: boolean;
  /** pino-style logger; default: silent unless `WA_PEER_LOG` names a level (debug shows every unknown stanza) */
  logger?: ILogger;
}

/** What a Baileys client needs, besides `auth`, to use this peer (spread it into `makeWASocket`). */
export type PeerClientOptions = Pick<SocketConfig, 'waWebSocketUrl' | 'fetchAgent' | 'options'>;

export interface PeerConnectionInfo {
  id: number;
  state: 'handshake' | 'registering' | 'logged-in';
  /** the account phone number and device, once logged in */
  account?: string;
  device?: number;
  /** active: the client asked to receive (passive → active) */
  active: boolean;
}

export interface HistorySyncOptions {
  syncType?: proto.HistorySync.HistorySyncType;
  /** messages to include; grouped into conversations by `key.remoteJid` */
  messages?: proto.IWebMessageInfo[];
  /** extra conversations, as is */
  conversations?: proto.IConversation[];
  pushnames?: proto.IPushname[];
  progress?: number;
  chunkOrder?: number;
  /** carry the payload inline in the notification instead of uploading it (WhatsApp does so for INITIAL_BOOTSTRAP) */
  inline?: boolean;
}

interface Registration {
  conn: Connection;
  noiseKey: Buffer;
  identity: Buffer;
  registrationId: number;
  signedPreKey: { keyId: number; public: Uint8Array; signature: Uint8Array };
  platform: string;
  refs: string[];
  pairing: boolean;
  paired?: boolean;
  linkCode?: {
    phone: string;
    ref: string;
    wrappedCompanionEphemeral: Buffer;
    primary?: {
      account: PeerAccount;
      primaryEphemeral: KeyPair;
      companionEphemeral: Buffer;
      resolve: (jid: string) => void;
      reject: (err: Error) => void;
    };
  };
}

const now = () => String(unixTimestampSeconds());

function iqResult(node: BinaryNode, content?: BinaryNode[]): BinaryNode {
  return {
    tag: 'iq',
    attrs: { from: node.attrs.to ?? S_WHATSAPP_NET, type: 'result', id: node.attrs.id ?? '' },
    content,
  };
}

function iqError(node: BinaryNode, code: number, text: string): BinaryNode {
  return {
    tag: 'iq',
    attrs: { from: node.attrs.to ?? S_WHATSAPP_NET, type: 'error', id: node.attrs.id ?? '' },
    content: [{ tag: 'error', attrs: { code: String(code), text } }],
  };
}

function uint(buffer: Uint8Array | undefined): number {
  let value = 0;
  for (const byte of buffer ?? []) value = value * 256 + byte;
  return value;
}

let connectionIds = 0;

/** One WebSocket from a client: Noise framing, then binary nodes in order. */
class Connection {
  readonly id = ++connectionIds;
  private inBytes: Buffer = Buffer.alloc(0);
  private introDone = false;
  private noise: NoiseResponder | undefined;
  private transport: NoiseTransport | undefined;
  private stage: 'hello' | 'finish' | 'open' = 'hello';
  private chain: Promise<void> = Promise.resolve();
  companion: Companion | undefined;
  registration: Registration | undefined;
  closed = false;
  private readonly serverIqs = new Map<string, { resolve: (node: BinaryNode) => void; reject: (err: Error) => void }>();

  constructor(
    private readonly peer: WhatsAppPeer,
    private readonly ws: WebSocket,
  ) {
    ws.on('message', (data: Buffer) => {
      try {
        this.onData(data);
      } catch (err) {
        peer.logger.warn({ err, conn: this.id }, 'peer: bad frame, closing');
        this.terminate();
      }
    });
    ws.on('close', () => this.onClose());
    ws.on('error', () => this.onClose());
  }

  get info(): PeerConnectionInfo {
    return {
      id: this.id,
      state: this.companion ? 'logged-in' : this.registration ? 'registering' : 'handshake',
      account: this.companion?.account.pn,
      device: this.companion?.device,
      active: !!this.companion?.active && this.companion.conn === this,
    };
  }

  private onData(data: Buffer): void {
    this.inBytes = this.inBytes.length ? Buffer.concat([this.inBytes, data]) : data;
    if (!this.introDone) {
      // "WA" + version + dictionary version; or "ED" + routing info first, then the same 4 bytes
      let offset = 0;
      if (this.inBytes[0] === 0x45 && this.inBytes[1] === 0x44) {
        if (this.inBytes.length < 7) return;
        offset = 7 + ((this.inBytes[4] ?? 0) << 16) + this.inBytes.readUInt16BE(5);
      }
      if (this.inBytes.length < offset + 4) return;
      const header = this.inBytes.subarray(offset, offset + 4);
      this.noise = new NoiseResponder(this.peer.serverIdentity, header);
      this.inBytes = this.inBytes.subarray(offset + 4);
      this.introDone = true;
    }
    while (this.inBytes.length >= 3) {
      const size = this.inBytes.readUIntBE(0, 3);
      if (this.inBytes.length < size + 3) return;
      const frame = this.inBytes.subarray(3, size + 3);
      this.inBytes = this.inBytes.subarray(size + 3);
      this.onFrame(frame);
    }
  }

  private onFrame(frame: Buffer): void {
    const noise = this.noise;
    if (!noise) throw new Error('frame before intro');
    if (this.stage === 'hello') {
      const { clientHello } = proto.HandshakeMessage.decode(frame);
      if (!clientHello) throw new Error('expected client hello');
      this.sendRaw(noise.serverHello(clientHello));
      this.stage = 'finish';
      return;
    }
    if (this.stage === 'finish') {
      const { clientFinish } = proto.HandshakeMessage.decode(frame);
      if (!clientFinish) throw new Error('expected client finish');
      const { clientStatic, payload, transport } = noise.clientFinish(clientFinish);
      this.transport = transport;
      this.stage = 'open';
      this.chain = this.chain
        .then(() => this.peer.onClientPayload(this, clientStatic, payload))
        .catch((err: unknown) => this.peer.logger.warn({ err, conn: this.id }, 'peer: error handling the client payload'));
      return;
    }
    // the transport counter must advance in arrival order: decrypt now, decode (async) in a chain
    const plain = (this.transport as NoiseTransport).decrypt(frame);
    this.chain = this.chain
      .then(async () => {
        if (this.closed) return;
        const node = await decodeBinaryNode(plain);
        await this.onNode(node);
      })
      .catch((err: unknown) => this.peer.logger.warn({ err, conn: this.id }, 'peer: error handling a stanza'));
  }

  private async onNode(node: BinaryNode): Promise<void> {
    if (node.tag === 'iq' && (node.attrs.type === 'result' || node.attrs.type === 'error')) {
      const waiting = this.serverIqs.get(node.attrs.id ?? '');
      if (waiting) {
        this.serverIqs.delete(node.attrs.id ?? '');
        waiting.resolve(node);
      }
      return;
    }
    await this.peer.onNode(this, node);
  }

  private sendRaw(payload: Uint8Array): void {
    const frame = Buffer.allocUnsafe(3 + payload.length);
    frame.writeUIntBE(payload.length, 0, 3);
    frame.set(payload, 3);
    this.ws.send(frame);
  }

  private frame(node: BinaryNode): Buffer {
    const payload = (this.transport as NoiseTransport).encrypt(encodeBinaryNode(node));
    const frame = Buffer.allocUnsafe(3 + payload.length);
    frame.writeUIntBE(payload.length, 0, 3);
    frame.set(payload, 3);
    return frame;
  }

  send(node: BinaryNode): void {
    if (this.closed || !this.transport) return;
    if (this.peer.logger.level === 'trace')
      this.peer.logger.trace({ conn: this.id, xml: binaryNodeToString(node) }, 'peer: send');
    this.ws.send(this.frame(node));
  }

  /** Several stanzas in one WebSocket message: Baileys' frame decoder reads every frame a message carries. */
  sendMany(nodes: BinaryNode[]): void {
    if (this.closed || !this.transport || !nodes.length) return;
    if (nodes.length === 1) {
      this.send(nodes[0] as BinaryNode);
      return;
    }
    this.ws.send(Buffer.concat(nodes.map((node) => this.frame(node))));
  }

  /** A server-initiated IQ; resolves with the client's answer. */
  query(node: BinaryNode, timeoutMs = 10_000): Promise<BinaryNode> {
    const id = node.attrs.id ?? newMessageId();
    node.attrs.id = id;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.serverIqs.delete(id);
        reject(new Error(`client did not answer iq ${id}`));
      }, timeoutMs);
      this.serverIqs.set(id, {
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
      this.send(node);
    });
  }

  /** Closes gracefully, optionally after a last stanza (a stream error, a failure). */
  close(reason?: BinaryNode): void {
    if (this.closed) return;
    if (reason) this.send(reason);
    this.ws.close();
    this.onClose();
  }

  /** Network loss: no closing handshake. */
  terminate(): void {
    this.ws.terminate();
    this.onClose();
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const waiting of this.serverIqs.values()) waiting.reject(new Error('the client disconnected'));
    this.serverIqs.clear();
    this.peer.onClose(this);
  }
}

/**
 * A loopback WhatsApp Web multi-device server for Baileys clients: Noise handshake, QR and pairing-code
 * linking, login, the IQs a client sends, Signal-encrypted messages with simulated contacts, receipts,
 * offline delivery, media over HTTPS, history sync, and the server's disconnects.
 */
export class WhatsAppPeer implements PeerCore {
  readonly logger: ILogger;
  readonly media = new MediaServer();
  readonly serverIdentity: ServerIdentity = makeServerIdentity();
  readonly autoDeliveryReceipts: boolean;
  private readonly qrRefs: number;
  private readonly initialSync: boolean;
  private wss: WebSocketServer | undefined;
  private readonly conns = new Set<Connection>();
  private readonly accounts = new Map<string, PeerAccount>();
  private readonly contacts = new Map<string, PeerContact>();
  /** every party by PN user and by LID user */
  private readonly byUser = new Map<string, PeerAccount | PeerContact>();
  private readonly groups = new Map<string, PeerGroup>();
  private readonly refs = new Map<string, Registration>();
  private readonly linkCodes = new Map<string, Registration>();
  /** `ws://127.0.0.1:<port>/ws/chat`: Baileys' `waWebSocketUrl` */
  url = '';
  tls!: PeerTls;
  /** an https.Agent trusting the peer's CA: Baileys' `fetchAgent` (media uploads) */
  httpsAgent!: HttpsAgent;
  /** an undici dispatcher trusting the peer's CA: for media downloads (fetch) */
  fetchDispatcher!: UndiciAgent;

  constructor(options: WhatsAppPeerOptions = {}) {
    this.logger = options.logger ?? pino({ level: process.env.WA_PEER_LOG ?? 'silent' });
    this.qrRefs = options.qrRefs ?? 6;
    this.autoDeliveryReceipts = options.autoDeliveryReceipts ?? true;
    this.initialSync = options.initialSync ?? true;
  }

  /** @internal use startWhatsAppPeer */
  async start(): Promise<void> {
    trustPeerRoot();
    this.tls = await peerTls();
    await this.media.start(this.tls);
    const { httpsAgent, fetchDispatcher } = makeClientTransport(this.tls, this.media.address);
    this.httpsAgent = httpsAgent;
    this.fetchDispatcher = fetchDispatcher;
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws/chat' });
    this.wss = wss;
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', reject);
    });
    this.url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws/chat`;
    wss.on('connection', (ws) => {
      const conn = new Connection(this, ws);
      this.conns.add(conn);
    });
  }

  /** Everything a Baileys client config needs to use this peer, besides `auth` (and `logger` etc. of your choice). */
  get clientOptions(): PeerClientOptions {
    return {
      waWebSocketUrl: this.url,
      fetchAgent: this.httpsAgent,
      // history-sync and app-state downloads use `config.options` as their fetch options
      options: { dispatcher: this.fetchDispatcher as unknown as RequestInit['dispatcher'] },
    };
  }

  /** The `options` argument of `downloadMediaMessage` / `downloadContentFromMessage` for media on this peer. */
  get downloadOptions(): { options: RequestInit } {
    return { options: { dispatcher: this.fetchDispatcher as unknown as RequestInit['dispatcher'] } };
  }

  /** Live WebSocket connections. */
  get connections(): PeerConnectionInfo[] {
    return [...this.conns].filter((c) => !c.closed).map((c) => c.info);
  }

  /** The company's account (its primary phone). Same number twice returns the same account. */
  account(pn: string, options: AccountOptions = {}): PeerAccount {
    const existing = this.accounts.get(pn);
    if (existing) return existing;
    const account = new PeerAccount(this, pn, options);
    this.accounts.set(pn, account);
    this.register(account);
    return account;
  }

  /** A WhatsApp user (one phone, device 0) that can write to accounts. Same number twice returns the same contact. */
  contact(pn: string, options: ContactOptions = {}): PeerContact {
    const existing = this.contacts.get(pn);
    if (existing) return existing;
    const contact = new PeerContact(this, pn, options);
    this.contacts.set(pn, contact);
    this.register(contact);
    return contact;
  }

  /**
   * A group with the account and contacts in it. The account's linked devices get the `w:gp2` create
   * notification (Baileys emits `groups.upsert`); the group answers metadata queries; contacts send to it with
   * sender keys (skmsg) and receive the client's group messages.
   */
  group(account: PeerAccount, subject: string, members: PeerContact[], options: GroupOptions = {}): PeerGroup {
    const group = new PeerGroup(account, subject, members, options);
    this.groups.set(group.jid, group);
    const lid = group.addressingMode === 'lid';
    for (const companion of account.devices) {
      const id = newMessageId();
      this.deliver(companion, [
        {
          key: `n:${id}`,
          node: {
            tag: 'notification',
            attrs: {
              from: group.jid,
              type: 'w:gp2',
              id,
              t: now(),
              participant: lid ? account.lidJid : account.jid,
              ...(lid ? { participant_pn: account.jid } : {}),
            },
            content: [{ tag: 'create', attrs: {}, content: [group.metadataNode()] }],
          },
        },
      ]);
    }
    return group;
  }

  private register(party: PeerAccount | PeerContact): void {
    this.byUser.set(party.pn, party);
    this.byUser.set(party.lid, party);
  }

  // ---- the simulated phone's actions --------------------------------------------------------------------

  /**
   * The account's phone scans the QR the client showed (`connection.update { qr }`): the server sends the
   * client `pair-success` with a device identity signed by the account key (and HMAC'd with the QR's ADV
   * secret), checks the client's signature in `pair-device-sign`, then ends the stream with 515 (restart
   * required), as WhatsApp does. Resolves with the new device's jid.
   */
  async scanQr(qr: string, account: PeerAccount): Promise<string> {
    const fields = qr.slice(qr.indexOf('#') + 1).split(',');
    const [ref, noiseB64, identityB64, advB64] = fields;
    const reg = this.refs.get(ref ?? '');
    if (!reg || reg.conn.closed) throw new Error('QR ref unknown or expired');
    if (!reg.noiseKey.equals(Buffer.from(noiseB64 ?? '', 'base64')))
      throw new Error('QR noise key does not match the connection');
    if (!reg.identity.equals(Buffer.from(identityB64 ?? '', 'base64')))
      throw new Error('QR identity does not match the registration');
    return this.completePairing(reg, account, Buffer.from(advB64 ?? '', 'base64'));
  }

  /**
   * The account's phone enters the pairing code the client got from `requestPairingCode(phone)`: the
   * link-code exchange of Baileys' socket.ts / messages-recv.ts (companion_hello → primary_hello notification →
   * companion_finish), then pair-success and 515 as for a QR. Resolves with the new device's jid.
   */
  async enterPairingCode(account: PeerAccount, code: string, timeoutMs = 5_000): Promise<string> {
    // requestPairingCode doesn't wait for the server: its companion_hello may still be on its way
    const deadline = Date.now() + timeoutMs;
    let reg = this.linkCodes.get(account.pn);
    while ((!reg?.linkCode || reg.conn.closed) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      reg = this.linkCodes.get(account.pn);
    }
    if (!reg?.linkCode || reg.conn.closed) throw new Error(`no pairing code was requested for ${account.pn}`);
    const link = reg.linkCode;
    const wrapped = link.wrappedCompanionEphemeral;
    const companionEphemeral = aesDecryptCTR(
      wrapped.subarray(48, 80),
      await derivePairingCodeKey(code, wrapped.subarray(0, 32)),
      wrapped.subarray(32, 48),
    );
    const primaryEphemeral = Curve.generateKeyPair();
    const salt = randomBytes(32);
    const iv = randomBytes(16);
    const wrappedPrimary = Buffer.concat([
      salt,
      iv,
      aesEncryptCTR(primaryEphemeral.public, await derivePairingCodeKey(code, salt), iv),
    ]);
    const done = new Promise<string>((resolve, reject) => {
      link.primary = { account, primaryEphemeral, companionEphemeral, resolve, reject };
    });
    const id = newMessageId();
    reg.conn.send({
      tag: 'notification',
      attrs: { from: S_WHATSAPP_NET, type: 'link_code_companion_reg', id, t: now() },
      content: [
        {
          tag: 'link_code_companion_reg',
          attrs: { stage: 'primary_hello' },
          content: [
            { tag: 'link_code_pairing_ref', attrs: {}, content: Buffer.from(link.ref) },
            { tag: 'primary_identity_pub', attrs: {}, content: account.identity.public },
            { tag: 'link_code_pairing_wrapped_primary_ephemeral_pub', attrs: {}, content: wrappedPrimary },
          ],
        },
      ],
    });
    return done;
  }

  /** Network loss for every connection of the account: sockets cut without a closing handshake. */
  drop(account: PeerAccount): void {
    for (const companion of account.devices) companion.conn?.terminate();
  }

  /**
   * The account unlinks its devices (from the phone): each connected device gets the server's stream error
   * (code 401, `device_removed`: Baileys' DisconnectReason.loggedOut) and every later login with those
   * credentials gets `failure 401`.
   */
  logout(account: PeerAccount): void {
    for (const companion of account.devices) {
      companion.removed = true;
      companion.queue = [];
      companion.pending.clear();
      companion.conn?.close({
        tag: 'stream:error',
        attrs: { code: '401' },
        content: [{ tag: 'conflict', attrs: { type: 'device_removed' } }],
      });
      companion.conn = undefined;
    }
  }

  /** Another session replaced this one: `stream:error` with `<conflict type="replaced"/>` (Baileys: 440). */
  conflict(account: PeerAccount): void {
    for (const companion of account.devices) {
      companion.conn?.close({ tag: 'stream:error', attrs: {}, content: [{ tag: 'conflict', attrs: { type: 'replaced' } }] });
    }
  }

  /**
   * The primary phone sends a history sync: the HistorySync proto, zlib-deflated, encrypted and uploaded to the
   * media server (or inline), announced by a HISTORY_SYNC_NOTIFICATION protocol message. Baileys emits
   * `messaging-history.set`. Resolves with the notification message id.
   */
  async sendHistorySync(account: PeerAccount, options: HistorySyncOptions = {}): Promise<string> {
    const syncType = options.syncType ?? proto.HistorySync.HistorySyncType.RECENT;
    const byChat = new Map<string, proto.IWebMessageInfo[]>();
    for (const message of options.messages ?? []) {
      const chat = message.key?.remoteJid ?? '';
      byChat.set(chat, [...(byChat.get(chat) ?? []), message]);
    }
    const conversations: proto.IConversation[] = [...(options.conversations ?? [])];
    for (const [chat, messages] of byChat) {
      const party = this.byUser.get(jidDecode(chat)?.user ?? '');
      const last = messages[messages.length - 1];
      conversations.push({
        id: chat,
        messages: messages.map((message, i) => ({ message, msgOrderId: i + 1 })),
        conversationTimestamp: last?.messageTimestamp,
        unreadCount: messages.filter((m) => !m.key?.fromMe).length,
        name: party instanceof PeerContact ? party.pushName : undefined,
        ...(party ? (chat.endsWith('@lid') ? { pnJid: party.jid } : { lidJid: party.lidJid }) : {}),
      });
    }
    const payload = deflateSync(
      proto.HistorySync.encode({
        syncType,
        conversations,
        pushnames: options.pushnames ?? [...this.contacts.values()].map((c) => ({ id: c.jid, pushname: c.pushName })),
        progress: options.progress ?? 100,
        chunkOrder: options.chunkOrder ?? 0,
        phoneNumberToLidMappings: [...this.contacts.values()].map((c) => ({ pnJid: c.jid, lidJid: c.lidJid })),
      }).finish(),
    );
    const notification: proto.Message.IHistorySyncNotification = {
      syncType: syncType as number as proto.Message.HistorySyncType,
      chunkOrder: options.chunkOrder ?? 0,
      progress: options.progress ?? 100,
    };
    if (options.inline) {
      notification.initialHistBootstrapInlinePayload = payload;
    } else {
      const media = await encryptMedia(payload, 'md-msg-hist');
      Object.assign(notification, {
        fileSha256: media.fileSha256,
        fileLength: media.fileLength,
        mediaKey: media.mediaKey,
        fileEncSha256: media.fileEncSha256,
        directPath: this.media.put(media.enc),
      });
    }
    return account.sendFromPhone({
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
        historySyncNotification: notification,
      },
    });
  }

  async stop(): Promise<void> {
    for (const conn of this.conns) conn.terminate();
    this.conns.clear();
    const wss = this.wss;
    if (wss) await new Promise<void>((resolve) => wss.close(() => resolve()));
    await this.media.stop();
    this.httpsAgent?.destroy();
    await this.fetchDispatcher?.close();
  }

  // ---- delivery -----------------------------------------------------------------------------------------

  /**
   * Hands stanzas to a companion device: written now if it is online and active, queued otherwise (delivered
   * at its next login with the `offline` attribute). Written stanzas wait for their receipt/ack and are queued
   * again if the connection drops first, so nothing is lost.
   */
  deliver(companion: Companion, items: Deliverable[]): void {
    if (companion.removed) return;
    const conn = companion.conn as Connection | undefined;
    if (conn && companion.active) {
      const nodes: BinaryNode[] = [];
      for (const item of items) {
        // chat states are fire-and-forget: no ack, no queue
        if (!item.key.startsWith('c:')) companion.pending.set(item.key, item);
        nodes.push(item.node);
      }
      conn.sendMany(nodes);
    } else {
      for (const item of items) if (!item.key.startsWith('c:')) companion.queue.push(item);
    }
  }

  /** Delivers what waited while the device was away, then the `ib offline` count, and makes it active. */
  private activate(companion: Companion, conn: Connection): void {
    const queued = companion.queue;
    companion.queue = [];
    const nodes: BinaryNode[] = [];
    for (const item of queued) {
      const node = { ...item.node, attrs: { ...item.node.attrs, offline: '1' } };
      companion.pending.set(item.key, { key: item.key, node });
      nodes.push(node);
    }
    nodes.push({
      tag: 'ib',
      attrs: { from: S_WHATSAPP_NET },
      content: [{ tag: 'offline', attrs: { count: String(queued.length) } }],
    });
    conn.sendMany(nodes);
    companion.active = true;
    if (companion.needsInitialSync) {
      companion.needsInitialSync = false;
      if (this.initialSync) {
        this.sendInitialSync(companion).catch((err: unknown) => this.logger.warn({ err }, 'peer: initial sync failed'));
      }
    }
  }

  /** What a phone sends a newly linked device: its app-state key and the initial (bootstrap) history. */
  private async sendInitialSync(companion: Companion): Promise<void> {
    const account = companion.account;
    await account.sendFromPhone(
      {
        protocolMessage: {
          type: proto.Message.ProtocolMessage.Type.APP_STATE_SYNC_KEY_SHARE,
          appStateSyncKeyShare: {
            keys: [
              {
                keyId: { keyId: randomBytes(6) },
                keyData: {
                  keyData: randomBytes(32),
                  fingerprint: { rawId: randomInt(1, 2 ** 31), currentIndex: 0, deviceIndexes: [0, companion.keyIndex] },
                  timestamp: Date.now(),
                },
              },
            ],
          },
        },
      },
      [companion],
    );
    const history = deflateSync(
      proto.HistorySync.encode({
        syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
        conversations: [],
        pushnames: [...this.contacts.values()].map((c) => ({ id: c.jid, pushname: c.pushName })),
        phoneNumberToLidMappings: [...this.contacts.values()].map((c) => ({ pnJid: c.jid, lidJid: c.lidJid })),
        progress: 100,
        chunkOrder: 0,
      }).finish(),
    );
    await account.sendFromPhone(
      {
        protocolMessage: {
          type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
          historySyncNotification: {
            syncType: proto.Message.HistorySyncType.INITIAL_BOOTSTRAP,
            initialHistBootstrapInlinePayload: history,
            chunkOrder: 0,
            progress: 100,
          },
        },
      },
      [companion],
    );
  }

  /** Takes a device off its connection; what was written and not acknowledged goes back to the queue. */
  private detach(companion: Companion): void {
    companion.conn = undefined;
    companion.active = false;
    if (companion.pending.size) {
      companion.queue = [...companion.pending.values(), ...companion.queue];
      companion.pending.clear();
    }
  }

  /** @internal */
  onClose(conn: Connection): void {
    this.conns.delete(conn);
    const companion = conn.companion;
    if (companion && companion.conn === conn) this.detach(companion);
    const reg = conn.registration;
    if (reg) {
      for (const ref of reg.refs) this.refs.delete(ref);
      if (reg.linkCode && this.linkCodes.get(reg.linkCode.phone) === reg) this.linkCodes.delete(reg.linkCode.phone);
      if (!reg.paired) reg.linkCode?.primary?.reject(new Error('the companion disconnected before pairing completed'));
    }
  }

  // ---- login / registration ------------------------------------------------------------------------------

  /** @internal */
  async onClientPayload(conn: Connection, clientStatic: Buffer, payload: proto.ClientPayload): Promise<void> {
    const pairing = payload.devicePairingData;
    if (pairing) {
      this.startRegistration(conn, clientStatic, pairing);
      return;
    }
    const user = String(payload.username ?? '');
    const device = payload.device ?? 0;
    const account = this.accounts.get(user);
    const companion = account?.companions.get(device);
    if (!account || !companion || companion.removed || !companion.noiseKey.equals(clientStatic)) {
      this.logger.debug({ user, device }, 'peer: login refused (unknown or removed device)');
      conn.close({ tag: 'failure', attrs: { reason: '401', location: 'peer' } });
      return;
    }
    const previous = companion.conn as Connection | undefined;
    if (previous && !previous.closed) {
      // WhatsApp keeps one session per device: the new login replaces the old one
      account.replacedSessions++;
      account.maxConcurrentSessions = Math.max(account.maxConcurrentSessions, 2);
      this.detach(companion);
      previous.close({ tag: 'stream:error', attrs: {}, content: [{ tag: 'conflict', attrs: { type: 'replaced' } }] });
    } else {
      account.maxConcurrentSessions = Math.max(account.maxConcurrentSessions, 1);
    }
    companion.conn = conn;
    companion.active = false;
    companion.logins++;
    conn.companion = companion;
    account.recordLogin();
    conn.send({
      tag: 'success',
      attrs: {
        t: now(),
        props: '0',
        abprops: '0',
        location: 'peer',
        creation: now(),
        lid: companion.lidJid,
        display_name: account.pushName ?? '',
      },
    });
  }

  private startRegistration(conn: Connection, noiseKey: Buffer, data: proto.ClientPayload.IDevicePairingRegistrationData): void {
    const identity = Buffer.from(data.eIdent ?? []);
    const signedPreKey = {
      keyId: uint(data.eSkeyId ?? undefined),
      public: data.eSkeyVal ?? new Uint8Array(),
      signature: data.eSkeySig ?? new Uint8Array(),
    };
    // the registration's signed prekey must be signed by its identity, as the server checks
    if (identity.length !== 32 || !Curve.verify(identity, generateSignalPubKey(signedPreKey.public), signedPreKey.signature)) {
      conn.close({ tag: 'failure', attrs: { reason: '400', location: 'peer' } });
      return;
    }
    let platform = 'Chrome';
    try {
      if (data.deviceProps) platform = proto.DeviceProps.decode(data.deviceProps).os ?? platform;
    } catch {
      // device props are informative only
    }
    const refs = Array.from({ length: this.qrRefs }, () => `2@${randomBytes(30).toString('base64')}`);
    const reg: Registration = {
      conn,
      noiseKey,
      identity,
      registrationId: uint(data.eRegid ?? undefined),
      signedPreKey,
      platform,
      refs,
      pairing: false,
    };
    conn.registration = reg;
    for (const ref of refs) this.refs.set(ref, reg);
    conn.send({
      tag: 'iq',
      attrs: { from: S_WHATSAPP_NET, type: 'set', id: newMessageId(), xmlns: 'md' },
      content: [
        { tag: 'pair-device', attrs: {}, content: refs.map((ref) => ({ tag: 'ref', attrs: {}, content: Buffer.from(ref) })) },
      ],
    });
  }

  /** Links the registering client to the account: pair-success, the client's pair-device-sign, then 515. */
  private async completePairing(reg: Registration, account: PeerAccount, advSecret: Buffer): Promise<string> {
    if (reg.pairing) throw new Error('this connection is already pairing');
    reg.pairing = true;
    const device = account.nextDevice++;
    const keyIndex = account.nextKeyIndex++;
    const details = proto.ADVDeviceIdentity.encode({
      rawId: randomInt(1, 2 ** 31),
      timestamp: unixTimestampSeconds(),
      keyIndex,
    }).finish();
    const accountSignature = Curve.sign(
      account.identity.private,
      Buffer.concat([WA_ADV_ACCOUNT_SIG_PREFIX, details, reg.identity]),
    );
    const signed = proto.ADVSignedDeviceIdentity.encode({
      details,
      accountSignatureKey: account.identity.public,
      accountSignature,
    }).finish();
    const container = proto.ADVSignedDeviceIdentityHMAC.encode({ details: signed, hmac: hmacSign(signed, advSecret) }).finish();
    const companion = new Companion(
      account,
      device,
      keyIndex,
      reg.noiseKey,
      reg.identity,
      reg.registrationId,
      reg.signedPreKey,
      reg.platform,
    );
    const answer = await reg.conn.query({
      tag: 'iq',
      attrs: { from: S_WHATSAPP_NET, type: 'set', id: newMessageId(), xmlns: 'md', t: now() },
      content: [
        {
          tag: 'pair-success',
          attrs: {},
          content: [
            { tag: 'device-identity', attrs: {}, content: container },
            { tag: 'platform', attrs: { name: account.business ? 'smba' : 'android' } },
            { tag: 'device', attrs: { jid: companion.pnJid, lid: companion.lidJid } },
            ...(account.business && account.pushName ? [{ tag: 'biz', attrs: { name: account.pushName } }] : []),
          ],
        },
      ],
    });
    const signedBack = getBinaryNodeChildBuffer(getBinaryNodeChild(answer, 'pair-device-sign'), 'device-identity');
    if (answer.attrs.type !== 'result' || !signedBack) throw new Error('the client refused the pairing');
    const back = proto.ADVSignedDeviceIdentity.decode(signedBack);
    const deviceMessage = Buffer.concat([WA_ADV_DEVICE_SIG_PREFIX, details, reg.identity, account.identity.public]);
    if (!back.deviceSignature || !Curve.verify(reg.identity, deviceMessage, back.deviceSignature)) {
      throw new Error('the client signed the device identity wrongly');
    }
    companion.deviceIdentity = signedBack;
    companion.onPreKeysLow = () => {
      const id = newMessageId();
      this.deliver(companion, [
        {
          key: `n:${id}`,
          node: {
            tag: 'notification',
            attrs: { from: S_WHATSAPP_NET, type: 'encrypt', id, t: now() },
            content: [{ tag: 'count', attrs: { value: String(companion.preKeys.length) } }],
          },
        },
      ]);
    };
    account.companions.set(device, companion);
    reg.paired = true;
    for (const ref of reg.refs) this.refs.delete(ref);
    // a paired registration connection is done: the client must reconnect and log in
    reg.conn.close({ tag: 'stream:error', attrs: { code: '515' } });
    return companion.pnJid;
  }

  // ---- stanzas from clients -------------------------------------------------------------------------------

  /** @internal */
  async onNode(conn: Connection, node: BinaryNode): Promise<void> {
    switch (node.tag) {
      case 'iq':
        await this.onIq(conn, node);
        return;
      case 'message':
        this.onClientMessage(conn, node);
        return;
      case 'receipt':
        await this.onClientReceipt(conn, node);
        return;
      case 'ack':
        this.onClientAck(conn, node);
        return;
      case 'call':
        this.onClientCall(conn, node);
        return;
      case 'presence':
      case 'chatstate':
      case 'ib':
        return;
      default:
        this.logger.debug({ conn: conn.id, xml: binaryNodeToString(node) }, 'peer: unhandled stanza');
    }
  }

  /** The client's own call stanza (a reject of an offer): recorded on the caller, answered as the server does. */
  private onClientCall(conn: Connection, node: BinaryNode): void {
    const reject = getBinaryNodeChild(node, 'reject');
    if (reject) {
      const caller = this.byUser.get(jidDecode(reject.attrs['call-creator'] ?? node.attrs.to ?? '')?.user ?? '');
      if (caller instanceof PeerContact) caller.rejectedCalls.push(reject.attrs['call-id'] ?? '');
    }
    conn.send({ tag: 'ack', attrs: { class: 'call', id: node.attrs.id ?? '', from: node.attrs.to ?? S_WHATSAPP_NET } });
  }

  private onClientAck(conn: Connection, node: BinaryNode): void {
    const companion = conn.companion;
    if (!companion) return;
    const { id, to, participant, type } = node.attrs;
    switch (node.attrs.class) {
      case 'message':
        companion.pending.delete(`m:${id}`);
        return;
      case 'receipt':
        companion.pending.delete(`r:${id}:${to}:${participant ?? ''}:${type ?? ''}`);
        return;
      case 'notification':
        companion.pending.delete(`n:${id}`);
        return;
      default:
        companion.pending.delete(`${node.attrs.class?.[0]}:${id}`);
    }
  }

  private async onClientReceipt(conn: Connection, node: BinaryNode): Promise<void> {
    const companion = conn.companion;
    if (!companion) return;
    const { id = '', to = '', participant, type } = node.attrs;
    conn.send({
      tag: 'ack',
      attrs: { class: 'receipt', id, from: to, ...(type ? { type } : {}), ...(participant ? { participant } : {}) },
    });
    const ids = [id, ...getBinaryNodeChildren(getBinaryNodeChild(node, 'list'), 'item').map((item) => item.attrs.id ?? '')];
    // any receipt for a message we delivered is its acknowledgement
    for (const messageId of ids) companion.pending.delete(`m:${messageId}`);
    const receipt: CompanionReceipt = {
      type: type === undefined || type === 'inactive' ? 'delivery' : type,
      wireType: type,
      ids,
      to,
      participant,
      device: companion.device,
      at: Date.now(),
    };
    companion.account.recordReceipt(receipt);
    const party = this.byUser.get(jidDecode(participant ?? to)?.user ?? '');
    if (party instanceof PeerContact) {
      party.receipts.push(receipt);
      if (type === 'retry') await party.retry(companion, node);
    }
  }

  /**
   * A message from the client: the server acks it, then each addressed copy goes where it is addressed: the
   * contact's device decrypts it; copies for the account's primary phone are accepted and not read (the phone
   * keeps its own history); copies for the account's other companions are forwarded to them.
   */
  private onClientMessage(conn: Connection, node: BinaryNode): void {
    const companion = conn.companion;
    const id = node.attrs.id ?? '';
    if (!companion) {
      conn.send({ tag: 'ack', attrs: { class: 'message', id, error: '401' } });
      return;
    }
    const to = node.attrs.to ?? '';
    conn.send({ tag: 'ack', attrs: { class: 'message', id, t: now(), from: to } });
    const group = to.endsWith('@g.us') ? this.groups.get(to) : undefined;
    const addressed = new Set<PeerContact>();
    const route = (deviceJid: string, enc: BinaryNode | undefined) => {
      const decoded = jidDecode(deviceJid);
      const party = this.byUser.get(decoded?.user ?? '');
      if (party instanceof PeerContact) {
        addressed.add(party);
        party.acceptFromCompanion(companion, node, enc, group);
      } else if (party instanceof PeerAccount && decoded?.device && decoded.device !== companion.device) {
        const other = party.companions.get(decoded.device);
        if (other && enc) {
          const lid = deviceJid.endsWith('@lid');
          this.deliver(other, [
            {
              key: `m:${id}`,
              node: {
                tag: 'message',
                attrs: { from: companion.jidFor(lid), recipient: to, id, t: now(), type: node.attrs.type ?? 'text' },
                content: [enc],
              },
            },
          ]);
        }
      } else if (!party) {
        this.logger.debug({ to: deviceJid }, 'peer: message copy for an unknown user');
      }
    };
    const participants = getBinaryNodeChild(node, 'participants');
    if (participants) {
      for (const target of getBinaryNodeChildren(participants, 'to')) {
        route(target.attrs.jid ?? '', getBinaryNodeChild(target, 'enc'));
      }
    } else if (!group) {
      // a copy for one device (retries, peer messages): `to` is the device
      route(
        to,
        getBinaryNodeChildren(node, 'enc').find((e) => e.attrs.type !== 'skmsg'),
      );
    }
    if (group) {
      // members that already hold the sender key get the skmsg alone
      for (const member of group.members)
        if (!addressed.has(member)) member.acceptFromCompanion(companion, node, undefined, group);
    }
  }

  // ---- IQs ------------------------------------------------------------------------------------------------

  private async onIq(conn: Connection, node: BinaryNode): Promise<void> {
    const child = getAllBinaryNodeChildren(node)[0];
    const xmlns = node.attrs.xmlns;
    const companion = conn.companion;
    switch (xmlns) {
      case 'w:p':
        conn.send(iqResult(node));
        return;
      case 'passive':
        conn.send(iqResult(node));
        if (companion && companion.conn === conn) {
          if (child?.tag === 'active') {
            if (!companion.active) this.activate(companion, conn);
          } else if (child?.tag === 'passive') companion.active = false;
        }
        return;
      case 'md':
        await this.onMdIq(conn, node, child);
        return;
      case 'encrypt':
        conn.send(this.onEncryptIq(conn, node, child));
        return;
      case 'usync':
        conn.send(this.onUsync(node));
        return;
      case 'w:m':
        conn.send(
          iqResult(node, [
            {
              tag: 'media_conn',
              attrs: { auth: this.media.auth, ttl: '300', auth_ttl: '21600', max_buckets: '12' },
              content: [{ tag: 'host', attrs: { hostname: this.media.host, maxContentLengthBytes: '104857600' } }],
            },
          ]),
        );
        return;
      case 'abt':
        conn.send(iqResult(node, [{ tag: 'props', attrs: { protocol: '1', hash: 'peer' } }]));
        return;
      case 'blocklist':
        conn.send(node.attrs.type === 'get' ? iqResult(node, [{ tag: 'list', attrs: {} }]) : iqResult(node));
        return;
      case 'privacy':
        conn.send(
          child?.tag === 'privacy' && node.attrs.type === 'get'
            ? iqResult(node, [
                {
                  tag: 'privacy',
                  attrs: {},
                  content: [
                    'readreceipts:all',
                    'last:all',
                    'online:all',
                    'profile:all',
                    'status:all',
                    'groupadd:all',
                    'calladd:all',
                  ].map((pair) => {
                    const [name = '', value = ''] = pair.split(':');
                    return { tag: 'category', attrs: { name, value } };
                  }),
                },
              ])
            : iqResult(node),
        );
        return;
      case 'w:profile:picture':
        conn.send(this.onPictureIq(node));
        return;
      case 'w:g2':
        conn.send(this.onGroupIq(node, child));
        return;
      case 'w:sync:app:state':
        // no app-state patches: every requested collection is answered as up to date
        conn.send(
          iqResult(node, [
            {
              tag: 'sync',
              attrs: {},
              content: getBinaryNodeChildren(child, 'collection').map((c) => ({
                tag: 'collection',
                attrs: { name: c.attrs.name ?? '', version: c.attrs.version ?? '0' },
              })),
            },
          ]),
        );
        return;
      default:
        // w:stats, urn:xmpp:whatsapp:dirty, status, disappearing_mode, w:biz, bot, w:mex…: answers don't matter
        this.logger.debug({ xmlns, child: child?.tag }, 'peer: generic answer to iq');
        conn.send(iqResult(node));
    }
  }

  private async onMdIq(conn: Connection, node: BinaryNode, child: BinaryNode | undefined): Promise<void> {
    if (child?.tag === 'remove-companion-device') {
      // the client logs itself out
      conn.send(iqResult(node));
      const companion = conn.companion;
      if (companion) {
        companion.removed = true;
        companion.queue = [];
        companion.pending.clear();
      }
      return;
    }
    if (child?.tag !== 'link_code_companion_reg') {
      conn.send(iqResult(node));
      return;
    }
    const reg = conn.registration;
    if (!reg) {
      conn.send(iqError(node, 400, 'bad-request'));
      return;
    }
    if (child.attrs.stage === 'companion_hello') {
      const phone = jidDecode(child.attrs.jid ?? '')?.user ?? '';
      const wrapped = getBinaryNodeChildBuffer(child, 'link_code_pairing_wrapped_companion_ephemeral_pub');
      const serverAuth = getBinaryNodeChildBuffer(child, 'companion_server_auth_key_pub');
      if (wrapped?.length !== 80 || !serverAuth || !reg.noiseKey.equals(Buffer.from(serverAuth))) {
        conn.send(iqError(node, 400, 'bad-request'));
        return;
      }
      const ref = `${randomBytes(16).toString('base64url')}`;
      reg.linkCode = { phone, ref, wrappedCompanionEphemeral: Buffer.from(wrapped) };
      this.linkCodes.set(phone, reg);
      conn.send(
        iqResult(node, [
          {
            tag: 'link_code_companion_reg',
            attrs: {},
            content: [{ tag: 'link_code_pairing_ref', attrs: {}, content: Buffer.from(ref) }],
          },
        ]),
      );
      return;
    }
    if (child.attrs.stage === 'companion_finish') {
      const primary = reg.linkCode?.primary;
      const bundle = getBinaryNodeChildBuffer(child, 'link_code_pairing_wrapped_key_bundle');
      const companionIdentity = getBinaryNodeChildBuffer(child, 'companion_identity_public');
      if (!primary || !bundle || !companionIdentity) {
        conn.send(iqError(node, 400, 'bad-request'));
        return;
      }
      const companionShared = Curve.sharedKey(primary.primaryEphemeral.private, primary.companionEphemeral);
      let plain: Buffer;
      try {
        const key = hkdf(companionShared, 32, {
          salt: Buffer.from(bundle.subarray(0, 32)),
          info: 'link_code_pairing_key_bundle_encryption_key',
        });
        plain = aesDecryptGCM(bundle.subarray(44), key, bundle.subarray(32, 44), Buffer.alloc(0));
      } catch {
        // a wrong code gives the two sides different keys: the bundle does not decrypt
        conn.send(iqError(node, 401, 'not-authorized'));
        primary.reject(new Error('wrong pairing code'));
        return;
      }
      const identity = plain.subarray(0, 32);
      if (!identity.equals(reg.identity) || !identity.equals(Buffer.from(companionIdentity))) {
        conn.send(iqError(node, 401, 'not-authorized'));
        primary.reject(new Error('the key bundle names another identity'));
        return;
      }
      const random = plain.subarray(64, 96);
      const identityShared = Curve.sharedKey(primary.account.identity.private, identity);
      const advSecret = Buffer.from(hkdf(Buffer.concat([companionShared, identityShared, random]), 32, { info: 'adv_secret' }));
      conn.send(iqResult(node));
      this.completePairing(reg, primary.account, advSecret).then(primary.resolve, primary.reject);
      return;
    }
    conn.send(iqResult(node));
  }

  private onEncryptIq(conn: Connection, node: BinaryNode, child: BinaryNode | undefined): BinaryNode {
    const companion = conn.companion;
    if (!companion) return iqError(node, 401, 'not-authorized');
    if (node.attrs.type === 'get' && child?.tag === 'count') {
      return iqResult(node, [{ tag: 'count', attrs: { value: String(companion.preKeys.length) } }]);
    }
    if (node.attrs.type === 'set' && getBinaryNodeChild(node, 'list')) {
      // prekey upload: registration, type, identity, list of keys, signed prekey
      const identity = getBinaryNodeChildBuffer(node, 'identity');
      if (identity && !Buffer.from(identity).equals(companion.identity)) return iqError(node, 406, 'not-acceptable');
      for (const key of getBinaryNodeChildren(getBinaryNodeChild(node, 'list'), 'key')) {
        const value = getBinaryNodeChildBuffer(key, 'value');
        if (value) companion.preKeys.push({ keyId: uint(getBinaryNodeChildBuffer(key, 'id')), public: value });
      }
      companion.preKeysLowNotified = companion.preKeys.length < 5;
      const skey = this.readSignedPreKey(getBinaryNodeChild(node, 'skey'), companion.identity);
      if (skey) companion.signedPreKey = skey;
      return iqResult(node);
    }
    if (node.attrs.type === 'set' && child?.tag === 'rotate') {
      const skey = this.readSignedPreKey(getBinaryNodeChild(child, 'skey'), companion.identity);
      if (!skey) return iqError(node, 406, 'not-acceptable');
      companion.signedPreKey = skey;
      return iqResult(node);
    }
    if (node.attrs.type === 'get' && child?.tag === 'digest') {
      const hash = randomBytes(20);
      return iqResult(node, [
        {
          tag: 'digest',
          attrs: {},
          content: [
            { tag: 'registration', attrs: {}, content: encodeBigEndian(companion.registrationId) },
            { tag: 'type', attrs: {}, content: KEY_BUNDLE_TYPE },
            { tag: 'identity', attrs: {}, content: companion.identity },
            this.skeyNode(companion.signedPreKey),
            {
              tag: 'list',
              attrs: {},
              content: companion.preKeys.map((k) => ({ tag: 'id', attrs: {}, content: encodeBigEndian(k.keyId, 3) })),
            },
            { tag: 'hash', attrs: {}, content: hash },
          ],
        },
      ]);
    }
    if (node.attrs.type === 'get' && child?.tag === 'key') {
      return iqResult(node, [{ tag: 'list', attrs: {}, content: this.bundles(getBinaryNodeChildren(child, 'user')) }]);
    }
    return iqResult(node);
  }

  private readSignedPreKey(skey: BinaryNode | undefined, identity: Uint8Array) {
    const value = getBinaryNodeChildBuffer(skey, 'value');
    const signature = getBinaryNodeChildBuffer(skey, 'signature');
    if (!value || !signature || !Curve.verify(identity, generateSignalPubKey(value), signature)) return undefined;
    return { keyId: uint(getBinaryNodeChildBuffer(skey, 'id')), public: value, signature };
  }

  private skeyNode(key: { keyId: number; public: Uint8Array; signature: Uint8Array }): BinaryNode {
    return {
      tag: 'skey',
      attrs: {},
      content: [
        { tag: 'id', attrs: {}, content: encodeBigEndian(key.keyId, 3) },
        { tag: 'value', attrs: {}, content: key.public },
        { tag: 'signature', attrs: {}, content: key.signature },
      ],
    };
  }

  /** Prekey bundles for the devices a client wants sessions with: contacts' phones, the account's devices. */
  private bundles(users: BinaryNode[]): BinaryNode[] {
    const out: BinaryNode[] = [];
    for (const user of users) {
      const jid = user.attrs.jid ?? '';
      const decoded = jidDecode(jid);
      const party = this.byUser.get(decoded?.user ?? '');
      const device = decoded?.device ?? 0;
      let bundle: ReturnType<Companion['takeBundle']> | undefined;
      if (party instanceof PeerContact && device === 0) bundle = party.signal.bundle();
      else if (party instanceof PeerAccount) {
        if (device === 0) bundle = party.phone.bundle();
        else {
          const companion = party.companions.get(device);
          if (companion && !companion.removed) bundle = companion.takeBundle();
        }
      }
      // unknown devices are left out (an error node would fail the client's whole batch)
      if (!bundle) continue;
      out.push({
        tag: 'user',
        attrs: { jid },
        content: [
          { tag: 'registration', attrs: {}, content: encodeBigEndian(bundle.registrationId) },
          { tag: 'type', attrs: {}, content: KEY_BUNDLE_TYPE },
          { tag: 'identity', attrs: {}, content: bundle.identity },
          this.skeyNode(bundle.signedPreKey),
          ...(bundle.preKey
            ? [
                {
                  tag: 'key',
                  attrs: {},
                  content: [
                    { tag: 'id', attrs: {}, content: encodeBigEndian(bundle.preKey.keyId, 3) },
                    { tag: 'value', attrs: {}, content: bundle.preKey.public },
                  ],
                },
              ]
            : []),
        ],
      });
    }
    return out;
  }

  /** usync: devices, LIDs, "is on WhatsApp", about, disappearing mode — for the parties the peer knows. */
  private onUsync(node: BinaryNode): BinaryNode {
    const usync = getBinaryNodeChild(node, 'usync');
    const protocols = getAllBinaryNodeChildren(getBinaryNodeChild(usync, 'query') ?? { tag: 'query', attrs: {} }).map(
      (p) => p.tag,
    );
    const users: BinaryNode[] = [];
    for (const user of getBinaryNodeChildren(getBinaryNodeChild(usync, 'list'), 'user')) {
      const phone = getBinaryNodeChildString(user, 'contact');
      const jid = user.attrs.jid ?? (phone ? `${phone.replace(/\D/g, '')}@s.whatsapp.net` : '');
      const party = this.byUser.get(jidDecode(jid)?.user ?? '');
      const content: BinaryNode[] = [];
      for (const protocol of protocols) {
        switch (protocol) {
          case 'devices': {
            const devices: BinaryNode[] = party ? [{ tag: 'device', attrs: { id: '0' } }] : [];
            if (party instanceof PeerAccount) {
              for (const c of party.devices)
                devices.push({ tag: 'device', attrs: { id: String(c.device), 'key-index': String(c.keyIndex) } });
            }
            content.push({
              tag: 'devices',
              attrs: {},
              content: [
                { tag: 'device-list', attrs: {}, content: devices },
                { tag: 'key-index-list', attrs: { ts: now() } },
              ],
            });
            break;
          }
          case 'lid':
            if (party && !jid.endsWith('@lid')) content.push({ tag: 'lid', attrs: { val: party.lidJid } });
            break;
          case 'contact':
            content.push({ tag: 'contact', attrs: { type: party ? 'in' : 'out' } });
            break;
          case 'status':
            if (party instanceof PeerContact && party.about) {
              content.push({ tag: 'status', attrs: { t: now() }, content: Buffer.from(party.about) });
            } else content.push({ tag: 'status', attrs: { code: '401', t: '0' } });
            break;
          case 'disappearing_mode':
            content.push({ tag: 'disappearing_mode', attrs: { duration: '0', t: '0' } });
            break;
          default:
            break;
        }
      }
      users.push({ tag: 'user', attrs: { jid }, content });
    }
    return iqResult(node, [
      {
        tag: 'usync',
        attrs: { sid: usync?.attrs.sid ?? '', index: '0', last: 'true' },
        content: [
          { tag: 'result', attrs: {}, content: protocols.map((tag) => ({ tag, attrs: {} })) },
          { tag: 'list', attrs: {}, content: users },
        ],
      },
    ]);
  }

  private onPictureIq(node: BinaryNode): BinaryNode {
    const target = node.attrs.target ?? node.attrs.to ?? '';
    const party = this.byUser.get(jidDecode(target)?.user ?? '');
    if (node.attrs.type !== 'get') return iqResult(node);
    if (!(party instanceof PeerContact) || !party.picture) return iqError(node, 404, 'item-not-found');
    // profile pictures are plain JPEGs on the media hosts
    const directPath = this.media.put(party.picture);
    return iqResult(node, [
      {
        tag: 'picture',
        attrs: {
          id: String(unixTimestampSeconds()),
          type: 'preview',
          url: this.media.urlFor(directPath),
          direct_path: directPath,
        },
      },
    ]);
  }

  private onGroupIq(node: BinaryNode, child: BinaryNode | undefined): BinaryNode {
    if (child?.tag === 'query') {
      const group = this.groups.get(node.attrs.to ?? '');
      return group ? iqResult(node, [group.metadataNode()]) : iqError(node, 404, 'item-not-found');
    }
    if (child?.tag === 'participating') {
      return iqResult(node, [{ tag: 'groups', attrs: {}, content: [...this.groups.values()].map((g) => g.metadataNode()) }]);
    }
    return iqResult(node);
  }
}

/** Starts a peer: the WebSocket endpoint and the HTTPS media server on 127.0.0.1 (random ports). */
export async function startWhatsAppPeer(options: WhatsAppPeerOptions = {}): Promise<WhatsAppPeer> {
  const peer = new WhatsAppPeer(options);
  await peer.start();
  return peer;
}
