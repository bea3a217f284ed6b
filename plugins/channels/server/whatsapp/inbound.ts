import type { Readable } from 'node:stream';
import type { InboundMessage, InboundResult, PluginContext } from '@balcao/plugin-sdk/server';
import { downloadMediaMessage, jidDecode, type WACallEvent, type WAMessage, type WASocket } from '@whiskeysockets/baileys';
import {
  type InboundEvent,
  type InboundMessageEvent,
  type LookupsNeeded,
  lookupsFor,
  lookupsForCall,
  type MediaToFetch,
  type NormaliseContext,
  normaliseCall,
  normaliseMessage,
} from './inbound/index';

/** What the inbound side needs of its session. */
export interface InboundHost {
  ctx: PluginContext;
  companyId: number;
  whatsappId: number;
  socket(): WASocket | null;
  /** Download options of the transport (a test CA's dispatcher, …). */
  downloadOptions?: Record<string, unknown>;
  /** How long the settings read here are kept. */
  settingsCacheMs: number;
  log: PluginContext['log'];
}

/** Tries of an inbox write that failed (a database hiccup must not lose a message WhatsApp already delivered). */
const RECEIVE_TRIES = 3;

/** Runs `write` up to `RECEIVE_TRIES` times, waiting 200 ms, then 400 ms, between tries. */
async function withRetries<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= RECEIVE_TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

/** How messages are taken in: live (default), or as the import's history. */
export interface AcceptOptions {
  /** History of the import: stored read, no automation (InboundMessage.imported). */
  imported?: boolean;
  /** The queue new tickets start in (the import's `queueIdImportMessages`). */
  queueId?: number | null;
  /** Told the inbox's answer of each message stored. */
  onResult?: (result: InboundResult) => void;
}

/** Chats handled at once; messages of one chat always one after the other (order within a conversation). */
const CHAT_CONCURRENCY = 16;
/** How long a group's subject is remembered. */
const GROUP_NAME_TTL_MS = 3_600_000;

/**
 * Turns what the WhatsApp socket hears into the inbox's calls: every message through the normaliser
 * (inbound/) into `receive` (with its file downloaded to storage), edits, deletes and reactions into their
 * calls, calls into call logs (refused with the company's message when calls are off). Messages of one chat
 * are handled in order; different chats in parallel. Nothing is acknowledged to WhatsApp by us: Baileys
 * sends the delivery receipt when it decrypted the message, and read receipts leave only when an agent
 * opens the ticket (the outbox's `read`).
 */
export class InboundPipeline {
  private readonly chains = new Map<string, Promise<void>>();
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly groupNames = new Map<string, { name: string | undefined; at: number }>();
  private settingsCache: { at: number; allowGroup: boolean; downloadLimitBytes: number } | null = null;

  constructor(private readonly host: InboundHost) {}

  /**
   * Messages of `messages.upsert` (or of the history), in the order they came; each promise settles when
   * its message was handled (failures are logged, never thrown: one bad message doesn't stop its chat).
   */
  accept(messages: WAMessage[], options: AcceptOptions = {}): Promise<void>[] {
    return messages.map((message) => this.enqueue(message.key?.remoteJid ?? '', () => this.handle(message, options)));
  }

  /** Resolves once every accepted message was handled (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.allSettled([...this.chains.values()]);
  }

  private enqueue(chat: string, task: () => Promise<void>): Promise<void> {
    const previous = this.chains.get(chat) ?? Promise.resolve();
    const next = previous
      .then(() => this.withSlot(task))
      .catch((error) => this.host.log.warn({ err: error, whatsappId: this.host.whatsappId }, 'whatsapp inbound message failed'));
    this.chains.set(chat, next);
    void next.finally(() => {
      if (this.chains.get(chat) === next) this.chains.delete(chat);
    });
    return next;
  }

  private async withSlot(task: () => Promise<void>): Promise<void> {
    if (this.active >= CHAT_CONCURRENCY) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      await task();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }

  /** The connection's allowGroup and the company's download limit, read at most every `settingsCacheMs`. */
  private async settings(): Promise<{ allowGroup: boolean; downloadLimitBytes: number }> {
    if (this.settingsCache && Date.now() - this.settingsCache.at < this.host.settingsCacheMs) return this.settingsCache;
    const { ctx, companyId, whatsappId: connectionId } = this.host;
    const [row, limit] = await Promise.all([
      ctx.db.knex('whatsapps').where({ companyId, id: connectionId }).first('allowGroup'),
      ctx.settings.get(companyId, 'downloadLimit'),
    ]);
    const megabytes = Number(limit);
    this.settingsCache = {
      at: Date.now(),
      allowGroup: row?.allowGroup === true,
      downloadLimitBytes: (Number.isFinite(megabytes) && megabytes > 0 ? megabytes : 64) * 1024 * 1024,
    };
    return this.settingsCache;
  }

