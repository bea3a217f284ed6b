import type { MetaAccount } from './accounts';
import type { MetaContext } from './config';
import { GraphError } from './graph/client';

/**
 * How long a send cut off between the Graph and our record (a crash, a timeout) waits for proof that the
 * Graph took it — a status webhook (WhatsApp Cloud) or the page's echo (Messenger, Instagram) naming our
 * message id — before it is settled without (see AfterWait). Both come within seconds of the acceptance.
 */
export const SEND_RECONCILE_MS = 120_000;

/**
 * What our send puts in WhatsApp Cloud's `biz_opaque_callback_data` and in a Messenger or Instagram
 * message's `metadata`: Meta hands it back on every status of the message (WhatsApp Cloud) or on the
 * page's echo of it (Messenger, Instagram).
 */
export const callbackDataOf = (messageId: number) => `balcao:${messageId}`;

/** The earlier try of a message, if any. */
export type AttemptState =
  /** No earlier try, or one older than SEND_RECONCILE_MS without proof: send now. */
  | { kind: 'send' }
  /** The Graph took it already: its id, nothing to send. */
  | { kind: 'sent'; channelMessageId: string }
  /** An earlier try's outcome is unknown yet: sending now could send it twice. */
  | { kind: 'unknown' }
  /**
   * Messenger and Instagram: an earlier try had no proof within SEND_RECONCILE_MS. The record is gone, so
   * the agent's own retry (after a look at the conversation) sends; nothing sends it again by itself.
   */
  | { kind: 'unconfirmed' };

/**
 * What a try does when an earlier one of the message had no proof within SEND_RECONCILE_MS: WhatsApp Cloud
 * sends again (its statuses are reliable: no `sent` status in that time means the Graph never took it);
 * Messenger and Instagram answer `unconfirmed` (their only proof is the page's echo, which a page
 * unsubscribed from echoes never sends: sending blind could send it twice).
 */
export type AfterWait = 'resend' | 'unconfirmed';

/**
 * Records a send before the Graph is called (the Graph has no idempotency key). The inbox
 * hands the driver the same message id on every try, so a try after a crash between the Graph's acceptance
 * and the inbox's record finds this row: with the Graph's id (learnt from the answer or from a status
 * webhook) it answers that id instead of sending; without, it waits for the status up to SEND_RECONCILE_MS.
 */
export async function beginAttempt(
  ctx: MetaContext,
  account: MetaAccount,
  messageId: number,
  afterWait: AfterWait = 'resend',
): Promise<AttemptState> {
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
  if (afterWait === 'unconfirmed') {
    const dropped = await knex('metaSendAttempts')
      .where({ messageId, companyId: account.companyId })
      .whereNull('channelMessageId')
      .where('startedAt', '<=', new Date(Date.now() - SEND_RECONCILE_MS))
      .del();
    return dropped > 0 ? { kind: 'unconfirmed' } : { kind: 'unknown' };
  }
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

/** A status webhook or an echo named our message (`balcao:<id>`): the Graph's id of an attempt without one. */
export async function learnSentId(ctx: MetaContext, account: MetaAccount, messageId: number, channelMessageId: string) {
  await ctx.db
    .knex('metaSendAttempts')
    .where({ messageId, companyId: account.companyId, whatsappId: account.whatsappId })
    .whereNull('channelMessageId')
    .update({ channelMessageId });
}
