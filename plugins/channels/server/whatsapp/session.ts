import type { AsyncLocalStorage } from 'node:async_hooks';
import { type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import {
  Browsers,
  type ConnectionState,
  DisconnectReason,
  jidDecode,
  jidNormalizedUser,
  makeWASocket,
  proto,
  type WAMessageKey,
  type WAMessageUpdate,
  type WASocket,
} from '@whiskeysockets/baileys';
import { updateConnectionStatus } from '../connections/session.service';
import { HistoryImport } from './import';
import { InboundPipeline } from './inbound';
import { muteLibsignalConsole } from './libsignal-console';
import { toProductAck } from './outbound';
import { failQueued, sentContent } from './outbox';
import { OutboxSender } from './sender';
import { LeaseLostError, type SessionLease, usePostgresAuthState } from './session-store';
import { enableOnlyInTransactions, retireTransactionStorage, transactionStorageOf } from './transaction-storage';
import { resolveWaVersion, type WhatsAppTransport } from './transport';

/** How long a gone socket's in-flight work may still use its key store's transactions (transaction-storage.ts). */
const STORAGE_RETIRE_MS = 30_000;

// this module loads with a process's first session, before Baileys opens any Signal session
muteLibsignalConsole();

/** How a session was asked to start. */
export interface StartOptions {
  /** Pair by phone number instead of a QR code: the digits of the company's number. */
  pairingNumber?: string;
}

/** Why a session ended, as the host needs to know it. */
export type SessionEnd = 'stopped' | 'lost' | 'loggedOut' | 'banned' | 'qrExpired';

export interface SessionHostApi {
  ctx: PluginContext;
  transport: WhatsAppTransport;
  /** Called once, when the session is over (the host forgets it and releases its lease unless lost). */
  ended(session: WhatsAppSession, why: SessionEnd): void;
}

/**
 * Baileys' log: its warnings and errors (it logs every "restart required" after a pairing as an error),
 * never its chatter; a quieter app (tests: silent) stays quieter.
 */
const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

function baileysLogger(log: PluginContext['log'], connectionId: number) {
  const level = (LEVELS[log.level] ?? 0) > (LEVELS.warn as number) ? log.level : 'warn';
  return log.child({ whatsappId: connectionId, lib: 'baileys' }, { level });
}

/** Statuses of `connection.update` closes that end a session for good. */
const LOGGED_OUT = DisconnectReason.loggedOut;
const BANNED = DisconnectReason.forbidden;

/**
 * One connection's WhatsApp session in the process that holds its lease (host.ts): the Baileys socket with
 * its auth state in Postgres (session-store/), reconnections, the QR and pairing-code flows, inbound
 * messages (inbound.ts), the outbox drain (sender.ts), receipts and the history import (import.ts).
 *
 * Reconnection (docs/channels/whatsapp.md "Sessions"): "restart required" (after pairing) reconnects at
 * once; a network loss or a server error after a backoff with jitter (`reconnectBaseMs` doubling up to
 * `reconnectMaxMs`); a conflict (another session replaced this one) from `conflictBaseMs`; logged out or
 * banned stop and say why; QR codes that ran out stop as TIMEOUT. Presence is never forced online, so the
 * phone keeps its notifications.
 */
export class WhatsAppSession {
  readonly whatsappId: number;
  readonly companyId: number;
  /** The connection status this session last wrote (OPENING until it says otherwise), for metrics. */
  state = 'OPENING';
  private socket: WASocket | null = null;
  /** The key store's async storage of the latest socket (transaction-storage.ts): disabled once it is gone. */
  private socketStorage: AsyncLocalStorage<unknown> | null = null;
  private open = false;
  private stopping = false;
  private ended = false;
  private retries = 0;
  private conflicts = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private stableTimer: NodeJS.Timeout | null = null;
  private pairingNumber: string | null;
  private pairingRequested = false;
  private auth: Awaited<ReturnType<typeof usePostgresAuthState>> | null = null;
  readonly sender: OutboxSender;
  readonly inbound: InboundPipeline;
  private readonly history: HistoryImport;
  private readonly unsubscribeLease: () => void;

  constructor(
    private readonly host: SessionHostApi,
    private readonly lease: SessionLease,
    options: StartOptions = {},
  ) {
    this.whatsappId = lease.connectionId;
    this.companyId = lease.companyId;
    this.pairingNumber = options.pairingNumber ?? null;
    const { ctx } = host;
    const log = ctx.log.child({ whatsappId: this.whatsappId });
    this.sender = new OutboxSender({
      ctx,
      companyId: this.companyId,
      whatsappId: this.whatsappId,
      socket: () => (this.open ? this.socket : null),
      get sendsPerSecond() {
        return host.transport.sendsPerSecond;
      },
      owns: () => !this.lease.lost,
    });
    this.inbound = new InboundPipeline({
      ctx,
      companyId: this.companyId,
      whatsappId: this.whatsappId,
      socket: () => this.socket,
      get downloadOptions() {
        return host.transport.downloadOptions;
      },
      get settingsCacheMs() {
        return host.transport.settingsCacheMs;
      },
      log,
    });
    this.history = new HistoryImport(ctx, this.companyId, this.whatsappId, this.inbound);
    // another process took the session over (this one stalled past its lease): let go at once, quietly
    this.unsubscribeLease = lease.onLost(() => void this.finish('lost'));
  }

  get connected(): boolean {
    return this.open;
  }

  /** The epoch of the lease it runs under (a newer one elsewhere means this one must stop). */
  get epoch(): number {
    return this.lease.epoch;
  }

  /**
   * Loads the auth state and starts connecting (with the stored creds, or a new pairing) without waiting for
   * the socket: a process taking many sessions at once doesn't wait for each handshake.
   */
  async start(): Promise<void> {
    this.auth = await usePostgresAuthState(this.host.ctx.db.knex, this.lease);
    void this.connect().catch((error) => this.log.warn({ err: error }, 'whatsapp connect failed'));
  }

  /** Pair by phone number from now on (a session waiting for its QR code to be read). */
  async pairWith(number: string): Promise<void> {
    if (this.auth?.state.creds.registered) return;
    this.pairingNumber = number;
    this.pairingRequested = false;
    if (this.socket && !this.open) await this.requestPairingCode();
  }

  /**
   * Whether each number (digits) has a WhatsApp account, asked in one query; null for each while not
   * connected or when WhatsApp doesn't answer.
   */
  async onWhatsApp(numbers: string[]): Promise<Array<boolean | null>> {
    if (!this.socket || !this.open || numbers.length === 0) return numbers.map(() => null);
    const found = await this.socket.onWhatsApp(...numbers.map((number) => `${number}@s.whatsapp.net`)).catch(() => undefined);
    if (!found) return numbers.map(() => null);
    const exists = new Map(found.map((entry) => [String(entry.jid).split('@')[0]?.split(':')[0] ?? '', entry.exists === true]));
    return numbers.map((number) => exists.get(number) ?? false);
  }

  /** A contact's profile picture address (a JID or a number), or null when hidden or not connected. */
  async profilePicture(identifier: string): Promise<string | null> {
    if (!this.socket || !this.open) return null;
    const jid = identifier.includes('@') ? identifier : `${identifier.replace(/\D/g, '')}@s.whatsapp.net`;
    return (await this.socket.profilePictureUrl(jid, 'image').catch(() => undefined)) ?? null;
  }

  /** Reconnects now (an admin's "try again", or "restart all"): any backoff is cut short. */
  reconnectNow(): void {
    if (this.stopping) return;
    this.retries = 0;
    this.conflicts = 0;
    if (this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = null;
      void this.connect().catch((error) => this.log.warn({ err: error }, 'whatsapp reconnect failed'));
      return;
    }
    // an open socket is closed and comes back on its own (the close handler reconnects)
    this.socket?.end(new Error('reconnect requested') as never);
  }

  /** Ends the session without touching its pairing (process stopping, lease handed over). */
  async stop(): Promise<void> {
    await this.finish('stopped');
  }

  /**
   * Logs out (the phone forgets this device), clears the stored keys and ends: the admin's "disconnect",
   * a new QR code, a deleted connection. Queued sends fail (visible to agents).
   */
  async logout(): Promise<void> {
    this.stopping = true;
    try {
      if (this.socket && this.open) await this.socket.logout().catch(() => {});
    } finally {
      await this.auth?.clear().catch((error) => this.log.warn({ err: error }, 'whatsapp auth clear failed'));
      await this.failQueuedSends('ERR_WAPP_NOT_INITIALIZED');
      await this.finish('stopped');
    }
  }

  private get log() {
    return this.host.ctx.log.child({ whatsappId: this.whatsappId });
  }

  private async connect(): Promise<void> {
    if (this.stopping || this.lease.lost || !this.auth) return;
    const { transport } = this.host;
    const version = await resolveWaVersion(transport);
    if (this.stopping || this.lease.lost) return;
    const importing = await this.history.wanted();
    const { knex } = this.host.ctx.db;
    const socket = makeWASocket({
      auth: this.auth.state,
      version,
      waWebSocketUrl: transport.waWebSocketUrl,
      connectTimeoutMs: transport.connectTimeoutMs,
      keepAliveIntervalMs: transport.keepAliveIntervalMs,
      ...(transport.qrTimeoutMs ? { qrTimeout: transport.qrTimeoutMs } : {}),
      ...(transport.fetchAgent ? { fetchAgent: transport.fetchAgent } : {}),
      ...(transport.options ? { options: transport.options } : {}),
      // a desktop browser name is what makes the phone offer its full history (the message import)
      browser: importing ? Browsers.macOS('Desktop') : Browsers.ubuntu('Balcão'),
      syncFullHistory: importing,
      // Baileys leaves out the full history by default; an import is what asked for it
      ...(importing ? { shouldSyncHistoryMessage: () => true } : {}),
      // the phone keeps ringing: WhatsApp silences it while a companion shows "online"
      markOnlineOnConnect: false,
      // our own sends are stored by the inbox already; the phone's are not (they come as messages)
      emitOwnEvents: false,
      generateHighQualityLinkPreview: false,
      logger: baileysLogger(this.host.ctx.log, this.whatsappId) as never,
      // WhatsApp's retry requests re-encrypt what we sent: it comes from the outbox, not from memory
      getMessage: async (key: WAMessageKey) => {
        if (!key.id) return undefined;
        const content = await sentContent(knex, this.whatsappId, key.id);
        return content ? proto.Message.decode(content) : undefined;
      },
    });
    this.socket = socket;
    // each connect makes a socket; the previous one is closed by now (or closing): its storage goes
    retireTransactionStorage(this.socketStorage, STORAGE_RETIRE_MS);
    this.socketStorage = transactionStorageOf(socket.authState.keys);
    enableOnlyInTransactions(socket.authState.keys, this.socketStorage);
    this.open = false;
    this.pairingRequested = false;
    socket.ev.process(async (events) => {
      if (this.socket !== socket) return;
      try {
        if (events['connection.update']) await this.onConnectionUpdate(socket, events['connection.update']);
        if (events['creds.update']) await this.auth?.saveCreds();
        if (events['messages.upsert']) {
          const { messages, type } = events['messages.upsert'];
          if (type === 'notify' || type === 'append') this.inbound.accept(messages);
        }
        if (events['messages.update']) await this.onMessagesUpdate(events['messages.update']);
        if (events['messaging-history.set']) await this.history.accept(events['messaging-history.set']);
        if (events.call) for (const call of events.call) if (call.status === 'offer') await this.onCall(socket, call);
        if (events['lid-mapping.update']) await this.onIdentityLearnt(events['lid-mapping.update']);
      } catch (error) {
        if (error instanceof LeaseLostError) await this.finish('lost');
        else this.log.warn({ err: error }, 'whatsapp event handling failed');
      }
    });
  }

  private async status(patch: Parameters<typeof updateConnectionStatus>[3]): Promise<void> {
    // a session whose lease is gone no longer speaks for the connection
    if (this.lease.lost) return;
    if (patch.status) this.state = patch.status;
    await updateConnectionStatus(this.host.ctx, this.companyId, this.whatsappId, patch).catch((error) =>
      this.log.warn({ err: error }, 'whatsapp status update failed'),
    );
  }

  private async requestPairingCode(): Promise<void> {
    const socket = this.socket;
    if (!socket || !this.pairingNumber || this.pairingRequested) return;
    this.pairingRequested = true;
    try {
      const code = await socket.requestPairingCode(this.pairingNumber);
      await this.status({ status: 'PAIRING', pairingCode: code, qrcode: '', sessionError: null });
    } catch (error) {
      this.pairingRequested = false;
      this.log.warn({ err: error }, 'whatsapp pairing code request failed');
    }
  }

  private async onConnectionUpdate(socket: WASocket, update: Partial<ConnectionState>): Promise<void> {
    if (update.qr) {
      if (this.pairingNumber) await this.requestPairingCode();
      else await this.status({ status: 'qrcode', qrcode: update.qr, pairingCode: null, sessionError: null });
    }
    if (update.isNewLogin) await this.history.paired();
    if (update.connection === 'open') {
      this.open = true;
      this.retries = 0;
      // a conflict loop (two clients taking turns) opens every time: only a connection that stays up
      // ends it, or the backoff would never grow
      this.clearStableTimer();
      this.stableTimer = setTimeout(() => {
        this.conflicts = 0;
      }, this.host.transport.conflictBaseMs * 2);
      this.stableTimer.unref();
      this.pairingNumber = null;
      const number = socket.user?.id ? (jidDecode(socket.user.id)?.user ?? '') : '';
      await this.status({ status: 'CONNECTED', qrcode: '', pairingCode: null, retries: 0, sessionError: null, number });
      this.history.connected();
      this.sender.wake();
    }
    if (update.connection === 'close') {
      this.clearStableTimer();
      if (this.open) await this.history.disconnected();
      this.open = false;
      if (this.socket === socket) this.socket = null;
      await this.onClose(update.lastDisconnect?.error);
    }
  }

  private async onClose(error: Error | undefined): Promise<void> {
    if (this.stopping || this.ended) return;
    const status = (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
    const registered =
      this.auth?.state.creds.registered === true || Boolean(this.auth?.state.creds.me?.id && this.auth?.state.creds.account);
    if (status === DisconnectReason.restartRequired) {
      // after a pairing WhatsApp asks for a fresh connection with the new creds: at once, not a failure
      await this.connect();
      return;
    }
    if (status === LOGGED_OUT || status === BANNED) {
      const code = status === LOGGED_OUT ? 'ERR_WAPP_LOGGED_OUT' : 'ERR_WAPP_BANNED';
      this.stopping = true;
      await this.auth?.clear().catch(() => {});
      await this.failQueuedSends(code);
      await this.status({ status: 'DISCONNECTED', qrcode: '', pairingCode: null, sessionError: code });
      await this.finish(status === LOGGED_OUT ? 'loggedOut' : 'banned');
      return;
    }
    if (status === DisconnectReason.timedOut && !registered && /QR refs/i.test(error?.message ?? '')) {
      // nobody read the codes: stop asking (no endless QR loop), the admin starts again when ready
      this.stopping = true;
      await this.status({ status: 'TIMEOUT', qrcode: '', pairingCode: null, sessionError: 'ERR_WAPP_QR_EXPIRED' });
      await this.finish('qrExpired');
      return;
    }
    const { transport } = this.host;
    let delay: number;
    if (status === DisconnectReason.connectionReplaced) {
      this.conflicts += 1;
      delay = Math.min(transport.reconnectMaxMs, transport.conflictBaseMs * 2 ** (this.conflicts - 1));
    } else {
      this.retries += 1;
      delay = Math.min(transport.reconnectMaxMs, transport.reconnectBaseMs * 2 ** (this.retries - 1));
    }
    // jitter: sessions that dropped together don't all come back in the same instant
    delay = Math.round(delay * (0.5 + Math.random()));
    await this.status({
      status: 'OPENING',
      retries: this.retries,
      sessionError: this.conflicts >= 3 ? 'ERR_WAPP_CONFLICT' : null,
    });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect().catch((err) => this.log.warn({ err }, 'whatsapp reconnect failed'));
    }, delay);
    this.reconnectTimer.unref();
  }

  /**
   * WhatsApp told that a LID and a phone number are one person: the inbox links them, so a contact who
   * wrote from each (two contacts so far) becomes one.
   */
  private async onIdentityLearnt(mapping: { lid: string; pn: string }): Promise<void> {
    const identifiers = [mapping.lid, mapping.pn].filter(Boolean).map((jid) => jidNormalizedUser(jid));
    if (identifiers.length < 2) return;
    await this.host.ctx.services.use('inbox').linkIdentities({ companyId: this.companyId, channel: 'whatsapp', identifiers });
  }

  /** Receipts of our messages (server, delivered, read, played) → the product's acks. */
  private async onMessagesUpdate(updates: WAMessageUpdate[]): Promise<void> {
    const inbox = this.host.ctx.services.use('inbox');
    for (const { key, update } of updates) {
      if (!key.id || !key.fromMe || typeof update.status !== 'number') continue;
      const ack = toProductAck(update.status);
      if (ack === null) continue;
      await inbox.updateAck({ companyId: this.companyId, whatsappId: this.whatsappId, channelMessageId: key.id, ack });
    }
  }

  /** A call: its log on the ticket; refused, with the company's message, when calls are off. */
  private async onCall(socket: WASocket, call: Parameters<InboundPipeline['call']>[0]): Promise<void> {
    const { ctx } = this.host;
    const ticketId = await this.inbound.call(call);
    if ((await ctx.settings.get(this.companyId, 'acceptCallWhatsapp')) !== 'disabled') return;
    // not awaited: Baileys waits for the server's answer, and events of this session queue behind this handler
    void socket.rejectCall(call.id, call.from).catch((error) => this.log.warn({ err: error }, 'whatsapp call reject failed'));
    const text = (await ctx.settings.get(this.companyId, 'AcceptCallWhatsappMessage'))?.trim();
    if (ticketId && text) {
      await runInTenant({ companyId: this.companyId }, () =>
        ctx.services.use('inbox').send({ ticketId, body: text, automation: 'call' }),
      );
    }
  }

  private clearStableTimer(): void {
    if (this.stableTimer) clearTimeout(this.stableTimer);
    this.stableTimer = null;
  }

  private async failQueuedSends(code: string): Promise<void> {
    const failed = await failQueued(this.host.ctx.db.knex, this.whatsappId, code);
    const inbox = this.host.ctx.services.use('inbox');
    for (const row of failed) {
      await inbox.reportDeliveryFailure({
        companyId: row.companyId,
        whatsappId: this.whatsappId,
        channelMessageId: row.channelMessageId,
        error: code,
      });
    }
  }

  /** The one way out: timers, the drain and the socket stop; the host is told once. */
  private async finish(why: SessionEnd): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.stopping = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.clearStableTimer();
    this.sender.stop();
    this.history.stop();
    this.unsubscribeLease();
    const socket = this.socket;
    this.socket = null;
    if (this.open) await this.history.disconnected();
    this.open = false;
    // ending the socket is not logging out: the pairing stays for the next owner
    socket?.end(undefined);
    retireTransactionStorage(this.socketStorage, STORAGE_RETIRE_MS);
    this.socketStorage = null;
    await this.inbound.idle().catch(() => {});
    this.host.ended(this, why);
  }
}
