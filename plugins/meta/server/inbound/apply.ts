import type { InboundMessage } from '@balcao/plugin-sdk/server';
import { accountOfConnection, type MetaAccount, type MetaChannel } from '../accounts';
import type { MetaContext } from '../config';
import { GraphError, graphOf } from '../graph/client';
import { mapGraphError } from '../graph/errors';
import { contactProfile } from '../profiles';
import { applyReceipt } from '../receipts';
import { learnSentId } from '../send-attempts';
import { touchWindows } from '../windows';
import type { InboundEvent } from './events';

/**
 * Contacts of one delivery worked on at once (each contact's events stay in order): a whole delivery of
 * Meta's (100 messages at most), so its messages reach the inbox's receive together and leave as one
 * batch statement (the inbox gathers concurrent receives, up to 50 a statement) instead of a few at a time.
 */
const CONTACTS_AT_ONCE = 100;

type MessageEvent = Extract<InboundEvent, { kind: 'message' }>;

/** The job data of `inbound` (every event of one delivery without a file) and `inbound-media` (one event with a file). */
export interface InboundJob extends Record<string, unknown> {
  whatsappId: number;
  channel: MetaChannel;
  events: InboundEvent[];
}

function personOf(event: InboundEvent): string | null {
  return event.kind === 'message' || event.kind === 'reaction' ? event.person.id : null;
}

async function store(ctx: MetaContext, account: MetaAccount, event: MessageEvent, media?: InboundMessage['message']['media']) {
  const inbox = ctx.services.use('inbox');
  const profile = event.fromMe ? null : await contactProfile(ctx, account, event.person.id);
  await inbox.receive({
    companyId: account.companyId,
    whatsappId: account.whatsappId,
    channel: account.channel,
    contact: {
      identifiers: [event.person.id],
      name: profile?.name ?? event.person.name ?? null,
      number: event.person.number ?? null,
      urlPicture: profile?.picture ?? null,
    },
    message: {
      id: event.id,
      fromMe: event.fromMe,
      body: event.body,
      mediaType: event.mediaType,
      ...(media ? { media } : {}),
      quotedId: event.quotedId ?? null,
      timestamp: new Date(event.timestamp),
      data: event.data,
    },
  });
}

async function apply(ctx: MetaContext, account: MetaAccount, event: InboundEvent): Promise<void> {
  const inbox = ctx.services.use('inbox');
  const where = { companyId: account.companyId, whatsappId: account.whatsappId };
  switch (event.kind) {
    case 'message':
      return store(ctx, account, event);
    case 'reaction':
      return inbox.applyReaction({
        ...where,
        channelMessageId: event.targetId,
        type: event.emoji,
        fromMe: event.fromMe,
        contactIdentifier: event.person.id,
      });
    case 'ack':
    case 'failed':
      return applyReceipt(ctx, account, event);
    case 'delete':
      return inbox.applyDelete({ ...where, channelMessageId: event.id });
    case 'echo':
      return learnSentId(ctx, account, event.sentAs, event.id);
  }
}

/** The latest inbound message of each contact in `events`: the 24-hour windows they open. */
function windowsOf(events: InboundEvent[]): Map<string, Date> {
  const latest = new Map<string, Date>();
  for (const event of events) {
    if (event.kind !== 'message' || event.fromMe) continue;
    const at = new Date(Math.min(event.timestamp, Date.now()));
    const known = latest.get(event.person.id);
    if (!known || known < at) latest.set(event.person.id, at);
  }
  return latest;
}

async function liveAccount(ctx: MetaContext, companyId: number, whatsappId: number): Promise<MetaAccount | null> {
  const account = await accountOfConnection(ctx, companyId, whatsappId);
  if (!account?.active) {
    ctx.log.info({ whatsappId }, 'Meta events of a connection that is stopped or gone: dropped');
    return null;
  }
  return account;
}

/**
 * The `inbound` job: applies one delivery's events of one connection. Contacts are worked on side by side
 * (a busy page's 100-message delivery is 100 conversations); one contact's events in the order Meta sent
 * them. Storing is idempotent by the platform's message id, so a retried job or a replayed delivery stores
 * nothing twice.
 */
