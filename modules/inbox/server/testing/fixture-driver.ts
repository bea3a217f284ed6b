/**
 * A channel driver for tests (server and browser): it records every outbound call instead of talking to
 * a channel, can be told to fail, and registers itself with a test app's inbox service.
 *
 * @example
 * const t = await createTestApp();
 * const { driver } = registerFixtureDriver(t);
 * … POST /api/messages/:ticketId …
 * await driver.waitFor(() => driver.sent.length === 1);
 */
import {
  AppError,
  type ChannelDriver,
  type InboundMessage,
  type InboxService,
  type MessageAck,
  type OutboundMessage,
  type OutboundTarget,
} from '@balcao/plugin-sdk/server';

/** One recorded `send`, with the file's bytes when the message had one. */
export interface SentRecord {
  target: OutboundTarget;
  message: OutboundMessage;
  channelMessageId: string;
  media: Buffer | null;
}

export interface FixtureDriver extends ChannelDriver {
  sent: SentRecord[];
  edited: Array<{ target: OutboundTarget; channelMessageId: string; body: string }>;
  deleted: Array<{ target: OutboundTarget; channelMessageId: string }>;
  reacted: Array<{ target: OutboundTarget; channelMessageId: string; reaction: string }>;
  read: Array<{ target: OutboundTarget; channelMessageIds: string[] }>;
  /**
   * The next `count` sends (and edits, deletes, reactions) throw: an `AppError` with `code` (default
   * ERR_SENDING_WAPP_MSG), or a plain Error when `code` is null (the inbox then records ERR_SENDING_WAPP_MSG).
   */
  failNext(count: number, code?: `ERR_${string}` | null): void;
  /** Forgets the recorded calls and pending failures. */
  reset(): void;
  /** Resolves once `check` holds (polled every 10 ms); rejects after `timeoutMs` (default 5 s). */
  waitFor(check: () => boolean, timeoutMs?: number): Promise<void>;
}

export interface FixtureDriverOptions {
  /** The ack a successful send reports (default none: the inbox stores 1). */
  ack?: MessageAck;
  /** Prefix of the channel message ids it makes (default `fx`). */
  idPrefix?: string;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** A recording driver (see the module comment). */
export function createFixtureDriver(options: FixtureDriverOptions = {}): FixtureDriver {
  let failures = 0;
  let failCode: `ERR_${string}` | null = 'ERR_SENDING_WAPP_MSG';
  let next = 0;
  const prefix = options.idPrefix ?? 'fx';
  const maybeFail = () => {
    if (failures <= 0) return;
    failures -= 1;
    if (failCode === null) throw new Error('fixture driver: failing as told');
    throw new AppError(failCode);
  };
  const driver: FixtureDriver = {
    sent: [],
    edited: [],
    deleted: [],
    reacted: [],
    read: [],
    async send(target, message) {
      maybeFail();
      const stream = message.media ? await message.media.open() : null;
      const media = stream ? await readAll(stream) : null;
      next += 1;
      const channelMessageId = `${prefix}-${Date.now().toString(36)}-${next}`;
      driver.sent.push({ target, message, channelMessageId, media });
      return options.ack === undefined ? { channelMessageId } : { channelMessageId, ack: options.ack };
    },
    async edit(target, channelMessageId, body) {
      maybeFail();
      driver.edited.push({ target, channelMessageId, body });
    },
    async delete(target, channelMessageId) {
      maybeFail();
      driver.deleted.push({ target, channelMessageId });
    },
    async react(target, channelMessageId, reaction) {
      maybeFail();
      driver.reacted.push({ target, channelMessageId, reaction });
    },
    async markRead(target, channelMessageIds) {
      driver.read.push({ target, channelMessageIds });
    },
    async profilePicture() {
      return null;
    },
    failNext(count, code = 'ERR_SENDING_WAPP_MSG') {
      failures = count;
      failCode = code;
    },
    reset() {
      failures = 0;
      driver.sent.length = 0;
      driver.edited.length = 0;
      driver.deleted.length = 0;
      driver.reacted.length = 0;
      driver.read.length = 0;
    },
    async waitFor(check, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > deadline) throw new Error('fixture driver: condition not met in time');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
  return driver;
}

/** What a test app offers to reach the inbox service (`TestApp` from `@balcao/plugin-sdk/testing`). */
export interface AppWithServices {
  balcao: { core: { services: { use(name: 'inbox'): InboxService } } };
}

/** The inbox service of a test app (`ctx.services.use('inbox')` as a channel plugin would call it). */
export function inboxServiceOf(t: AppWithServices): InboxService {
  return t.balcao.core.services.use('inbox');
}

/**
 * Registers a fixture driver (a new one unless given) for a channel (default `whatsapp`) with a test
 * app's inbox; `unregister` takes it away again.
 */
export function registerFixtureDriver(
  t: AppWithServices,
  channel = 'whatsapp',
  driver: FixtureDriver = createFixtureDriver(),
): { driver: FixtureDriver; unregister: () => void } {
  const unregister = inboxServiceOf(t).registerDriver(channel, driver);
  return { driver, unregister };
}

let inboundCounter = 0;

/**
 * An inbound message as a WhatsApp driver would report it, for `inbox.receive`: a contact known by a
 * phone JID, a fresh channel message id, text `body`. Override anything.
 */
export function fixtureInbound(
  companyId: number,
  whatsappId: number,
  overrides: {
    number?: string;
    name?: string;
    body?: string;
    id?: string;
    fromMe?: boolean;
    identifiers?: string[];
    group?: InboundMessage['group'];
    message?: Partial<InboundMessage['message']>;
    queueId?: number | null;
    channel?: string;
  } = {},
): InboundMessage {
  inboundCounter += 1;
  const number = overrides.number ?? '5511988887777';
  return {
    companyId,
    whatsappId,
    channel: overrides.channel ?? 'whatsapp',
    contact: {
      identifiers: overrides.identifiers ?? [`${number}@s.whatsapp.net`],
      number,
      name: overrides.name ?? `Contact ${number.slice(-4)}`,
    },
    ...(overrides.group ? { group: overrides.group } : {}),
    ...(overrides.queueId !== undefined ? { queueId: overrides.queueId } : {}),
    message: {
      id: overrides.id ?? `in-${Date.now().toString(36)}-${inboundCounter}`,
      body: overrides.body ?? 'Olá',
      fromMe: overrides.fromMe ?? false,
      ...overrides.message,
    },
  };
}
