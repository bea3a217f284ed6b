import type { InboundMessage } from '@balcao/plugin-sdk/server';
import { accountOfConnection, type MetaAccount, type MetaChannel } from '../accounts';
import type { MetaContext } from '../config';
import { graphOf } from '../graph/client';
import { contactProfile } from '../profiles';
import { touchWindows } from '../windows';
import type { InboundEvent } from './events';

/** Contacts of one delivery worked on at once (each contact's events stay in order). */
const CONTACTS_AT_ONCE = 8;

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
      return inbox.updateAck({ ...where, channelMessageId: event.id, ack: event.ack });
    case 'failed':
      return inbox.reportDeliveryFailure({ ...where, channelMessageId: event.id, error: event.error });
    case 'delete':
      return inbox.applyDelete({ ...where, channelMessageId: event.id });
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
    else byPerson.set(person, [...(byPerson.get(person) ?? []), event]);
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

/**
 * The `inbound-media` job: fetches a message's file from the Graph (its URLs expire, so it is done now,
 * retried while the Graph fails) and stores the message with it in the company's storage.
 */
export async function applyInboundMedia(
  data: Record<string, unknown>,
  ctx: MetaContext,
  job: { companyId: number | null },
): Promise<void> {
  const { whatsappId, events } = data as InboundJob;
  if (job.companyId === null) return;
  const account = await liveAccount(ctx, job.companyId, whatsappId);
  const event = events[0];
  if (!account || event?.kind !== 'message' || !event.media) return;
  await touchWindows(ctx, account.companyId, account.whatsappId, windowsOf(events));
  const graph = graphOf(ctx);
  let url = event.media.url;
  if (event.media.mediaId) {
    const info = await graph.call<{ url: string; mime_type?: string }>(event.media.mediaId, { token: account.token });
    url = info.url;
  }
  if (!url) return store(ctx, account, event);
  const file = await graph.download(url, account.token);
  await store(ctx, account, event, {
    data: file.data,
    mimetype: event.media.mimetype ?? file.mimetype,
    fileName: event.media.fileName ?? null,
  });
}
