import type { MetaAccount } from './accounts';
import type { MetaContext } from './config';
import type { InboundEvent } from './inbound/events';
import { learnSentId } from './send-attempts';

type Receipt = Extract<InboundEvent, { kind: 'ack' | 'failed' }>;

/** How long a receipt waits for its message's Graph id to be recorded before it is dropped. */
export const PENDING_RECEIPT_MS = 5 * 60_000;
/** Retries of a `pending-receipts` job (1 s, 2 s, 4 s … apart: past PENDING_RECEIPT_MS on the last). */
const PENDING_RECEIPT_RETRIES = 9;

async function recorded(ctx: MetaContext, companyId: number, whatsappId: number, channelMessageId: string) {
  const row = await ctx.db.knex('messages').where({ companyId, whatsappId, channelMessageId }).first('id');
  return row !== undefined;
}

async function applyNow(
  ctx: MetaContext,
  where: { companyId: number; whatsappId: number },
  receipt: Pick<Receipt, 'id'> & { ack?: number | null; error?: string | null },
) {
  const inbox = ctx.services.use('inbox');
  if (receipt.error) await inbox.reportDeliveryFailure({ ...where, channelMessageId: receipt.id, error: receipt.error });
  else if (receipt.ack) await inbox.updateAck({ ...where, channelMessageId: receipt.id, ack: receipt.ack as 1 });
}

/**
 * A receipt (an ack, or a `failed` status) of one of our messages. Meta's first status often arrives before
 * the inbox has recorded the id the send answered (they race within milliseconds): such a receipt is kept
 * in `metaPendingReceipts` and a delayed `pending-receipts` job applies it once the id is recorded, instead
 * of finding no message and being lost.
 */
export async function applyReceipt(ctx: MetaContext, account: MetaAccount, receipt: Receipt): Promise<void> {
  const where = { companyId: account.companyId, whatsappId: account.whatsappId };
  if (receipt.sentAs) await learnSentId(ctx, account, receipt.sentAs, receipt.id);
  if (await recorded(ctx, account.companyId, account.whatsappId, receipt.id)) {
    await applyNow(
      ctx,
      where,
      receipt.kind === 'ack' ? { id: receipt.id, ack: receipt.ack } : { id: receipt.id, error: receipt.error },
    );
    return;
  }
  const [row] = await ctx.db
    .knex('metaPendingReceipts')
    .insert({
      ...where,
      channelMessageId: receipt.id,
      ack: receipt.kind === 'ack' ? receipt.ack : null,
      error: receipt.kind === 'failed' ? receipt.error : null,
    })
    .returning('id');
  // one job per receipt: a job that is running already would swallow a second enqueue of a shared id
  await ctx.jobs.enqueue(
    'pending-receipts',
    { whatsappId: account.whatsappId, channelMessageId: receipt.id },
    { companyId: account.companyId, delayMs: 500, jobId: `receipt-${row.id}`, retries: PENDING_RECEIPT_RETRIES },
  );
}

/**
 * The `pending-receipts` job: applies the receipts kept for a message once the inbox has recorded its Graph
 * id (in the order they came), and fails — to be retried a little later — while it has not. Receipts older
 * than PENDING_RECEIPT_MS name a message that is not ours after all (sent from elsewhere, deleted): dropped.
 */
export async function applyPendingReceipts(
  data: Record<string, unknown>,
  ctx: MetaContext,
  job: { companyId: number | null },
): Promise<void> {
  const whatsappId = Number(data.whatsappId);
  const channelMessageId = String(data.channelMessageId ?? '');
  if (job.companyId === null || !Number.isSafeInteger(whatsappId) || !channelMessageId) return;
  const where = { companyId: job.companyId, whatsappId };
  const knex = ctx.db.knex;
  const rows = (await knex('metaPendingReceipts')
    .where({ ...where, channelMessageId })
    .orderBy('id')
    .select('id', 'ack', 'error', 'createdAt')) as Array<{
    id: string;
    ack: number | null;
    error: string | null;
    createdAt: Date;
  }>;
  if (rows.length === 0) return;
  if (!(await recorded(ctx, job.companyId, whatsappId, channelMessageId))) {
    const oldest = new Date((rows[0] as { createdAt: Date }).createdAt).getTime();
    if (Date.now() - oldest < PENDING_RECEIPT_MS) throw new Error('the message of this receipt is not recorded yet');
    ctx.log.info({ whatsappId, channelMessageId }, 'Meta receipts of a message never recorded: dropped');
  } else {
    for (const row of rows) await applyNow(ctx, where, { id: channelMessageId, ack: row.ack, error: row.error });
  }
  await knex('metaPendingReceipts')
    .whereIn(
      'id',
      rows.map((row) => row.id),
    )
    .del();
}
