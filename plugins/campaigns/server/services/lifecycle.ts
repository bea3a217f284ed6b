import { type BalcaoEvents, isAppError, type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import { variantsOf } from '../../shared/campaigns';
import { Campaign } from '../models/campaign';
import { announceCampaign, materialise, refreshShippingStatistics } from './campaigns.service';
import { WAKE_TOPIC } from './dispatcher';
import { IMPORT_STALE_MS } from './imports.service';
import { emitToManagers } from './live';
import { campaignSettings } from './settings.service';

declare module '@balcao/plugin-sdk/server' {
  interface BalcaoEvents {
    /** A running campaign has nothing left to send and became FINALIZADA. */
    'campaign.finished': { companyId: number; campaignId: number };
  }
}

/**
 * How a campaign moves on its own (docs/campaigns.md "Status"): PROGRAMADA → EM_ANDAMENTO at its start
 * time, EM_ANDAMENTO → FINALIZADA once nothing is left to send. Confirmations and stop words arrive as
 * the recipients' answers (`message.received`).
 */

/** Answers to a confirmation are awaited this long; a campaign waiting only for later ones finishes. */
export const CONFIRMATION_WINDOW_MS = 72 * 60 * 60 * 1000;

/**
 * The `campaign-tick` job (every 15 s, one worker), the safety net of what events drive: starts due campaigns
 * whose start job was lost, finishes done ones, fails imports whose process died.
 */
export async function tick(ctx: PluginContext, now = new Date()): Promise<void> {
  const { knex } = ctx.db;
  const due = (await knex('campaigns')
    .where('status', 'PROGRAMADA')
    .where('scheduledAt', '<=', now)
    .orderBy('scheduledAt')
    .limit(50)
    .select('id', 'companyId')) as Array<{ id: number; companyId: number }>;
  for (const campaign of due) {
    if (!(await ctx.plans.has(campaign.companyId, 'useCampaigns'))) continue;
    await runInTenant({ companyId: campaign.companyId }, () => startCampaign(ctx, campaign.companyId, campaign.id, now));
  }

  await finishDone(ctx, now);

  const stale = (await knex('contactListImports')
    .whereIn('status', ['queued', 'running'])
    .where('updatedAt', '<', new Date(now.getTime() - IMPORT_STALE_MS))
    .where((query) => query.whereNull('heartbeatAt').orWhere('heartbeatAt', '<', new Date(now.getTime() - IMPORT_STALE_MS)))
    .update({ status: 'failed', error: 'ERR_IMPORT_INTERRUPTED', finishedAt: now, updatedAt: now })
    .returning(['id', 'companyId', 'contactListId'])) as Array<{ id: number; companyId: number; contactListId: number }>;
  for (const row of stale) {
    await knex('contactListImportRows').where({ importId: row.id }).delete();
    const record = await knex('contactListImports').where({ id: row.id }).first();
    await emitToManagers(ctx, row.companyId, 'ContactList', { action: 'import', import: record });
  }
}

/**
 * Running campaigns with nothing left to send (no row queued, no confirmation asked within the window)
 * become FINALIZADA — all of them, or the one named. Answers how many did.
 */
export async function finishDone(ctx: PluginContext, now: Date, only?: number): Promise<number> {
  const done = (await ctx.db.knex.raw(
    `SELECT c.id, c.company_id AS "companyId" FROM campaigns c
     WHERE c.status = 'EM_ANDAMENTO' AND (?::int IS NULL OR c.id = ?::int)
       AND NOT EXISTS (SELECT 1 FROM campaign_shippings s WHERE s.campaign_id = c.id AND s.state = 'queued')
       AND NOT EXISTS (SELECT 1 FROM campaign_shippings s WHERE s.campaign_id = c.id AND s.state = 'awaiting'
         AND s.confirmation_requested_at > ?)
     LIMIT 50`,
    [only ?? null, only ?? null, new Date(now.getTime() - CONFIRMATION_WINDOW_MS)],
  )) as { rows: Array<{ id: number; companyId: number }> };
  let count = 0;
  for (const campaign of done.rows) {
    const finished = await ctx.db
      .knex('campaigns')
      .where({ id: campaign.id, status: 'EM_ANDAMENTO' })
      .update({ status: 'FINALIZADA', completedAt: now, updatedAt: now });
    if (finished > 0)
      await runInTenant({ companyId: campaign.companyId }, async () => {
        await announceCampaign(ctx, campaign.companyId, campaign.id);
        await ctx.events.publish('campaign.finished', { companyId: campaign.companyId, campaignId: campaign.id });
      });
    count += finished;
  }
  return count;
}

/**
 * The `campaign-start` job, queued for a campaign's start time when it is scheduled (the tick starts any
 * whose job was lost): starts it if it is still PROGRAMADA and due.
 */
export async function startDue(ctx: PluginContext, companyId: number, id: number, now = new Date()): Promise<void> {
  await startCampaign(ctx, companyId, id, now);
}

/** Starts a due campaign (once: the row is locked and its status checked again). */
async function startCampaign(ctx: PluginContext, companyId: number, id: number, now: Date): Promise<void> {
  // null: not started; else the shipping rows made
  const made = await ctx.db.transaction(async (trx): Promise<number | null> => {
    const campaign = await Campaign.query(trx).findById(id).forUpdate();
    if (campaign?.status !== 'PROGRAMADA' || !campaign.scheduledAt || campaign.scheduledAt > now) return null;
    if (
      (campaign.contactListId === null && campaign.tagListId === null) ||
      variantsOf(campaign as unknown as Record<string, unknown>, 'message').length === 0
    ) {
      // its list or tag was deleted meanwhile: it can't start; an admin sees it back as INATIVA
      await Campaign.query(trx).findById(id).patch({ status: 'INATIVA', updatedAt: now });
      return 0;
    }
    return materialise(trx, companyId, campaign);
  });
  if (made === null) return;
  refreshShippingStatistics(ctx, made);
  await announceCampaign(ctx, companyId, id);
  await ctx.broadcast.publish(WAKE_TOPIC, {});
}

/** Text as stop words compare it: trimmed, upper case, accents and punctuation around it dropped. */
export function stopWordKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '')
    .toUpperCase();
}

