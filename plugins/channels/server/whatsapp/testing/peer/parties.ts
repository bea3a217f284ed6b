import { randomBytes, randomInt } from 'node:crypto';
import {
  type BinaryNode,
  Curve,
  encodeWAMessage,
  getBinaryNodeChild,
  getBinaryNodeChildBuffer,
  getBinaryNodeChildren,
  getBinaryNodeChildUInt,
  type KeyPair,
  type MediaType,
  normalizeMessageContent,
  proto,
  unixTimestampSeconds,
  unpadRandomMax16,
} from '@whiskeysockets/baileys';
import type { ILogger } from '@whiskeysockets/baileys/lib/Utils/logger.js';
import { decryptMedia, encryptMedia, type MediaServer } from './media';
import { deviceAddress, type PreKeyBundle, SignalParty } from './signal';

/**
 * The simulated world around the companion under test: the company's account (its primary phone and the
 * companion devices linked to it), the contacts writing to it, and their groups. Each contact and each primary
 * phone holds a real Signal identity; everything they send is encrypted for each linked companion device, and
 * everything a companion sends them is really decrypted.
 */

/** A stanza on its way to a companion, with the key its acknowledgement will carry. */
export interface Deliverable {
  key: string;
  node: BinaryNode;
}

/** What the parties need from the peer (implemented by WhatsAppPeer). */
export interface PeerCore {
  readonly logger: ILogger;
  readonly media: MediaServer;
  readonly autoDeliveryReceipts: boolean;
  deliver(companion: Companion, items: Deliverable[]): void;
}

export function pnJid(user: string, device = 0): string {
  return device ? `${user}:${device}@s.whatsapp.net` : `${user}@s.whatsapp.net`;
}

export function lidJid(user: string, device = 0): string {
  return device ? `${user}:${device}@lid` : `${user}@lid`;
}

