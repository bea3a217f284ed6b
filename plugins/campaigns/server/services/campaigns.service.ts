import type { Readable } from 'node:stream';
import { AppError, type PluginContext, type Static } from '@balcao/plugin-sdk/server';
import { fileTypeFromBuffer } from 'file-type';
import type { Knex } from 'knex';
import { type CampaignStatus, isEditable, isSavable, variantsOf } from '../../shared/campaigns';
import { Campaign } from '../models/campaign';
import { emitToManagers } from './live';
import type { CampaignBody, CampaignReportSchema, CampaignSchema } from './schemas';

export type CampaignJson = Static<typeof CampaignSchema>;
export type CampaignInput = Static<typeof CampaignBody>;
type Report = Static<typeof CampaignReportSchema>;

/** Campaigns a page of `GET /campaigns`. */
export const CAMPAIGNS_PAGE_SIZE = 20;
/** Size limit of a campaign's attachment (WhatsApp takes media up to 16 MB). */
export const CAMPAIGN_MEDIA_MAX_BYTES = 16 * 1024 * 1024;

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);

/** Counts of a campaign's recipients, in one query per set of campaigns. */
export async function reportsOf(knex: Knex, companyId: number, campaignIds: number[]): Promise<Map<number, Report>> {
  const empty = (): Report => ({
    recipients: 0,
    valid: 0,
    delivered: 0,
    confirmationRequested: 0,
    confirmed: 0,
    failed: 0,
    optedOut: 0,
    invalid: 0,
    pending: 0,
  });
  const reports = new Map<number, Report>(campaignIds.map((id) => [id, empty()]));
  if (campaignIds.length === 0) return reports;
  const rows = (await knex.raw(
    `SELECT campaign_id AS id,
       count(*)::int AS recipients,
       count(*) FILTER (WHERE NOT (state = 'skipped' AND reason = 'invalid_number'))::int AS valid,
       count(*) FILTER (WHERE state = 'delivered')::int AS delivered,
       count(confirmation_requested_at)::int AS "confirmationRequested",
       count(confirmed_at)::int AS confirmed,
       count(*) FILTER (WHERE state = 'failed')::int AS failed,
       count(*) FILTER (WHERE state = 'skipped' AND reason = 'opted_out')::int AS "optedOut",
       count(*) FILTER (WHERE state = 'skipped' AND reason = 'invalid_number')::int AS invalid,
       count(*) FILTER (WHERE state IN ('queued', 'awaiting'))::int AS pending
     FROM campaign_shippings WHERE company_id = ? AND campaign_id = ANY(?::int[]) GROUP BY campaign_id`,
    [companyId, campaignIds],
  )) as { rows: Array<Report & { id: number }> };
  for (const { id, ...report } of rows.rows) reports.set(id, report);
  return reports;
}

/** Campaigns as the API shows them (with their references and counts), in the order given. */
export async function loadCampaigns(ctx: PluginContext, companyId: number, ids: number[]): Promise<CampaignJson[]> {
  if (ids.length === 0) return [];
  const { knex } = ctx.db;
  const rows = (await knex('campaigns as c')
    .leftJoin('contactLists as l', 'l.id', 'c.contactListId')
    .leftJoin('tags as g', 'g.id', 'c.tagListId')
    .leftJoin('whatsapps as w', 'w.id', 'c.whatsappId')
    .leftJoin('users as u', 'u.id', 'c.userId')
    .leftJoin('queues as q', 'q.id', 'c.queueId')
    .where('c.companyId', companyId)
    .whereIn('c.id', ids)
    .select(
      'c.*',
      'l.name as listName',
      'g.name as tagName',
      'w.name as connectionName',
      'u.name as userName',
      'q.name as queueName',
    )) as Array<
    Campaign & {
      listName: string | null;
      tagName: string | null;
      connectionName: string | null;
      userName: string | null;
      queueName: string | null;
    }
  >;
  const reports = await reportsOf(knex, companyId, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ref = (id: number | null, name: string | null) => (id !== null && name !== null ? { id, name } : null);
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        id: row.id,
        name: row.name,
        status: row.status,
        confirmation: row.confirmation,
        message1: row.message1,
        message2: row.message2,
        message3: row.message3,
        message4: row.message4,
        message5: row.message5,
        confirmationMessage1: row.confirmationMessage1,
        confirmationMessage2: row.confirmationMessage2,
        confirmationMessage3: row.confirmationMessage3,
        confirmationMessage4: row.confirmationMessage4,
        confirmationMessage5: row.confirmationMessage5,
        scheduledAt: iso(row.scheduledAt),
        startedAt: iso(row.startedAt),
        completedAt: iso(row.completedAt),
        contactListId: row.contactListId,
        contactList: ref(row.contactListId, row.listName),
        tagListId: row.tagListId,
        tagList: ref(row.tagListId, row.tagName),
        whatsappId: row.whatsappId,
        whatsapp: ref(row.whatsappId, row.connectionName),
        userId: row.userId,
        user: ref(row.userId, row.userName),
        queueId: row.queueId,
        queue: ref(row.queueId, row.queueName),
        statusTicket: row.statusTicket,
        openTicket: row.openTicket,
        mediaName: row.mediaName,
        mediaUrl: row.mediaPath
          ? ctx.storage.signedUrl(companyId, row.mediaPath, { fileName: row.mediaName ?? undefined })
          : null,
        report: reports.get(row.id) as Report,
        createdAt: iso(row.createdAt) as string,
        updatedAt: iso(row.updatedAt) as string,
      },
    ];
  });
}