/**
 * A recipient answered (`message.received`, not from the company): a stop word puts their number on the
 * company's opt-out list and skips what any campaign still had for them; any other answer confirms the
 * confirmations they were asked on that connection, and their campaign message goes out next.
 */
export async function onAnswer(ctx: PluginContext, event: BalcaoEvents['message.received']): Promise<void> {
  if (event.fromMe || event.ticket.isGroup) return;
  const { knex } = ctx.db;
  const companyId = event.companyId;
  const settings = await campaignSettings(ctx, companyId);
  const key = stopWordKey(event.body ?? '');
  if (key !== '' && settings.stopWords.some((word) => stopWordKey(word) === key)) {
    // only someone campaigns wrote to: a customer's "sair" in an ordinary conversation stops nothing
    const recipient = (await knex('campaignShippings').where({ companyId, contactId: event.contactId }).first('number')) as
      | { number: string }
      | undefined;
    if (!recipient) return;
    await knex('campaignOptOuts')
      .insert({ companyId, number: recipient.number, word: key.slice(0, 40) })
      .onConflict(['companyId', 'number'])
      .ignore();
    const touched = (await knex('campaignShippings')
      .where({ companyId, number: recipient.number })
      .whereIn('state', ['queued', 'awaiting'])
      .whereNull('messageId')
      .update({ state: 'skipped', reason: 'opted_out', leaseUntil: null, leaseToken: null })
      .returning('campaignId')) as Array<{ campaignId: number }>;
    for (const campaignId of new Set(touched.map((row) => row.campaignId))) await announceCampaign(ctx, companyId, campaignId);
    return;
  }
  const confirmed = (await knex.raw(
    `UPDATE campaign_shippings s SET state = 'queued', confirmed_at = now(), due_at = now(), lease_until = NULL, lease_token = NULL
     FROM campaigns c
     WHERE s.company_id = ? AND s.contact_id = ? AND s.state = 'awaiting' AND c.id = s.campaign_id AND c.whatsapp_id = ?
     RETURNING s.campaign_id AS "campaignId"`,
    [companyId, event.contactId, event.whatsappId],
  )) as { rows: Array<{ campaignId: number }> };
  if (confirmed.rows.length === 0) return;
  for (const campaignId of new Set(confirmed.rows.map((row) => row.campaignId)))
    await announceCampaign(ctx, companyId, campaignId);
  await ctx.broadcast.publish(WAKE_TOPIC, {}).catch((error) => {
    if (!isAppError(error)) ctx.log.warn({ err: error }, 'campaign wake-up not published');
  });
}
