import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { CHANNEL_PLAN_FLAGS } from '@balcao/plugin-sdk/server';
import { findAccount, type MetaChannel } from '../accounts';
import type { MetaContext } from '../config';
import { type InboundJob, MEDIA_JOB_RETRIES } from '../inbound/apply';
import type { ConnectionEvents, InboundEvent } from '../inbound/events';

/** Whether `header` is the app secret's HMAC-SHA256 of the exact bytes received (`sha256=<hex>`). */
export function signatureValid(appSecret: string, raw: Buffer, header: unknown): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice(7), 'hex');
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const jobKey = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 20);

/**
 * What names an event for the job id: the platform's ids and what the event says of them (a message's id
 * is its content: Meta never reuses one). A few bytes per event, where hashing the events' JSON cost a
 * second serialisation of the whole delivery on the webhook's answer.
 */
function identityOf(event: InboundEvent): string {
  switch (event.kind) {
    case 'message':
      return `m:${event.id}`;
    case 'reaction':
      return `r:${event.person.id}:${event.targetId}:${event.fromMe ? 1 : 0}:${event.emoji}`;
    case 'ack':
      return `a:${event.id}:${event.ack}`;
    case 'failed':
      return `f:${event.id}:${event.error}`;
    case 'delete':
      return `d:${event.id}`;
    case 'echo':
      return `e:${event.id}`;
  }
}

/**
 * Queues a verified delivery's events as durable jobs, per connection: the events without a file in one
 * `inbound` job, each message with a file in an `inbound-media` job of its own (downloads are slow and
 * retried apart). Ids name the content, so a replay while the first is pending queues nothing new, and
 * what the first stored is never stored twice (the inbox's receive is idempotent by message id).
 * Answers how many connections it reached. Ids no connection is (one removed, another install's) are
 * logged and dropped: refusing them only makes Meta retry, and disable the shared app's webhook.
 */
export async function queueDelivery(
  ctx: MetaContext,
  channel: MetaChannel,
  parsed: { connections: ConnectionEvents[]; skipped: number },
): Promise<number> {
  let reached = 0;
  const unknown: string[] = [];
  for (const { externalId, events } of parsed.connections) {
    const account = await findAccount(ctx, channel, externalId);
    if (!account) {
      unknown.push(externalId);
      continue;
    }
    reached += 1;
    const flag = CHANNEL_PLAN_FLAGS[channel];
    if (!account.active || (flag && !(await ctx.plans.has(account.companyId, flag)))) {
      ctx.log.info(
        { whatsappId: account.whatsappId, channel },
        'a Meta delivery for a stopped connection or a plan without the channel: dropped',
      );
      continue;
    }
    const plain: InboundEvent[] = [];
    for (const event of events) {
      if (event.kind === 'message' && event.media) {
        const data: InboundJob = { whatsappId: account.whatsappId, channel, events: [event] };
        await ctx.jobs.enqueue('inbound-media', data, {
          companyId: account.companyId,
          jobId: `media-${account.whatsappId}-${jobKey(event.id)}`,
          retries: MEDIA_JOB_RETRIES,
          timeoutMs: 120_000,
        });
      } else plain.push(event);
    }
    if (plain.length === 0) continue;
    const data: InboundJob = { whatsappId: account.whatsappId, channel, events: plain };
    await ctx.jobs.enqueue('inbound', data, {
      companyId: account.companyId,
      jobId: `in-${account.whatsappId}-${jobKey(plain.map(identityOf).join('\n'))}`,
      retries: 5,
    });
  }
  if (unknown.length > 0) ctx.log.warn({ channel, ids: unknown.slice(0, 5) }, 'a Meta delivery named ids no connection is');
  if (parsed.skipped > 0) ctx.log.info({ channel, skipped: parsed.skipped }, 'a Meta delivery carried events we do not store');
  return reached;
}