export async function loadCampaign(ctx: PluginContext, companyId: number, id: number): Promise<CampaignJson> {
  const [campaign] = await loadCampaigns(ctx, companyId, [id]);
  if (!campaign) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
  return campaign;
}

/** Tells the company's campaign managers that a campaign changed (the report and the list follow it). */
export async function announceCampaign(ctx: PluginContext, companyId: number, id: number): Promise<CampaignJson | null> {
  const [record] = await loadCampaigns(ctx, companyId, [id]);
  if (record) await emitToManagers(ctx, companyId, 'campaign', { action: 'update', record });
  return record ?? null;
}

/** `GET /campaigns`: a page of the company's campaigns, newest first, by name search. */
export async function listCampaigns(
  ctx: PluginContext,
  companyId: number,
  query: { searchParam?: string; pageNumber?: number },
): Promise<{ records: CampaignJson[]; count: number; hasMore: boolean }> {
  const page = query.pageNumber ?? 1;
  const search = query.searchParam?.trim() ?? '';
  const base = Campaign.query();
  if (search) base.whereRaw('name ILIKE ?', [`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
  const [rows, total] = await Promise.all([
    base
      .clone()
      .orderBy('id', 'desc')
      .limit(CAMPAIGNS_PAGE_SIZE)
      .offset((page - 1) * CAMPAIGNS_PAGE_SIZE)
      .select('id'),
    base.clone().resultSize(),
  ]);
  const records = await loadCampaigns(
    ctx,
    companyId,
    rows.map((row) => row.id),
  );
  return { records, count: total, hasMore: page * CAMPAIGNS_PAGE_SIZE < total };
}

/** Throws the 404 of an id that is not the company's. */
async function requireOwn(knex: Knex, companyId: number, table: string, id: number, code: `ERR_${string}`): Promise<void> {
  const row = await knex(table).where({ companyId, id }).first('id');
  if (!row) throw new AppError(code);
}

/**
 * The campaign fields a body sets, checked: every id the company's (a connection, a list, a tag, a user, a
 * queue), a user only with a queue (docs/product/automation.md#validation), the user and queue only when a ticket is opened.
 */
async function fieldsOf(ctx: PluginContext, companyId: number, input: CampaignInput): Promise<Partial<Campaign>> {
  const { knex } = ctx.db;
  const openTicket = input.openTicket ?? 'disabled';
  const userId = openTicket === 'enabled' ? (input.userId ?? null) : null;
  const queueId = openTicket === 'enabled' ? (input.queueId ?? null) : null;
  if (userId !== null && queueId === null) throw new AppError('ERR_CAMPAIGN_QUEUE_REQUIRED');
  await requireOwn(knex, companyId, 'whatsapps', input.whatsappId, 'ERR_NO_WHATSAPP_FOUND');
  if (input.contactListId != null)
    await requireOwn(knex, companyId, 'contactLists', input.contactListId, 'ERR_NO_CONTACT_LIST_FOUND');
  if (input.tagListId != null) await requireOwn(knex, companyId, 'tags', input.tagListId, 'ERR_NO_TAG_FOUND');
  if (userId !== null) await requireOwn(knex, companyId, 'users', userId, 'ERR_NO_USER_FOUND');
  if (queueId !== null) await requireOwn(knex, companyId, 'queues', queueId, 'ERR_NO_QUEUE_FOUND');
  const text = (value: string | undefined) => (value ?? '').trim();
  return {
    name: input.name.trim(),
    message1: text(input.message1),
    message2: text(input.message2),
    message3: text(input.message3),
    message4: text(input.message4),
    message5: text(input.message5),
    confirmationMessage1: text(input.confirmationMessage1),
    confirmationMessage2: text(input.confirmationMessage2),
    confirmationMessage3: text(input.confirmationMessage3),
    confirmationMessage4: text(input.confirmationMessage4),
    confirmationMessage5: text(input.confirmationMessage5),
    confirmation: input.confirmation === true,
    contactListId: input.contactListId ?? null,
    tagListId: input.tagListId ?? null,
    whatsappId: input.whatsappId,
    userId,
    queueId,
    statusTicket: input.statusTicket ?? 'closed',
    openTicket,
    scheduledAt: input.scheduledAt ? new Date(input.scheduledAt) : null,
  };
}

/** A campaign that is to start needs recipients and a message (and a confirmation message when it asks). */
function requireReady(fields: Partial<Campaign>): void {
  if (fields.contactListId == null && fields.tagListId == null) throw new AppError('ERR_CAMPAIGN_NO_RECIPIENTS');
  if (variantsOf(fields as Record<string, unknown>, 'message').length === 0) throw new AppError('ERR_CAMPAIGN_NO_MESSAGE');
  if (fields.confirmation && variantsOf(fields as Record<string, unknown>, 'confirmationMessage').length === 0) {
    throw new AppError('ERR_CAMPAIGN_NO_CONFIRMATION_MESSAGE');
  }
}

/**
 * `POST /campaigns`: saved INATIVA, or PROGRAMADA when it has a start time (the scheduler starts it then;
 * a time already past starts it at once).
 */
export async function createCampaign(ctx: PluginContext, companyId: number, input: CampaignInput): Promise<CampaignJson> {
  const fields = await fieldsOf(ctx, companyId, input);
  const status: CampaignStatus = fields.scheduledAt ? 'PROGRAMADA' : 'INATIVA';
  if (status === 'PROGRAMADA') requireReady(fields);
  const row = await Campaign.query().insert({ ...fields, status });
  if (status === 'PROGRAMADA') await scheduleStart(ctx, companyId, row.id, fields.scheduledAt as Date);
  const record = await loadCampaign(ctx, companyId, row.id);
  await emitToManagers(ctx, companyId, 'campaign', { action: 'create', record });
  return record;
}

/**
 * Queues a campaign's start for its start time (a durable delayed job; the id names the time, so a
 * campaign scheduled again gets a new one and the old one finds nothing due). The tick starts it anyway
 * if the job is lost.
 */
async function scheduleStart(ctx: PluginContext, companyId: number, id: number, at: Date): Promise<void> {
  try {
    await ctx.jobs.enqueue(
      'campaign-start',
      { campaignId: id },
      { companyId, jobId: `start-${id}-${at.getTime()}`, delayMs: Math.max(0, at.getTime() - Date.now()) },
    );
  } catch (error) {
    ctx.log.warn({ err: error, campaignId: id }, 'campaign start not queued: the tick starts it');
  }
}

/** The campaign locked for a change (in `trx`), or 404. */
async function locked(trx: Knex.Transaction, id: number): Promise<Campaign> {
  const row = await Campaign.query(trx).findById(id).forUpdate();
  if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
  return row;
}

/**
 * `PUT /campaigns/:id`, under the rule of docs/product/automation.md#states-and-transitions: editable while INATIVA or PROGRAMADA more than an
 * hour ahead; a cancelled campaign can be saved too (its fields change, it stays cancelled and restart
 * continues it). Otherwise 409 ERR_CAMPAIGN_NOT_EDITABLE.
 */
export async function updateCampaign(
  ctx: PluginContext,
  companyId: number,
  id: number,
  input: CampaignInput,
): Promise<CampaignJson> {
  const fields = await fieldsOf(ctx, companyId, input);
  const status = await ctx.db.transaction(async (trx) => {
    const current = await locked(trx, id);
    const view = { status: current.status, scheduledAt: current.scheduledAt ? current.scheduledAt.toISOString() : null };
    if (!isSavable(view)) throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
    let status = current.status;
    if (isEditable(view)) status = fields.scheduledAt ? 'PROGRAMADA' : 'INATIVA';
    if (status === 'PROGRAMADA') requireReady(fields);
    // a cancelled campaign's recipients are fixed; its connection and texts may change for what is left
    await Campaign.query(trx)
      .findById(id)
      .patch({ ...fields, status, updatedAt: new Date() });
    return status;
  });
  if (status === 'PROGRAMADA') await scheduleStart(ctx, companyId, id, fields.scheduledAt as Date);
  const record = await loadCampaign(ctx, companyId, id);
  await emitToManagers(ctx, companyId, 'campaign', { action: 'update', record });
  return record;
}

/** `DELETE /campaigns/:id`: the campaign, its recipients and its attachment. */
export async function deleteCampaign(ctx: PluginContext, companyId: number, id: number): Promise<void> {
  const current = await Campaign.query().findById(id);
  if (!current) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
  await Campaign.query().deleteById(id);
  if (current.mediaPath) await ctx.storage.delete(companyId, current.mediaPath);
  await emitToManagers(ctx, companyId, 'campaign', { action: 'delete', id });
}

/** `POST /campaigns/:id/cancel`: EM_ANDAMENTO → CANCELADA; the dispatchers claim nothing more of it. */
export async function cancelCampaign(ctx: PluginContext, companyId: number, id: number): Promise<CampaignJson> {
  await ctx.db.transaction(async (trx) => {
    const current = await locked(trx, id);
    if (current.status !== 'EM_ANDAMENTO') throw new AppError('ERR_CAMPAIGN_NOT_RUNNING');
    await Campaign.query(trx).findById(id).patch({ status: 'CANCELADA', updatedAt: new Date() });
  });
  return (await announceCampaign(ctx, companyId, id)) ?? loadCampaign(ctx, companyId, id);
}

/**
 * `POST /campaigns/:id/restart`: CANCELADA → EM_ANDAMENTO, continuing where it stopped. A campaign cancelled
 * before it ever started (no recipients yet) starts now.
 */
export async function restartCampaign(ctx: PluginContext, companyId: number, id: number): Promise<CampaignJson> {
  const made = await ctx.db.transaction(async (trx) => {
    const current = await locked(trx, id);
    if (current.status !== 'CANCELADA') throw new AppError('ERR_CAMPAIGN_NOT_CANCELLED');
    if (current.startedAt === null) {
      requireReady(current);
      return materialise(trx, companyId, current);
    } else {
      await Campaign.query(trx).findById(id).patch({ status: 'EM_ANDAMENTO', completedAt: null, updatedAt: new Date() });
      // what waited for a retry goes now
      await trx('campaignShippings')
        .where({ companyId, campaignId: id, state: 'queued' })
        .update({ dueAt: new Date(), leaseUntil: null, leaseToken: null });
      return 0;
    }
  });
  refreshShippingStatistics(ctx, made);
  return (await announceCampaign(ctx, companyId, id)) ?? loadCampaign(ctx, companyId, id);
}

/**
 * Starts a campaign in `trx` (the campaign row locked by the caller): one shipping row per distinct number of
 * its list and tag, each with its message variant drawn now, numbers known invalid or opted out skipped from
 * the start; then EM_ANDAMENTO. One INSERT … SELECT, however many recipients.
 */
export async function materialise(trx: Knex.Transaction, companyId: number, campaign: Campaign): Promise<number> {
  const variants = variantsOf(campaign as unknown as Record<string, unknown>, 'message');
  const variantArray = variants.length > 0 ? variants : [1];
  const result = await trx.raw(
    `WITH params AS (SELECT ?::int AS company_id, ?::int AS campaign_id, ?::int AS list_id, ?::int AS tag_id, ?::int[] AS variants)
     INSERT INTO campaign_shippings (company_id, campaign_id, number, name, email, variant, state, reason, due_at)
     SELECT p.company_id, p.campaign_id, r.number, r.name, r.email,
       p.variants[1 + floor(random() * cardinality(p.variants))::int],
       CASE WHEN r.valid IS FALSE OR o.number IS NOT NULL THEN 'skipped' ELSE 'queued' END,
       CASE WHEN o.number IS NOT NULL THEN 'opted_out' WHEN r.valid IS FALSE THEN 'invalid_number' END,
       now()
     FROM params p
     CROSS JOIN LATERAL (
       SELECT DISTINCT ON (number) number, name, email, valid FROM (
         SELECT i.number, i.name, i.email, i.is_whatsapp_valid AS valid, 0 AS source
           FROM contact_list_items i WHERE i.company_id = p.company_id AND i.contact_list_id = p.list_id
         UNION ALL
         SELECT c.number, left(c.name, 100), c.email, NULL, 1
           FROM contact_tags ct JOIN contacts c ON c.company_id = ct.company_id AND c.id = ct.contact_id
           WHERE ct.company_id = p.company_id AND ct.tag_id = p.tag_id AND c.is_group = false
             AND c.number ~ '^[0-9]{8,15}$'
       ) AS everyone ORDER BY number, source
     ) AS r
     LEFT JOIN campaign_opt_outs o ON o.company_id = p.company_id AND o.number = r.number
     ON CONFLICT (campaign_id, number) DO NOTHING`,
    [companyId, campaign.id, campaign.contactListId ?? 0, campaign.tagListId ?? 0, variantArray],
  );
  const made = (result as { rowCount?: number }).rowCount ?? 0;
  const now = new Date();
  await Campaign.query(trx)
    .findById(campaign.id)
    .patch({ status: 'EM_ANDAMENTO', startedAt: now, completedAt: null, updatedAt: now });
  return made;
}

/** Rows made by one start from which the shipping table's statistics may need refreshing. */
const STATISTICS_REFRESH_ROWS = 1_000;

/**
 * After a start (committed) that made more rows than the shipping table's statistics describe (a young
 * table, the first large campaign), Postgres's statistics are brought up to date at once instead of at the
 * next autovacuum: without them the planner takes the company's rows for a few and reads the dispatcher's
 * batches (`id = ANY(…)`, a lease token) through the company's index, every row of the company for each
 * batch — 14 ms instead of 0.2 ms for a batch of 100 on 10,000 rows (docs/decisions.md). Not awaited by
 * the start (~1 s at 100,000 rows on a busy machine): the first batches may run on the old statistics.
 */
export function refreshShippingStatistics(ctx: PluginContext, made: number): void {
  if (made < STATISTICS_REFRESH_ROWS) return;
  const { knex } = ctx.db;
  void (async () => {
    const described = (await knex.raw(`SELECT reltuples FROM pg_class WHERE oid = 'campaign_shippings'::regclass`)) as {
      rows: Array<{ reltuples: number }>;
    };
    if ((described.rows[0]?.reltuples ?? -1) < made) await knex.raw('ANALYZE campaign_shippings');
  })().catch((error: unknown) => ctx.log.warn({ err: error }, 'campaign shipping statistics not refreshed'));
}

/** Content types a campaign may attach: images, audio, video, PDF and office documents. */
function allowedAttachment(mime: string): boolean {
  if (/^(image|audio|video)\//.test(mime)) return mime !== 'image/svg+xml';
  return (
    mime === 'application/pdf' ||
    mime.startsWith('application/vnd.openxmlformats-officedocument.') ||
    mime === 'application/msword' ||
    mime === 'application/vnd.ms-excel'
  );
}

/** `POST /campaigns/:id/media-upload`: the attachment (its type decided by content), replacing any other. */
export async function attachMedia(
  ctx: PluginContext,
  companyId: number,
  id: number,
  file: { fileName: string; data: Buffer },
): Promise<CampaignJson> {
  const current = await Campaign.query().findById(id);
  if (!current) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
  if (!isSavable({ status: current.status, scheduledAt: current.scheduledAt?.toISOString() ?? null })) {
    throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
  }
  const type = await fileTypeFromBuffer(file.data);
  if (!type || !allowedAttachment(type.mime)) throw new AppError('ERR_MEDIA_TYPE');
  const safe = file.fileName
    .replace(/[^\p{L}\p{N}._ -]+/gu, '_')
    .trim()
    .slice(-120);
  const name = safe || `file.${type.ext}`;
  const key = `campaigns/${id}/${Date.now().toString(36)}-${name.replace(/\s+/g, '_')}`;
  await ctx.storage.put(companyId, key, file.data, { maxBytes: CAMPAIGN_MEDIA_MAX_BYTES });
  await Campaign.query().findById(id).patch({ mediaPath: key, mediaName: name, mediaMimetype: type.mime, updatedAt: new Date() });
  if (current.mediaPath && current.mediaPath !== key) await ctx.storage.delete(companyId, current.mediaPath);
  return (await announceCampaign(ctx, companyId, id)) as CampaignJson;
}

/** `DELETE /campaigns/:id/media-upload`. */
export async function detachMedia(ctx: PluginContext, companyId: number, id: number): Promise<CampaignJson> {
  const current = await Campaign.query().findById(id);
  if (!current) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
  if (!isSavable({ status: current.status, scheduledAt: current.scheduledAt?.toISOString() ?? null })) {
    throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
  }
  await Campaign.query().findById(id).patch({ mediaPath: null, mediaName: null, mediaMimetype: null, updatedAt: new Date() });
  if (current.mediaPath) await ctx.storage.delete(companyId, current.mediaPath);
  return (await announceCampaign(ctx, companyId, id)) as CampaignJson;
}

/** Reads a multipart file whole under the attachment limit (413 past it). */
export async function readAttachment(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > CAMPAIGN_MEDIA_MAX_BYTES) {
      stream.resume();
      throw new AppError('ERR_PAYLOAD_TOO_LARGE');
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