  /** The lookups the normaliser needs, resolved ahead (they are asynchronous in Baileys' stores). */
  private async context(needed: LookupsNeeded): Promise<NormaliseContext> {
    const socket = this.host.socket();
    const { allowGroup } = await this.settings();
    const pnByLid = new Map<string, string>();
    const lidByPn = new Map<string, string>();
    if (socket) {
      const mapping = socket.signalRepository.lidMapping;
      for (const lid of needed.lids) {
        const pn = await mapping.getPNForLID(lid).catch(() => null);
        if (pn) pnByLid.set(lid, pn);
      }
      // the store only, never `getLIDForPN`: for a number it doesn't know, that asks WhatsApp's servers (a
      // usync query per message, uncached when the answer is empty) — a round trip on every inbound message
      const users = needed.phoneJids.map((pn) => jidDecode(pn)?.user).filter((user): user is string => Boolean(user));
      if (users.length > 0) {
        let stored: Record<string, string> = {};
        try {
          stored = await socket.authState.keys.get('lid-mapping', users);
        } catch {
          // a lookup that failed leaves the message with the identifier it carries
        }
        for (const pn of needed.phoneJids) {
          const lidUser = stored[jidDecode(pn)?.user ?? ''];
          if (typeof lidUser === 'string' && lidUser) lidByPn.set(pn, `${lidUser}@lid`);
        }
      }
    }
    const groupName = needed.groupJid ? await this.groupName(needed.groupJid) : undefined;
    return {
      ...this.self(),
      allowGroup,
      lidToPn: (lid) => pnByLid.get(lid),
      pnToLid: (pn) => lidByPn.get(pn),
      groupName: (jid) => (jid === needed.groupJid ? groupName : undefined),
    };
  }

  /** The connection's own JIDs (its phone's messages and chats with itself are told apart by them). */
  private self(): { meId?: string; meLid?: string } {
    const me = this.host.socket()?.user;
    return { ...(me?.id ? { meId: me.id } : {}), ...(me?.lid ? { meLid: me.lid } : {}) };
  }

  private async groupName(jid: string): Promise<string | undefined> {
    const cached = this.groupNames.get(jid);
    if (cached && Date.now() - cached.at < GROUP_NAME_TTL_MS) return cached.name;
    const socket = this.host.socket();
    const name = socket
      ? await socket.groupMetadata(jid).then(
          (meta) => meta.subject,
          () => undefined,
        )
      : undefined;
    this.groupNames.set(jid, { name, at: Date.now() });
    return name;
  }

  private async handle(message: WAMessage, options: AcceptOptions): Promise<void> {
    const event = normaliseMessage(message, await this.context(lookupsFor(message, this.self())));
    if (event.kind === 'message' && event.unsupportedType) {
      this.host.log.info(
        { whatsappId: this.host.whatsappId, type: event.unsupportedType },
        'whatsapp message of an unsupported type',
      );
    }
    await this.apply(event, message, options);
  }