export async function applyInbound(
  data: Record<string, unknown>,
  ctx: MetaContext,
  job: { companyId: number | null },
): Promise<void> {
  const { whatsappId, events } = data as InboundJob;
  if (job.companyId === null) return;
  const account = await liveAccount(ctx, job.companyId, whatsappId);
  if (!account) return;
  await touchWindows(ctx, account.companyId, account.whatsappId, windowsOf(events));
  const byPerson = new Map<string, InboundEvent[]>();
  const unordered: InboundEvent[] = [];
  for (const event of events) {
    const person = personOf(event);
    if (person === null) unordered.push(event);
    else {
      const lane = byPerson.get(person);
      if (lane) lane.push(event);
      else byPerson.set(person, [event]);
    }
  }
  const lanes = [...byPerson.values()];
  let next = 0;
  const failures: unknown[] = [];
  const worker = async () => {
    while (next < lanes.length) {
      const lane = lanes[next] as InboundEvent[];
      next += 1;
      for (const event of lane) await apply(ctx, account, event).catch((error: unknown) => failures.push(error));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONTACTS_AT_ONCE, lanes.length) }, worker));
  // receipts after the messages: an echo's ack may arrive in the same delivery as the echo itself
  for (const event of unordered) await apply(ctx, account, event).catch((error: unknown) => failures.push(error));
  // a failure retries the job: what was stored is not stored again
  if (failures.length > 0) throw failures[0];
}

/** Retries of an `inbound-media` job after its first try (the Graph's passing failures: outage, rate limit). */
export const MEDIA_JOB_RETRIES = 5;

/**
 * The note that replaces a file we can never fetch (too large, gone, refused), after the caption. A body is
 * stored once and shown as is, so it is written in the product's default language, as the WhatsApp
 * channel's own notes are.
 */
export const MEDIA_UNAVAILABLE_NOTE = 'Arquivo indisponível: não foi possível baixá-lo';

/** Whether a fetch failure will fail the same way on every retry (a 4xx other than a rate limit, a file too large). */
function permanentMediaFailure(error: unknown): boolean {
  if (!(error instanceof GraphError)) return false;
  if (error.status === 413) return true;
  return error.status >= 400 && error.status < 500 && !mapGraphError(error).transient;
}

async function fetchMedia(ctx: MetaContext, account: MetaAccount, media: NonNullable<MessageEvent['media']>) {
  const graph = graphOf(ctx);
  let url = media.url;
  if (media.mediaId) {
    const info = await graph.call<{ url: string; mime_type?: string }>(media.mediaId, { token: account.token });
    url = info.url;
  }
  if (!url) return null;
  return graph.download(url, account.token);
}

/**
 * The `inbound-media` job: fetches a message's file from the Graph (its URLs expire, so it is done now,
 * retried while the Graph fails) and stores the message with it in the company's storage. The webhook was
 * already answered, so a file that can never be fetched (refused, gone, too large, or still failing on the
 * last try) still stores the message: its caption and a note instead of the file.
 */
export async function applyInboundMedia(
  data: Record<string, unknown>,
  ctx: MetaContext,
  job: { id: string; companyId: number | null },
): Promise<void> {
  const { whatsappId, events } = data as InboundJob;
  if (job.companyId === null) return;
  const account = await liveAccount(ctx, job.companyId, whatsappId);
  const event = events[0];
  if (!account || event?.kind !== 'message' || !event.media) return;
  await touchWindows(ctx, account.companyId, account.whatsappId, windowsOf(events));
  let file: Awaited<ReturnType<typeof fetchMedia>>;
  try {
    file = await fetchMedia(ctx, account, event.media);
  } catch (error) {
    const permanent = permanentMediaFailure(error);
    // bee-queue tells a handler nothing of its tries: they are counted per job id, past the last backoff
    const { count } = permanent ? { count: 0 } : await ctx.cache.increment(`media-tries:${job.id}`, 3_600_000);
    if (!permanent && count <= MEDIA_JOB_RETRIES) throw error;
    ctx.log.warn({ err: error, whatsappId, messageId: event.id }, 'a Meta message file can not be fetched: stored without it');
    const body = event.body ? `${event.body}\n\n${MEDIA_UNAVAILABLE_NOTE}` : MEDIA_UNAVAILABLE_NOTE;
    return store(ctx, account, { ...event, body, mediaType: 'chat' });
  }
  if (!file) return store(ctx, account, event);
  await store(ctx, account, event, {
    data: file.data,
    mimetype: event.media.mimetype ?? file.mimetype,
    fileName: event.media.fileName ?? null,
  });
}