/** WhatsApp phones make 32 upper-case hex character ids. */
export function newMessageId(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

/** A plausible, unique LID user for a party created without one (every real account has one now). */
function randomLid(): string {
  return `${randomInt(10, 99)}${Array.from({ length: 13 }, () => randomInt(0, 10)).join('')}`;
}

function waiter<T>(
  list: T[],
  waiters: Set<(item: T) => boolean>,
  predicate: (item: T) => boolean,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const found = list.find(predicate);
  if (found) return Promise.resolve(found);
  return new Promise<T>((resolve, reject) => {
    const check = (item: T): boolean => {
      if (!predicate(item)) return false;
      clearTimeout(timer);
      resolve(item);
      return true;
    };
    const timer = setTimeout(() => {
      waiters.delete(check);
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    waiters.add(check);
  });
}

function notify<T>(waiters: Set<(item: T) => boolean>, item: T): void {
  for (const check of waiters) if (check(item)) waiters.delete(check);
}

/** A companion device linked to an account (what the client under test becomes once paired). */
export class Companion {
  removed = false;
  /** the connection currently logged in as this device (set by the server) */
  conn: { close(reason?: BinaryNode): void; terminate(): void } | undefined;
  /** passive → active: until the client asks to be active, deliveries wait in the queue (as on WhatsApp) */
  active = false;
  /** stanzas waiting for the device to be online (delivered with `offline` at the next login) */
  queue: Deliverable[] = [];
  /** stanzas sent and not yet acknowledged: they go back to the queue if the connection drops */
  readonly pending = new Map<string, Deliverable>();
  /** the primary phone sends the app-state key and the initial history after the first login */
  needsInitialSync = true;
  logins = 0;
  /** one-time prekeys the client uploaded, served (and used up) one per session */
  readonly preKeys: { keyId: number; public: Uint8Array }[] = [];
  /** set by the server: told when the uploaded prekeys run low (it then notifies the client, as WhatsApp does) */
  onPreKeysLow: (() => void) | undefined;
  preKeysLowNotified = false;
  signedPreKey: { keyId: number; public: Uint8Array; signature: Uint8Array };
  deviceIdentity: Uint8Array | undefined;

  constructor(
    readonly account: PeerAccount,
    readonly device: number,
    readonly keyIndex: number,
    readonly noiseKey: Buffer,
    readonly identity: Buffer,
    readonly registrationId: number,
    signedPreKey: { keyId: number; public: Uint8Array; signature: Uint8Array },
    readonly platform: string,
  ) {
    this.signedPreKey = signedPreKey;
  }

  get pnJid(): string {
    return pnJid(this.account.pn, this.device);
  }

  get lidJid(): string {
    return lidJid(this.account.lid, this.device);
  }

  jidFor(lid: boolean): string {
    return lid ? this.lidJid : this.pnJid;
  }

  /** its Signal address, the same whether a stanza names it by PN or by LID */
  get address() {
    return deviceAddress(this.account.pn, this.device);
  }

  /** The bundle a sender gets from the server (takes one uploaded prekey, as the server hands each out once). */
  takeBundle(): PreKeyBundle {
    const preKey = this.preKeys.shift();
    if (this.preKeys.length < 5 && !this.preKeysLowNotified) {
      this.preKeysLowNotified = true;
      this.onPreKeysLow?.();
    }
    return { registrationId: this.registrationId, identity: this.identity, signedPreKey: this.signedPreKey, preKey };
  }
}

/** A receipt the client under test sent (for messages it received). */
export interface CompanionReceipt {
  /** `delivery` (no type or `inactive` on the wire), `read`, `read-self`, `played`, `retry`, `sender`, `peer_msg`, `hist_sync`… */
  type: string;
  /** the wire type attribute, if any */
  wireType?: string;
  ids: string[];
  /** the chat (`to` attribute): a contact's PN or LID jid, a group jid, or the account's own jid */
  to: string;
  participant?: string;
  /** the companion device that sent it */
  device: number;
  /** local time it arrived (ms) */
  at: number;
}

/** A message a contact received from the client under test (decrypted). */
export interface ReceivedMessage {
  id: string;
  message: proto.IMessage;
  /** the stanza time the server stamped (seconds) */
  timestamp: number;
  /** the companion device that sent it (in the addressing the client chose) */
  from: string;
  /** the address the client sent to: the contact's PN or LID jid, or the group's jid */
  to: string;
  group?: string;
  /** Signal message type used for this copy: `pkmsg`/`msg` (1:1) or `skmsg` (group) */
  encType: 'pkmsg' | 'msg' | 'skmsg';
  /** the stanza's `type` attribute (`text`, `media`, `reaction`…) and `edit` attribute (`1` edit, `7` revoke…) */
  stanzaType?: string;
  edit?: string;
}

export interface AccountOptions {
  /** the account's LID user (digits); a random one if omitted */
  lid?: string;
  /** the business / push name; a WhatsApp Business account by default (pair-success carries `biz name`) */
  pushName?: string;
  business?: boolean;
}

/** The company's WhatsApp account: its primary phone and the companion devices linked to it. */
export class PeerAccount {
  readonly jid: string;
  readonly lid: string;
  readonly lidJid: string;
  readonly pushName: string | undefined;
  readonly business: boolean;
  /** the ADV account key: signs linked devices; also the primary phone's Signal identity */
  readonly identity: KeyPair = Curve.generateKeyPair();
  /** the primary phone (device 0) */
  readonly phone: SignalParty;
  readonly companions = new Map<number, Companion>();
  /** receipts the client under test sent, in order */
  readonly receipts: CompanionReceipt[] = [];
  /** successful logins (any device) */
  loginCount = 0;
  /** the most sessions of one device that were open at the same moment (the server then kicks the older one) */
  maxConcurrentSessions = 0;
  /** logins that arrived while the same device already had a live session (each replaced it) */
  replacedSessions = 0;
  nextDevice = 1;
  nextKeyIndex = 1;
  private readonly receiptWaiters = new Set<(r: CompanionReceipt) => boolean>();
  private readonly loginWaiters = new Set<() => void>();

  constructor(
    private readonly core: PeerCore,
    readonly pn: string,
    options: AccountOptions = {},
  ) {
    this.jid = pnJid(pn);
    this.lid = options.lid ?? randomLid();
    this.lidJid = lidJid(this.lid);
    this.pushName = options.pushName;
    this.business = options.business ?? true;
    this.phone = new SignalParty(this.identity);
  }

  /** Linked companion devices (not removed). */
  get devices(): Companion[] {
    return [...this.companions.values()].filter((c) => !c.removed);
  }

  /**
   * Stanzas for this account's devices not acknowledged yet (queued for an offline device, or written and
   * waiting for the receipt/ack): 0 means the client has taken everything sent so far.
   */
  get undelivered(): number {
    return this.devices.reduce((n, c) => n + c.queue.length + c.pending.size, 0);
  }

  /** Whether a companion of this account is logged in now. */
  get connected(): boolean {
    return this.devices.some((c) => c.conn !== undefined);
  }

  /** @internal */
  recordReceipt(receipt: CompanionReceipt): void {
    this.receipts.push(receipt);
    notify(this.receiptWaiters, receipt);
  }

  /** @internal */
  recordLogin(): void {
    this.loginCount++;
    const waiting = [...this.loginWaiters];
    this.loginWaiters.clear();
    for (const check of waiting) check();
  }

  waitForReceipt(predicate: (r: CompanionReceipt) => boolean, timeoutMs = 5_000): Promise<CompanionReceipt> {
    return waiter(this.receipts, this.receiptWaiters, predicate, timeoutMs, `a receipt from ${this.pn}`);
  }

  /** Resolves at the next login of any of this account's devices (or now, if `count` logins already happened). */
  waitForLogin(count = this.loginCount + 1, timeoutMs = 10_000): Promise<void> {
    if (this.loginCount >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no login of ${this.pn} within ${timeoutMs} ms`)), timeoutMs);
      const check = () => {
        if (this.loginCount >= count) {
          clearTimeout(timer);
          resolve();
        } else this.loginWaiters.add(check);
      };
      this.loginWaiters.add(check);
    });
  }

  /** @internal the primary phone sends a (peer) message to its own companions: app-state keys, history sync… */
  async sendFromPhone(message: proto.IMessage, companions: Companion[] = this.devices): Promise<string> {
    const id = newMessageId();
    const data = encodeWAMessage(message);
    for (const companion of companions) {
      const enc = await encryptForCompanion(this.phone, companion, data);
      this.core.deliver(companion, [
        {
          key: `m:${id}`,
          node: {
            tag: 'message',
            attrs: { from: this.jid, id, t: String(unixTimestampSeconds()), type: 'text', category: 'peer' },
            content: [enc],
          },
        },
      ]);
    }
    return id;
  }
}

/** Encrypts for a companion device, creating the session from its prekey bundle (from the server) the first time. */
async function encryptForCompanion(
  party: SignalParty,
  companion: Companion,
  data: Uint8Array,
  extraAttrs: Record<string, string> = {},
): Promise<BinaryNode> {
  const address = companion.address;
  await party.ensureSession(address, () => companion.takeBundle());
  const { type, ciphertext } = await party.encrypt(address, data);
  return { tag: 'enc', attrs: { v: '2', type, ...extraAttrs }, content: ciphertext };
}

export interface ContactOptions {
  /** the contact's LID user (digits); a random one if omitted */
  lid?: string;
  pushName?: string;
  /** about text served to usync `status` queries */
  about?: string;
  /** a JPEG served as the profile picture (otherwise the picture query answers 404, as for a contact without one) */
  picture?: Buffer;
  /** send delivery receipts for messages this contact accepts (default: the peer's `autoDeliveryReceipts`) */
  autoDeliveryReceipts?: boolean;
}

export interface SendOptions {
  id?: string;
  /** send from the contact's LID address (`from=<lid>@lid`, with `sender_pn`) instead of its phone number */
  asLid?: boolean;
  /** stanza time (seconds) */
  timestamp?: number;
  /** the wire `edit` attribute (set by `edit` and `revoke`) */
  edit?: string;
}

export interface QuotedRef {
  id: string;
  /** true when the quoted message was sent by the company (the client under test) */
  fromCompany?: boolean;
  message?: proto.IMessage;
}

export interface MediaOptions {
  caption?: string;
  mimetype?: string;
  fileName?: string;
  /** audio: a voice note */
  ptt?: boolean;
  seconds?: number;
  width?: number;
  height?: number;
}

type Target = PeerAccount | PeerGroup;

/** A prepared burst: encrypted up front, written to the companions' sockets by `send()`. */
export interface PreparedBatch {
  ids: string[];
  send(): void;
}

/** A WhatsApp user writing to the company: its own phone (device 0) with its own Signal identity. */
export class PeerContact {
  readonly jid: string;
  readonly lid: string;
  readonly lidJid: string;
  readonly pushName: string | undefined;
  readonly about: string | undefined;
  readonly picture: Buffer | undefined;
  readonly signal: SignalParty;
  /** messages the client under test sent to this contact (1:1 and groups), decrypted, in order */
  readonly received: ReceivedMessage[] = [];
  /** receipts the client under test sent for this contact's messages */
  readonly receipts: CompanionReceipt[] = [];
  /** call ids the client under test rejected (a `call` stanza with `reject`) */
  readonly rejectedCalls: string[] = [];
  autoDeliveryReceipts: boolean;
  private readonly waiters = new Set<(m: ReceivedMessage) => boolean>();
  /** recent messages this contact sent, kept for retry receipts */
  private readonly sent = new Map<string, { target: Target; message: proto.IMessage; options: SendOptions }>();
  private readonly groupKeysSent = new Set<string>();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly core: PeerCore,
    readonly pn: string,
    options: ContactOptions = {},
  ) {
    this.jid = pnJid(pn);
    this.lid = options.lid ?? randomLid();
    this.lidJid = lidJid(this.lid);
    this.pushName = options.pushName;
    this.about = options.about;
    this.picture = options.picture;
    this.autoDeliveryReceipts = options.autoDeliveryReceipts ?? core.autoDeliveryReceipts;
    this.signal = new SignalParty(Curve.generateKeyPair());
  }

  /** Resolves with the first received message (already received or next) matching the predicate. */
  waitFor(predicate: (m: ReceivedMessage) => boolean = () => true, timeoutMs = 5_000): Promise<ReceivedMessage> {
    return waiter(this.received, this.waiters, predicate, timeoutMs, `a message to ${this.pn}`);
  }

  /** Sends any message (proto.IMessage): real Signal encryption for every linked device of the account. */
  async send(target: Target, message: proto.IMessage, options: SendOptions = {}): Promise<string> {
    const batch = await this.prepare(target, [message], options);
    batch.send();
    return batch.ids[0] as string;
  }

  sendText(target: Target, text: string, options: SendOptions & { quoted?: QuotedRef } = {}): Promise<string> {
    const message: proto.IMessage = options.quoted
      ? { extendedTextMessage: { text, contextInfo: this.contextFor(target, options.quoted) } }
      : { conversation: text };
    return this.send(target, message, options);
  }

  /** Many texts at once: encrypted in order, then written in one go (one socket write per device). */
  async sendMany(target: Target, texts: string[], options: SendOptions = {}): Promise<string[]> {
    const batch = await this.prepareMany(target, texts, options);
    batch.send();
    return batch.ids;
  }

  /** Encrypts a burst now and returns it, for benchmarks that want encryption outside the measured window. */
  prepareMany(target: Target, texts: string[], options: SendOptions = {}): Promise<PreparedBatch> {
    return this.prepare(
      target,
      texts.map((text) => ({ conversation: text })),
      { ...options, id: undefined },
    );
  }

  async sendImage(target: Target, image: Buffer, options: MediaOptions & SendOptions = {}): Promise<string> {
    const media = await this.upload(image, 'image');
    return this.send(
      target,
      {
        imageMessage: {
          ...media,
          mimetype: options.mimetype ?? 'image/jpeg',
          caption: options.caption,
          width: options.width,
          height: options.height,
        },
      },
      options,
    );
  }

  async sendVideo(target: Target, video: Buffer, options: MediaOptions & SendOptions = {}): Promise<string> {
    const media = await this.upload(video, 'video');
    return this.send(
      target,
      {
        videoMessage: { ...media, mimetype: options.mimetype ?? 'video/mp4', caption: options.caption, seconds: options.seconds },
      },
      options,
    );
  }

  async sendAudio(target: Target, audio: Buffer, options: MediaOptions & SendOptions = {}): Promise<string> {
    const media = await this.upload(audio, 'audio');
    return this.send(
      target,
      {
        audioMessage: {
          ...media,
          mimetype: options.mimetype ?? (options.ptt ? 'audio/ogg; codecs=opus' : 'audio/mpeg'),
          ptt: options.ptt ?? false,
          seconds: options.seconds,
        },
      },
      options,
    );
  }

  async sendDocument(target: Target, document: Buffer, options: MediaOptions & SendOptions = {}): Promise<string> {
    const media = await this.upload(document, 'document');
    return this.send(
      target,
      {
        documentMessage: {
          ...media,
          mimetype: options.mimetype ?? 'application/octet-stream',
          fileName: options.fileName ?? 'document',
          title: options.fileName ?? 'document',
          caption: options.caption,
        },
      },
      options,
    );
  }

  sendLocation(
    target: Target,
    location: { latitude: number; longitude: number; name?: string; address?: string },
    options: SendOptions = {},
  ): Promise<string> {
    return this.send(
      target,
      {
        locationMessage: {
          degreesLatitude: location.latitude,
          degreesLongitude: location.longitude,
          name: location.name,
          address: location.address,
        },
      },
      options,
    );
  }

  sendContact(target: Target, card: { displayName: string; vcard: string }, options: SendOptions = {}): Promise<string> {
    return this.send(target, { contactMessage: { displayName: card.displayName, vcard: card.vcard } }, options);
  }

  /** Reacts to a message of the chat (`fromCompany`: one the company sent, the usual case). Empty emoji removes it. */
  sendReaction(
    target: Target,
    messageId: string,
    emoji: string,
    options: SendOptions & { fromCompany?: boolean } = {},
  ): Promise<string> {
    return this.send(
      target,
      {
        reactionMessage: {
          key: this.keyFor(target, messageId, !(options.fromCompany ?? true), options.asLid),
          text: emoji,
          senderTimestampMs: Date.now(),
        },
      },
      options,
    );
  }

  /** Edits one of this contact's own messages (a MESSAGE_EDIT protocol message, `edit="1"` on the wire). */
  edit(target: Target, messageId: string, text: string, options: SendOptions = {}): Promise<string> {
    return this.send(
      target,
      {
        protocolMessage: {
          type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
          key: this.keyFor(target, messageId, true, options.asLid),
          editedMessage: { conversation: text },
          timestampMs: Date.now(),
        },
      },
      { edit: '1', ...options },
    );
  }

  /** Deletes one of this contact's own messages for everyone (a REVOKE protocol message, `edit="7"`). */
  revoke(target: Target, messageId: string, options: SendOptions = {}): Promise<string> {
    return this.send(
      target,
      {
        protocolMessage: {
          type: proto.Message.ProtocolMessage.Type.REVOKE,
          key: this.keyFor(target, messageId, true, options.asLid),
        },
      },
      { edit: '7', ...options },
    );
  }

  /** Sends a read receipt for messages the company sent (to every linked device, as WhatsApp fans it out). */
  readReceipt(target: Target, ids: string[], options: { asLid?: boolean } = {}): void {
    this.receipt(target, ids, 'read', options.asLid);
  }

  deliveryReceipt(target: Target, ids: string[], options: { asLid?: boolean } = {}): void {
    this.receipt(target, ids, undefined, options.asLid);
  }

  /** Typing indicator (`chatstate composing` / `paused`). */
  typing(
    target: PeerAccount,
    state: 'composing' | 'paused' | 'recording' = 'composing',
    options: { asLid?: boolean } = {},
  ): void {
    const from = options.asLid ? this.lidJid : this.jid;
    const child: BinaryNode = state === 'recording' ? { tag: 'composing', attrs: { media: 'audio' } } : { tag: state, attrs: {} };
    for (const companion of target.devices) {
      this.core.deliver(companion, [
        { key: `c:${newMessageId()}`, node: { tag: 'chatstate', attrs: { from }, content: [child] } },
      ]);
    }
  }

  /**
   * Calls the account (voice, or video): the server's `call` stanza with an `offer` reaches every linked device
   * (Baileys emits `call` with status `offer`). Resolves with the call id.
   */
  call(target: PeerAccount, options: { video?: boolean; asLid?: boolean } = {}): string {
    const callId = newMessageId();
    const from = options.asLid ? this.lidJid : this.jid;
    for (const companion of target.devices) {
      const id = newMessageId();
      this.core.deliver(companion, [
        {
          key: `c:${id}`,
          node: {
            tag: 'call',
            attrs: { from, id, t: String(Math.floor(Date.now() / 1000)) },
            content: [
              {
                tag: 'offer',
                attrs: { 'call-id': callId, 'call-creator': from, ...(options.asLid ? { caller_pn: this.jid } : {}) },
                content: options.video ? [{ tag: 'video', attrs: {} }] : [],
              },
            ],
          },
        },
      ]);
    }
    return callId;
  }

  /** Decrypts the media of a message the company sent (checking its MAC and hashes), from the peer's media store. */
  async downloadMedia(message: proto.IMessage): Promise<Buffer> {
    const content = normalizeMessageContent(message);
    const kinds: [keyof proto.IMessage, MediaType][] = [
      ['imageMessage', 'image'],
      ['videoMessage', 'video'],
      ['audioMessage', 'audio'],
      ['documentMessage', 'document'],
      ['stickerMessage', 'sticker'],
    ];
    for (const [field, type] of kinds) {
      const media = content?.[field] as proto.Message.IImageMessage | undefined;
      if (!media) continue;
      const enc = this.core.media.get(media.directPath ?? media.url ?? '');
      if (!enc) throw new Error(`media ${media.directPath ?? media.url} is not on the peer's media server`);
      return decryptMedia(enc, type, media);
    }
    throw new Error('not a media message');
  }

  /** A history-sync entry of this chat (for `peer.sendHistorySync`). */
  historyEntry(
    text: string,
    options: { fromCompany?: boolean; id?: string; timestamp?: number; asLid?: boolean } = {},
  ): proto.IWebMessageInfo {
    return {
      key: {
        remoteJid: options.asLid ? this.lidJid : this.jid,
        fromMe: options.fromCompany ?? false,
        id: options.id ?? newMessageId(),
      },
      message: { conversation: text },
      messageTimestamp: options.timestamp ?? unixTimestampSeconds(),
      pushName: options.fromCompany ? undefined : this.pushName,
      status: options.fromCompany ? proto.WebMessageInfo.Status.READ : undefined,
    };
  }

  /** @internal media upload: encrypted and stored on the peer's media server, as the phone uploads it */
  private async upload(plain: Buffer, type: MediaType) {
    const media = await encryptMedia(plain, type);
    const directPath = this.core.media.put(media.enc);
    return {
      url: this.core.media.urlFor(directPath),
      directPath,
      mediaKey: media.mediaKey,
      fileEncSha256: media.fileEncSha256,
      fileSha256: media.fileSha256,
      fileLength: media.fileLength,
      mediaKeyTimestamp: unixTimestampSeconds(),
    };
  }

  private keyFor(target: Target, id: string, fromMe: boolean, asLid?: boolean): proto.IMessageKey {
    if (target instanceof PeerGroup) {
      // in a group the key names the author of the message reacted to (the company's, unless it's the contact's own)
      const company = target.account;
      return {
        remoteJid: target.jid,
        fromMe,
        id,
        participant: fromMe ? undefined : target.addressingMode === 'lid' ? company.lidJid : company.jid,
      };
    }
    // from the contact's point of view the chat is the company's jid
    return { remoteJid: asLid ? target.lidJid : target.jid, fromMe, id };
  }

  private contextFor(target: Target, quoted: QuotedRef): proto.IContextInfo {
    const lid = target instanceof PeerGroup && target.addressingMode === 'lid';
    const company = target instanceof PeerGroup ? target.account : target;
    return {
      stanzaId: quoted.id,
      participant: quoted.fromCompany ? (lid ? company.lidJid : company.jid) : lid ? this.lidJid : this.jid,
      quotedMessage: quoted.message ?? { conversation: '' },
    };
  }

  private async prepare(target: Target, messages: proto.IMessage[], options: SendOptions): Promise<PreparedBatch> {
    const perDevice = new Map<Companion, Deliverable[]>();
    const ids: string[] = [];
    const t = String(options.timestamp ?? unixTimestampSeconds());
    for (const message of messages) {
      const id = options.id ?? newMessageId();
      ids.push(id);
      this.remember(id, target, message, options);
      const items =
        target instanceof PeerGroup
          ? await this.groupStanzas(target, id, t, message, options)
          : await this.directStanzas(target, id, t, message, options);
      for (const [companion, item] of items) {
        let list = perDevice.get(companion);
        if (!list) {
          list = [];
          perDevice.set(companion, list);
        }
        list.push(item);
      }
    }
    return {
      ids,
      send: () => {
        for (const [companion, items] of perDevice) this.core.deliver(companion, items);
      },
    };
  }

  private remember(id: string, target: Target, message: proto.IMessage, options: SendOptions): void {
    this.sent.set(id, { target, message, options });
    if (this.sent.size > 2_000) {
      const oldest = this.sent.keys().next().value;
      if (oldest !== undefined) this.sent.delete(oldest);
    }
  }

  private stanzaAttrs(id: string, t: string, message: proto.IMessage, options: SendOptions): Record<string, string> {
    const attrs: Record<string, string> = { id, t, type: stanzaType(message) };
    if (this.pushName) attrs.notify = this.pushName;
    if (options.edit) attrs.edit = options.edit;
    return attrs;
  }

  private async directStanzas(
    account: PeerAccount,
    id: string,
    t: string,
    message: proto.IMessage,
    options: SendOptions,
  ): Promise<[Companion, Deliverable][]> {
    const attrs = this.stanzaAttrs(id, t, message, options);
    // the sender's address and its alternate (how Baileys 7 learns LID ↔ PN: decode-wa-message's extractAddressingContext)
    if (options.asLid) {
      attrs.from = this.lidJid;
      attrs.sender_pn = this.jid;
      attrs.addressing_mode = 'lid';
    } else {
      attrs.from = this.jid;
      attrs.sender_lid = this.lidJid;
    }
    const data = encodeWAMessage(message);
    const out: [Companion, Deliverable][] = [];
    for (const companion of account.devices) {
      const enc = await encryptForCompanion(this.signal, companion, data, encExtras(message));
      out.push([companion, { key: `m:${id}`, node: { tag: 'message', attrs, content: [enc] } }]);
    }
    return out;
  }

  private async groupStanzas(
    group: PeerGroup,
    id: string,
    t: string,
    message: proto.IMessage,
    options: SendOptions,
  ): Promise<[Companion, Deliverable][]> {
    const lidMode = group.addressingMode === 'lid';
    const author = lidMode ? this.lidJid : this.jid;
    const attrs = this.stanzaAttrs(id, t, message, options);
    attrs.from = group.jid;
    attrs.participant = author;
    attrs.addressing_mode = group.addressingMode;
    if (lidMode) attrs.participant_pn = this.jid;
    else attrs.participant_lid = this.lidJid;
    // one sender-key ciphertext for everyone; the key itself goes 1:1 (pkmsg/msg) to devices that lack it
    const { ciphertext, distribution } = await this.signal.encryptGroup(
      group.jid,
      deviceAddress(this.pn, 0),
      encodeWAMessage(message),
    );
    const out: [Companion, Deliverable][] = [];
    for (const account of group.accounts()) {
      for (const companion of account.devices) {
        const content: BinaryNode[] = [];
        const keySent = `${group.jid}|${account.pn}:${companion.device}`;
        if (!this.groupKeysSent.has(keySent)) {
          const skdm = encodeWAMessage({
            senderKeyDistributionMessage: { groupId: group.jid, axolotlSenderKeyDistributionMessage: distribution },
          });
          content.push(await encryptForCompanion(this.signal, companion, skdm));
          this.groupKeysSent.add(keySent);
        }
        content.push({ tag: 'enc', attrs: { v: '2', type: 'skmsg', ...encExtras(message) }, content: ciphertext });
        out.push([companion, { key: `m:${id}`, node: { tag: 'message', attrs, content } }]);
      }
    }
    return out;
  }

  private receipt(target: Target, ids: string[], type: string | undefined, asLid?: boolean): void {
    const first = ids[0];
    if (!first) return;
    // answer from the address the company wrote to (PN or LID), as the real fan-out does
    const known = this.received.find((m) => m.id === first);
    const attrs: Record<string, string> = { id: first, t: String(unixTimestampSeconds()) };
    if (target instanceof PeerGroup) {
      attrs.from = target.jid;
      attrs.participant = (known ? known.from.includes('@lid') : target.addressingMode === 'lid') ? this.lidJid : this.jid;
    } else {
      attrs.from = (asLid ?? known?.to.endsWith('@lid')) ? this.lidJid : this.jid;
    }
    if (type) attrs.type = type;
    const rest = ids.slice(1);
    const node: BinaryNode = {
      tag: 'receipt',
      attrs,
      content: rest.length
        ? [{ tag: 'list', attrs: {}, content: rest.map((id) => ({ tag: 'item', attrs: { id } })) }]
        : undefined,
    };
    const accounts = target instanceof PeerGroup ? target.accounts() : [target];
    for (const account of accounts) {
      for (const companion of account.devices) {
        this.core.deliver(companion, [
          { key: `r:${first}:${attrs.from}:${attrs.participant ?? ''}:${type ?? ''}`, node: { ...node, attrs: { ...attrs } } },
        ]);
      }
    }
  }

  /** @internal a message stanza from a companion, with the enc copy addressed to this contact's device */
  acceptFromCompanion(companion: Companion, stanza: BinaryNode, enc: BinaryNode | undefined, group?: PeerGroup): void {
    this.chain = this.chain
      .then(() => this.decryptFromCompanion(companion, stanza, enc, group))
      .catch((err: unknown) => this.core.logger.warn({ err, contact: this.pn, id: stanza.attrs.id }, 'peer: failed to decrypt'));
  }

  private async decryptFromCompanion(companion: Companion, stanza: BinaryNode, enc: BinaryNode | undefined, group?: PeerGroup) {
    const id = stanza.attrs.id ?? '';
    const to = stanza.attrs.to ?? '';
    const lidMode = group ? (stanza.attrs.addressing_mode ?? group.addressingMode) === 'lid' : to.endsWith('@lid');
    const sender = companion.jidFor(lidMode);
    let message: proto.IMessage | undefined;
    let encType: ReceivedMessage['encType'] = 'msg';
    if (enc && enc.content instanceof Uint8Array) {
      const type = enc.attrs.type === 'pkmsg' ? 'pkmsg' : 'msg';
      const plain = await this.signal.decrypt(companion.address, type, enc.content);
      message = proto.Message.decode(unpadRandomMax16(plain));
      encType = type;
      const distribution = message.senderKeyDistributionMessage?.axolotlSenderKeyDistributionMessage;
      if (distribution && group) await this.signal.processSenderKeyDistribution(group.jid, companion.address, distribution);
    }
    if (group) {
      const skmsg = getBinaryNodeChildren(stanza, 'enc').find((e) => e.attrs.type === 'skmsg');
      if (!(skmsg?.content instanceof Uint8Array)) return;
      const plain = await this.signal.decryptGroup(group.jid, companion.address, skmsg.content);
      message = proto.Message.decode(unpadRandomMax16(plain));
      encType = 'skmsg';
    }
    if (!message) return;
    const received: ReceivedMessage = {
      id,
      message,
      timestamp: unixTimestampSeconds(),
      from: sender,
      to: group ? group.jid : to,
      group: group?.jid,
      encType,
      stanzaType: stanza.attrs.type,
      edit: stanza.attrs.edit,
    };
    this.received.push(received);
    notify(this.waiters, received);
    if (this.autoDeliveryReceipts) {
      this.receipt(group ?? companion.account, [id], undefined, group ? undefined : lidMode);
    }
  }

  /** @internal the client asked for a message again (it could not decrypt it): re-key if it sent keys, resend */
  async retry(companion: Companion, receipt: BinaryNode): Promise<void> {
    const id = receipt.attrs.id ?? '';
    const original = this.sent.get(id);
    const retryNode = getBinaryNodeChild(receipt, 'retry');
    const count = Number(retryNode?.attrs.count ?? '1');
    if (!original || count > 3) return;
    const keys = getBinaryNodeChild(receipt, 'keys');
    if (keys) {
      const skey = getBinaryNodeChild(keys, 'skey');
      const key = getBinaryNodeChild(keys, 'key');
      const identity = getBinaryNodeChildBuffer(keys, 'identity');
      const registrationId = getBinaryNodeChildUInt(receipt, 'registration', 4);
      const skeyValue = getBinaryNodeChildBuffer(skey, 'value');
      const skeySignature = getBinaryNodeChildBuffer(skey, 'signature');
      if (skey && identity && skeyValue && skeySignature && registrationId !== undefined) {
        const bundle: PreKeyBundle = {
          registrationId,
          identity,
          signedPreKey: { keyId: getBinaryNodeChildUInt(skey, 'id', 3) ?? 0, public: skeyValue, signature: skeySignature },
        };
        const preKeyValue = getBinaryNodeChildBuffer(key, 'value');
        if (key && preKeyValue) bundle.preKey = { keyId: getBinaryNodeChildUInt(key, 'id', 3) ?? 0, public: preKeyValue };
        await this.signal.initSession(companion.address, bundle);
      }
    }
    if (original.target instanceof PeerGroup) return;
    const items = await this.directStanzas(
      original.target,
      id,
      String(unixTimestampSeconds()),
      original.message,
      original.options,
    );
    for (const [device, item] of items) {
      if (device !== companion) continue;
      for (const child of item.node.content as BinaryNode[]) child.attrs.count = String(count);
      this.core.deliver(device, [item]);
    }
  }
}

function stanzaType(message: proto.IMessage): string {
  const content = normalizeMessageContent(message);
  if (content?.reactionMessage) return 'reaction';
  if (content?.pollCreationMessage || content?.pollCreationMessageV3 || content?.pollUpdateMessage) return 'poll';
  if (mediaType(message)) return 'media';
  return 'text';
}

function mediaType(message: proto.IMessage): string | undefined {
  const content = normalizeMessageContent(message);
  if (!content) return undefined;
  if (content.imageMessage) return 'image';
  if (content.videoMessage) return content.videoMessage.gifPlayback ? 'gif' : 'video';
  if (content.audioMessage) return content.audioMessage.ptt ? 'ptt' : 'audio';
  if (content.documentMessage) return 'document';
  if (content.stickerMessage) return 'sticker';
  if (content.contactMessage) return 'vcard';
  if (content.contactsArrayMessage) return 'contact_array';
  if (content.locationMessage) return 'location';
  if (content.liveLocationMessage) return 'livelocation';
  return undefined;
}

function encExtras(message: proto.IMessage): Record<string, string> {
  const extras: Record<string, string> = {};
  const media = mediaType(message);
  if (media) extras.mediatype = media;
  if (normalizeMessageContent(message)?.reactionMessage) extras['decrypt-fail'] = 'hide';
  return extras;
}

export interface GroupOptions {
  /** `lid` (WhatsApp's default for groups now) or `pn` */
  addressingMode?: 'lid' | 'pn';
  /** the group id (digits before @g.us); random if omitted */
  id?: string;
  description?: string;
}

/** A group the company's account is in, with simulated contacts. */
export class PeerGroup {
  readonly jid: string;
  readonly addressingMode: 'lid' | 'pn';
  readonly description: string | undefined;
  readonly creation = unixTimestampSeconds();

  constructor(
    readonly account: PeerAccount,
    readonly subject: string,
    readonly members: PeerContact[],
    options: GroupOptions = {},
  ) {
    this.jid = `${options.id ?? `120363${Array.from({ length: 12 }, () => randomInt(0, 10)).join('')}`}@g.us`;
    this.addressingMode = options.addressingMode ?? 'lid';
    this.description = options.description;
  }

  /** @internal the accounts with linked devices in this group */
  accounts(): PeerAccount[] {
    return [this.account];
  }

  /** The group's metadata node, as `w:g2` answers it (and `w:gp2` create notifications carry it). */
  metadataNode(): BinaryNode {
    const lid = this.addressingMode === 'lid';
    const participant = (party: PeerAccount | PeerContact, admin?: string): BinaryNode => ({
      tag: 'participant',
      attrs: {
        jid: lid ? party.lidJid : party.jid,
        ...(lid ? { phone_number: party.jid } : { lid: party.lidJid }),
        ...(admin ? { type: admin } : {}),
      },
    });
    const creator = this.account;
    const content: BinaryNode[] = [participant(this.account, 'superadmin'), ...this.members.map((m) => participant(m))];
    if (this.description) {
      content.push({
        tag: 'description',
        attrs: { id: newMessageId(), t: String(this.creation), participant: lid ? creator.lidJid : creator.jid },
        content: [{ tag: 'body', attrs: {}, content: Buffer.from(this.description) }],
      });
    }
    return {
      tag: 'group',
      attrs: {
        id: this.jid.split('@')[0] as string,
        subject: this.subject,
        s_t: String(this.creation),
        s_o: lid ? creator.lidJid : creator.jid,
        creation: String(this.creation),
        creator: lid ? creator.lidJid : creator.jid,
        ...(lid ? { creator_pn: creator.jid } : {}),
        addressing_mode: this.addressingMode,
        size: String(this.members.length + 1),
      },
      content,
    };
  }
}
