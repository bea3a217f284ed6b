import type { MetaAccount } from './accounts';
import type { MetaContext } from './config';
import { GraphError } from './graph/client';

/**
 * How long a send cut off between the Graph and our record (a crash, a timeout) waits for proof that the
 * Graph took it — a status webhook naming our message id — before it is sent again. Meta's `sent` status
 * comes within seconds of its acceptance.
 */
export const SEND_RECONCILE_MS = 120_000;

/** What our send puts in `biz_opaque_callback_data`: Meta hands it back on every status of the message. */
export const callbackDataOf = (messageId: number) => `balcao:${messageId}`;

/** The earlier try of a message, if any. */
export type AttemptState =
  /** No earlier try, or one older than SEND_RECONCILE_MS without proof: send now. */
  | { kind: 'send' }
  /** The Graph took it already: its id, nothing to send. */
  | { kind: 'sent'; channelMessageId: string }
  /** An earlier try's outcome is unknown yet: sending now could send it twice. */
  | { kind: 'unknown' };

/**
 * Records a WhatsApp Cloud send before the Graph is called (the Graph has no idempotency key). The inbox
 * hands the driver the same message id on every try, so a try after a crash between the Graph's acceptance
 * and the inbox's record finds this row: with the Graph's id (learnt from the answer or from a status
 * webhook) it answers that id instead of sending; without, it waits for the status up to SEND_RECONCILE_MS.
 */
export async function beginAttempt(ctx: MetaContext, account: MetaAccount, messageId: number): Promise<AttemptState> {
  const knex = ctx.db.knex;
  const inserted = await knex('metaSendAttempts')
    .insert({ messageId, companyId: account.companyId, whatsappId: account.whatsappId })
    .onConflict('messageId')
    .ignore()
    .returning('messageId');
  if (inserted.length > 0) return { kind: 'send' };
  const earlier = await knex('metaSendAttempts')
    .where({ messageId, companyId: account.companyId })
    .first('channelMessageId', 'startedAt');
  if (!earlier) return { kind: 'unknown' };
  if (earlier.channelMessageId) return { kind: 'sent', channelMessageId: String(earlier.channelMessageId) };
  if (Date.now() - new Date(earlier.startedAt).getTime() < SEND_RECONCILE_MS) return { kind: 'unknown' };
  // no proof in all that time: the earlier try never reached the Graph; this one starts the clock again
  const restarted = await knex('metaSendAttempts')
    .where({ messageId, companyId: account.companyId })
    .whereNull('channelMessageId')
    .where('startedAt', '<=', new Date(Date.now() - SEND_RECONCILE_MS))
    .update({ startedAt: knex.fn.now() });
  return restarted > 0 ? { kind: 'send' } : { kind: 'unknown' };
}

/** The Graph answered the send: its id, for any later try. */
export async function finishAttempt(ctx: MetaContext, account: MetaAccount, messageId: number, channelMessageId: string) {
  await ctx.db.knex('metaSendAttempts').where({ messageId, companyId: account.companyId }).update({ channelMessageId });
}

/**
 * The Graph answered an error: nothing was sent, the next try may send. Without an answer (status 0: a
 * timeout, a reset connection) the Graph may have taken it, so the row stays for reconciliation.
 */
export async function abandonAttempt(ctx: MetaContext, account: MetaAccount, messageId: number, error: unknown) {
  if (error instanceof GraphError && error.status === 0) return;
  await ctx.db.knex('metaSendAttempts').where({ messageId, companyId: account.companyId }).whereNull('channelMessageId').del();
}

/** A status webhook named our message (`biz_opaque_callback_data`): the Graph's id of an attempt without one. */
export async function learnSentId(ctx: MetaContext, account: MetaAccount, messageId: number, channelMessageId: string) {
  await ctx.db
    .knex('metaSendAttempts')
    .where({ messageId, companyId: account.companyId, whatsappId: account.whatsappId })
    .whereNull('channelMessageId')
    .update({ channelMessageId });
}