  /** Applies one normalised event to the inbox. */
  private async apply(event: InboundEvent, raw: WAMessage | null, options: AcceptOptions): Promise<void> {
    const { ctx, companyId, whatsappId: connectionId } = this.host;
    const inbox = ctx.services.use('inbox');
    switch (event.kind) {
      case 'ignore':
        return;
      case 'edit':
        await inbox.applyEdit({
          companyId,
          whatsappId: connectionId,
          channelMessageId: event.channelMessageId,
          body: event.body,
        });
        return;
      case 'delete':
        await inbox.applyDelete({ companyId, whatsappId: connectionId, channelMessageId: event.channelMessageId });
        return;
      case 'reaction':
        await inbox.applyReaction({
          companyId,
          whatsappId: connectionId,
          channelMessageId: event.channelMessageId,
          type: event.type,
          fromMe: event.fromMe,
          ...(event.contactIdentifier ? { contactIdentifier: event.contactIdentifier } : {}),
        });
        return;
      case 'message': {
        const input = this.inboundOf(event, options);
        const withoutFile = () => {
          const media = event.media;
          const named = media ? `[${media.fileName ?? media.mimetype}]` : '';
          return { ...input, message: { ...input.message, body: [input.message.body, named].filter(Boolean).join('\n') } };
        };
        let file: Awaited<ReturnType<InboundPipeline['download']>> = null;
        if (event.media && raw) file = await this.download(raw, event.media);
        let result: InboundResult;
        if (file) {
          try {
            // once: the file's stream can't be read twice
            result = await inbox.receive({ ...input, message: { ...input.message, media: file } });
          } catch (error) {
            // the file broke off on its way (WhatsApp's media server, the storage): the message itself is
            // not lost — it is kept naming its file
            this.host.log.warn(
              { err: error, whatsappId: connectionId },
              'whatsapp media could not be stored; the message is kept without it',
            );
            result = await withRetries(() => inbox.receive(withoutFile()));
          }
        } else {
          result = await withRetries(() => inbox.receive(event.media ? withoutFile() : input));
        }
        options.onResult?.(result);
        return;
      }
    }
  }

  /**
   * The message's file, streamed from WhatsApp's media servers (decrypted by Baileys), or an ad preview's
   * picture — or null when it is over the company's download limit (the message is kept, its body names
   * the file) or can't be fetched.
   */
  private async download(
    raw: WAMessage,
    media: MediaToFetch,
  ): Promise<{ data: Readable | Buffer; mimetype: string; fileName?: string | null } | null> {
    const { downloadLimitBytes } = await this.settings();
    if (media.fileLength !== undefined && media.fileLength > downloadLimitBytes) return null;
    try {
      if (media.kind === 'thumbnail') {
        if (media.bytes) return { data: Buffer.from(media.bytes), mimetype: media.mimetype, fileName: media.fileName };
        if (!media.url?.startsWith('https://')) return null;
        const response = await fetch(media.url, { signal: AbortSignal.timeout(15_000) });
        if (!response.ok) return null;
        const bytes = Buffer.from(await response.arrayBuffer());
        return bytes.length <= downloadLimitBytes ? { data: bytes, mimetype: media.mimetype, fileName: media.fileName } : null;
      }
      const socket = this.host.socket();
      const stream = (await downloadMediaMessage(
        raw,
        'stream',
        this.host.downloadOptions ? { options: this.host.downloadOptions } : {},
        socket ? { reuploadRequest: socket.updateMediaMessage, logger: socket.logger } : undefined,
      )) as Readable;
      return { data: stream, mimetype: media.mimetype, fileName: media.fileName ?? null };
    } catch (error) {
      this.host.log.warn({ err: error, whatsappId: this.host.whatsappId }, 'whatsapp media download failed');
      return null;
    }
  }

  /** An incoming call: its call log on the contact's ticket; answers the ticket (to reply on it). */
  async call(call: WACallEvent): Promise<number | null> {
    const { ctx } = this.host;
    const event = normaliseCall(call, await this.context(lookupsForCall(call)));
    if (event.kind !== 'message') return null;
    const result = await ctx.services.use('inbox').receive(this.inboundOf(event));
    return result.ticketId;
  }

  /** The inbox's input of a normalised message (its file added by the caller). */
  private inboundOf(event: InboundMessageEvent, options: AcceptOptions = {}): InboundMessage {
    return {
      companyId: this.host.companyId,
      whatsappId: this.host.whatsappId,
      channel: 'whatsapp',
      contact: event.contact,
      ...(event.group ? { group: event.group } : {}),
      message: { ...event.message },
      ...(options.imported ? { imported: true } : {}),
      ...(options.queueId ? { queueId: options.queueId } : {}),
    };
  }
}
