import { createHash } from 'node:crypto';
import type { OutboundMessage, PluginContext } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';

/**
 * The outbox of WhatsApp connections (migration 0004): every outbound operation, in order, until WhatsApp
 * took it. Any process writes it (the inbox's delivery job runs anywhere); only the process that owns a
 * connection's session drains it (sender.ts). See docs/channels/whatsapp.md "Outbound".
 */

export type OutboxOp = 'send' | 'edit' | 'delete' | 'react' | 'read';

/** What a send needs later, in another process maybe: the message without its file's stream. */
export interface SendPayload {
  body: string;
  mediaType: string;
  media: { fileName: string; mimetype: string | null; storageKey: string } | null;
  quoted: OutboundMessage['quoted'];
  vCard: string | null;
  isForwarded: boolean;
}

export interface OutboxRow {
  id: number;
  companyId: number;
  whatsappId: number;
  op: OutboxOp;
  channelMessageId: string | null;
  messageId: number | null;
  jid: string;
  payload: Record<string, unknown>;
  state: 'queued' | 'sent' | 'failed';
  attempts: number;
}

/** Topic of the feature broadcast that wakes a connection's sender (payload `{ whatsappId }`). */
export const OUTBOX_TOPIC = 'whatsapp-outbox';

/**
 * The WhatsApp id of an inbox message, fixed before its first try: a send repeated after a crash (or a
 * retry by the agent) is the same message to WhatsApp, which recipients keep once. Shaped like WhatsApp
 * Web's own ids (`3EB0` + 18 hex digits).
 */
export function whatsappMessageId(connectionId: number, messageId: number): string {
  const digest = createHash('sha256').update(`balcao:${connectionId}:${messageId}`).digest('hex');
  return `3EB0${digest.slice(0, 18).toUpperCase()}`;
}

/** The payload of a send, from the inbox's message. */
export function sendPayloadOf(message: OutboundMessage): SendPayload {
  return {
    body: message.body,
    mediaType: message.mediaType,
    media: message.media
      ? { fileName: message.media.fileName, mimetype: message.media.mimetype, storageKey: message.media.storageKey }
      : null,
    quoted: message.quoted ?? null,
    vCard: message.vCard ?? null,
    isForwarded: message.isForwarded === true,
  };
}

/**
 * Queues an operation. A send is one row per WhatsApp id: asking again (the inbox's job repeated, an agent's
 * retry of a failed message) puts the same row back in the queue — at the end, behind what was asked since —
 * instead of adding a second.
 */
export async function enqueueOutbox(
  knex: Knex,
  row: {
    companyId: number;
    whatsappId: number;
    op: OutboxOp;
    channelMessageId: string | null;
    messageId?: number | null;
    jid: string;
    payload: Record<string, unknown>;
  },
): Promise<void> {
  const values = {
    companyId: row.companyId,
    whatsappId: row.whatsappId,
    op: row.op,
    channelMessageId: row.channelMessageId,
    messageId: row.messageId ?? null,
    jid: row.jid,
    payload: JSON.stringify(row.payload),
  };
  if (row.op !== 'send') {
    await knex('whatsappOutbox').insert(values);
    return;
  }
  await knex.raw(
    `INSERT INTO whatsapp_outbox (company_id, whatsapp_id, op, channel_message_id, message_id, jid, payload)
     VALUES (:companyId, :whatsappId, 'send', :channelMessageId, :messageId, :jid, :payload::jsonb)
     ON CONFLICT (whatsapp_id, channel_message_id) WHERE op = 'send'
     DO UPDATE SET state = 'queued', attempts = 0, last_error = NULL, available_at = now(), payload = excluded.payload,
       jid = excluded.jid, id = nextval(pg_get_serial_sequence('whatsapp_outbox', 'id'))
     WHERE whatsapp_outbox.state <> 'queued'`,
    values,
  );
}

/** Wakes the sender of a connection in whichever process runs its session. */
export async function wakeSender(ctx: PluginContext, connectionId: number): Promise<void> {
  await ctx.broadcast.publish(OUTBOX_TOPIC, { whatsappId: connectionId });
}

/** The next operations of a connection ready to go, oldest first. */
export async function nextQueued(knex: Knex, connectionId: number, limit: number): Promise<OutboxRow[]> {
  const rows = (await knex('whatsappOutbox')
    .where({ whatsappId: connectionId, state: 'queued' })
    .where('availableAt', '<=', knex.fn.now())
    .orderBy('id')
    .limit(limit)
    .select(
      'id',
      'companyId',
      'whatsappId',
      'op',
      'channelMessageId',
      'messageId',
      'jid',
      'payload',
      'state',
      'attempts',
    )) as Array<OutboxRow & { id: string | number; messageId: string | number | null }>;
  return rows.map((row) => ({ ...row, id: Number(row.id), messageId: row.messageId === null ? null : Number(row.messageId) }));
}

/** Whether a connection has anything queued (ready now or later), and when the earliest later one is due. */
export async function queuedState(knex: Knex, connectionId: number): Promise<{ ready: boolean; nextAt: Date | null }> {
  const row = (await knex('whatsappOutbox')
    .where({ whatsappId: connectionId, state: 'queued' })
    .min({ nextAt: 'availableAt' })
    .first()) as { nextAt: Date | null } | undefined;
  const nextAt = row?.nextAt ? new Date(row.nextAt) : null;
  return { ready: nextAt !== null && nextAt.getTime() <= Date.now(), nextAt };
}

export async function markSent(knex: Knex, id: number, content: Uint8Array | null): Promise<void> {
  await knex('whatsappOutbox')
    .where({ id })
    .update({ state: 'sent', sentAt: knex.fn.now(), content: content ? Buffer.from(content) : null, lastError: null });
}

export async function markFailed(knex: Knex, id: number, error: string): Promise<void> {
  await knex('whatsappOutbox')
    .where({ id })
    .update({ state: 'failed', sentAt: knex.fn.now(), lastError: error.slice(0, 200) });
}

/** A try that failed for a reason that may pass: the row goes again after `delayMs`. */
export async function postpone(knex: Knex, id: number, error: string, delayMs: number): Promise<void> {
  await knex('whatsappOutbox')
    .where({ id })
    .update({
      attempts: knex.raw('attempts + 1'),
      lastError: error.slice(0, 200),
      availableAt: knex.raw(`now() + (? * interval '1 millisecond')`, [delayMs]),
    });
}

/**
 * Fails every queued send of a connection whose session ended for good (logged out, banned, removed), so
 * that agents see them failed and can retry once it is paired again; other queued operations are dropped.
 * Answers the sends that failed, for the inbox.
 */
export async function failQueued(
  knex: Knex,
  connectionId: number,
  error: string,
): Promise<Array<{ companyId: number; channelMessageId: string }>> {
  const failed = (await knex('whatsappOutbox')
    .where({ whatsappId: connectionId, state: 'queued', op: 'send' })
    .update({ state: 'failed', sentAt: knex.fn.now(), lastError: error })
    .returning(['companyId', 'channelMessageId'])) as Array<{ companyId: number; channelMessageId: string }>;
  await knex('whatsappOutbox').where({ whatsappId: connectionId, state: 'queued' }).delete();
  return failed;
}

/** The message as it was sent (for WhatsApp's retry requests), or undefined. */
export async function sentContent(knex: Knex, connectionId: number, channelMessageId: string): Promise<Buffer | undefined> {
  const row = (await knex('whatsappOutbox')
    .where({ whatsappId: connectionId, op: 'send', channelMessageId })
    .whereNotNull('content')
    .first('content')) as { content: Buffer } | undefined;
  return row?.content;
}

/** How long sent and failed rows are kept (WhatsApp's retry requests come within minutes to days). */
export const OUTBOX_KEEP_MS = 14 * 86_400_000;

/** Drops rows done for longer than `OUTBOX_KEEP_MS`; answers how many. */
export async function sweepOutbox(knex: Knex): Promise<number> {
  return knex('whatsappOutbox')
    .whereNot('state', 'queued')
    .where('sentAt', '<', new Date(Date.now() - OUTBOX_KEEP_MS))
    .delete();
}
