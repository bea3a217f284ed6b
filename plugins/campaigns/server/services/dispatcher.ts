import {
  ClaimedRowsLoop,
  type Clock,
  claimDueRows,
  keepLeaseAhead,
  LostClaim,
  leaseToken,
  type PluginContext,
  runInTenant,
  type StagedOutbound,
  type StageOutboundItem,
  systemClock,
} from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { type CampaignSettings, fillVariables, sendingWindow, variantsOf } from '../../shared/campaigns';
import type { CampaignsConfig, CampaignsContext } from '../config';
import { announceCampaign } from './campaigns.service';
import { finishDone } from './lifecycle';
import { campaignSettings } from './settings.service';

/**
 * The dispatcher (docs/campaigns.md "Exactly once"): every worker process runs a few lanes (the SDK's
 * `ClaimedRowsLoop`) that claim due shipping rows of running campaigns in Postgres (`FOR UPDATE SKIP
 * LOCKED`, then a lease with a token), store each recipient's message on their ticket through the inbox —
 * recording the message id on the row in the same transaction — and deliver it through the inbox's
 * delivery step, whose driver call carries the message id as its idempotency key. A process killed at any
 * instant leaves rows whose lease runs out: the next claim finds the message already stored (and maybe
 * already sent) and completes it, never storing or sending a second one.
 */

export interface DispatcherOptions {
  /** Loops per process (each claims and sends one batch at a time). */
  lanes: number;
  /** Rows one claim takes when the connection isn't paced. */
  batch: number;
  /** How long a claim holds its rows: a dead process's rows come back after it. */
  leaseMs: number;
  /** How long an idle loop waits before looking again (a wake-up cuts it short). */
  idleMs: number;
}

/** From the feature's configuration (README "Configuration"): CAMPAIGN_LANES, CAMPAIGN_BATCH, CAMPAIGN_LEASE_MS. */
export function dispatcherOptions(config: CampaignsConfig): DispatcherOptions {
  return {
    lanes: config.CAMPAIGN_LANES,
    batch: config.CAMPAIGN_BATCH,
    leaseMs: config.CAMPAIGN_LEASE_MS,
    idleMs: 500,
  };
}

/** Tries of a send that fails for a reason that may pass, before the row is marked failed. */
export const MAX_ATTEMPTS = 5;
/** The first retry's wait; each next one doubles it. */
const RETRY_BASE_MS = 30_000;
/** Failures that no retry will mend. */
const PERMANENT_ERRORS = new Set(['ERR_WAPP_INVALID_CONTACT', 'ERR_INVALID_NUMBER', 'ERR_NO_WHATSAPP_FOUND']);
/** The broadcast topic that wakes every process's loops (a campaign started or restarted). */
export const WAKE_TOPIC = 'campaign-wake';
/** How often a process tells the report of a campaign it sends for (the report is live, not per message). */
const ANNOUNCE_EVERY_MS = 1_000;
/**
 * The report's counts read every row of the campaign: a process waits this many times as long as its last
 * announcement took before the next, so that counting takes at most ~1/20 of its time however large the
 * campaign (at 100,000 rows a count took ~330 ms: twice a second by two processes, most of a core).
 */
const ANNOUNCE_COST_FACTOR = 20;

interface RunningCampaign {
  id: number;
  companyId: number;
  whatsappId: number | null;
}

interface ClaimedRow {
  id: number;
  number: string;
  name: string;
  email: string | null;
  variant: number;
  attempts: number;
  confirmationRequestedAt: Date | null;
  confirmationMessageId: number | null;
  messageId: number | null;
}

/** The campaign fields a send reads. */
interface CampaignRow {
  id: number;
  status: string;
  confirmation: boolean;
  statusTicket: 'closed' | 'pending' | 'open';
  openTicket: 'enabled' | 'disabled';
  userId: number | null;
  queueId: number | null;
  mediaPath: string | null;
  mediaName: string | null;
  mediaMimetype: string | null;
  [message: string]: unknown;
}

/** Whether a connection's sends are spaced (an interval, or a pause every N messages). */
export function isPaced(settings: CampaignSettings): boolean {
  return settings.messageInterval > 0 || (settings.longerIntervalAfter > 0 && settings.greaterInterval > 0);
}

/** The media type of an attachment for the inbox (docs/product/tickets-and-inbox.md#entities). */
function mediaTypeOf(mime: string | null): string {
  if (!mime) return 'application';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'application';
}

/** The text of a recipient's message for a step: its variant, else the campaign's first non-empty one. */
export function messageFor(campaign: Record<string, unknown>, step: 'confirm' | 'main', variant: number): string {
  const prefix = step === 'confirm' ? 'confirmationMessage' : 'message';
  const own = String(campaign[`${prefix}${variant}`] ?? '').trim();
  if (own) return own;
  const first = variantsOf(campaign, prefix)[0];
  return first === undefined ? '' : String(campaign[`${prefix}${first}`]);
}

/** Idle waits grow from `idleMs` to this while nothing is due (a wake-up or work resets them). */
const MAX_IDLE_MS = 5_000;

export class CampaignDispatcher {
  clock: Clock = systemClock;
  private readonly loop: ClaimedRowsLoop;
  private rotation = 0;
  private readonly lastAnnounce = new Map<number, number>();
  /** How long the last announcement of each campaign took (ms). */
  private readonly announceCost = new Map<number, number>();
  private readonly trailing = new Map<number, NodeJS.Timeout>();

  constructor(
    private readonly ctx: PluginContext,
    readonly options: DispatcherOptions,
  ) {
    this.loop = new ClaimedRowsLoop({
      lanes: options.lanes,
      idleMs: options.idleMs,
      maxIdleMs: MAX_IDLE_MS,
      pass: () => this.runOnce(),
      onError: (error) => ctx.log.error({ err: error }, 'campaign dispatch failed'),
    });
  }

  /** Starts the lanes (worker processes only). */
  start(): void {
    this.loop.start();
  }

  /** Stops the lanes after their batch in flight. */
  async stop(): Promise<void> {
    await this.loop.stop();
    for (const timer of this.trailing.values()) clearTimeout(timer);
    this.trailing.clear();
  }

  /** Ends idle waits at once (a campaign started, restarted or confirmed). */
  wake(): void {
    this.loop.wake();
  }

  /**
   * Running campaigns with rows to claim now, every company. Each campaign's first claimable row is looked
   * up in the claim's own order on the due index (`campaign_shippings_due`): as an EXISTS the planner,
   * going by statistics taken when every row was queued, read the whole shipping table instead — 40–55 ms
   * a pass at 20,000 rows, against ~1 ms.
   */
  private async claimable(now: Date): Promise<RunningCampaign[]> {
    const rows = (await this.ctx.db.knex.raw(
      `SELECT c.id, c.company_id AS "companyId", c.whatsapp_id AS "whatsappId" FROM campaigns c
       CROSS JOIN LATERAL (
         SELECT 1 FROM campaign_shippings s WHERE s.campaign_id = c.id AND s.state = 'queued' AND s.due_at <= ?
           AND (s.lease_until IS NULL OR s.lease_until < ?)
         ORDER BY s.due_at, s.id LIMIT 1) AS due
       WHERE c.status = 'EM_ANDAMENTO'
       ORDER BY c.id`,
      [now, now],
    )) as { rows: RunningCampaign[] };
    return rows.rows;
  }

  /**
   * One pass: the next running campaign (in turn) that has rows to claim now gets one batch claimed and
   * sent. Answers how many rows were worked (0: nothing to do now).
   */
  async runOnce(): Promise<number> {
    const now = this.clock.now();
    const campaigns = await this.claimable(now);
    for (let i = 0; i < campaigns.length; i++) {
      const campaign = campaigns[(this.rotation + i) % campaigns.length] as RunningCampaign;
      const worked = await runInTenant({ companyId: campaign.companyId }, () => this.work(campaign, now));
      if (worked > 0) {
        this.rotation = (this.rotation + i + 1) % Math.max(1, campaigns.length);
        return worked;
      }
    }
    // nothing to send now: running campaigns whose last batch was full (or whose last rows failed) end here
    await finishDone(this.ctx, now);
    return 0;
  }

  /** Claims and sends one batch of a campaign; 0 when nothing may go now (plan, window, pacing). */
  private async work(campaign: RunningCampaign, now: Date): Promise<number> {
    const { ctx } = this;
    if (!(await ctx.plans.has(campaign.companyId, 'useCampaigns'))) return 0;
    const settings = await campaignSettings(ctx, campaign.companyId);
    if (!sendingWindow(settings, now).open) return 0;
    const profile =
      campaign.whatsappId === null
        ? null
        : await ctx.services.use('connections').profile(campaign.companyId, campaign.whatsappId);
    if (campaign.whatsappId === null || profile === null) return this.failAll(campaign, 'ERR_NO_WHATSAPP_FOUND');
    const token = leaseToken();
    const { rows, limit } = await this.claim(campaign, settings, now, token);
    if (rows.length === 0) return 0;
    const renewing = this.keepLease(
      campaign.companyId,
      rows.map((row) => row.id),
      token,
    );
    try {
      await this.send(campaign, profile.channel, settings, rows, token);
    } finally {
      await renewing.stop();
      this.announceSoon(campaign);
    }
    // a batch short of its limit took the last due rows: the campaign may be done (a full batch that was the
    // last one is finished by the next pass, which finds nothing to claim). The check walks the due index
    // past the rows sent so far, so it doesn't run after every batch.
    if (rows.length < limit) await finishDone(ctx, now, campaign.id);
    return rows.length;
  }

  /**
   * Claims due rows of a campaign with a lease: a batch when its connection isn't paced, else what the
   * connection's pacing row allows now (locked meanwhile: two processes never pace one connection twice).
   */
  private async claim(
    campaign: RunningCampaign,
    settings: CampaignSettings,
    now: Date,
    token: string,
  ): Promise<{ rows: ClaimedRow[]; limit: number }> {
    const { knex } = this.ctx.db;
    return knex.transaction(async (trx) => {
      let limit = this.options.batch;
      let pace: { sentSincePause: number } | null = null;
      if (isPaced(settings)) {
        await trx.raw(
          `INSERT INTO campaign_pacing (company_id, whatsapp_id, next_at) VALUES (?, ?, to_timestamp(0))
           ON CONFLICT (company_id, whatsapp_id) DO NOTHING`,
          [campaign.companyId, campaign.whatsappId],
        );
        const row = (
          (await trx.raw(
            `SELECT next_at AS "nextAt", sent_since_pause AS "sentSincePause" FROM campaign_pacing
             WHERE company_id = ? AND whatsapp_id = ? FOR UPDATE SKIP LOCKED`,
            [campaign.companyId, campaign.whatsappId],
          )) as { rows: Array<{ nextAt: Date; sentSincePause: number }> }
        ).rows[0];
        if (!row || new Date(row.nextAt).getTime() > now.getTime()) return { rows: [], limit };
        pace = row;
        limit =
          settings.messageInterval > 0
            ? 1
            : Math.max(1, Math.min(this.options.batch, settings.longerIntervalAfter - row.sentSincePause));
      }
      const claimed = await claimDueRows<ClaimedRow>(trx, {
        table: 'campaign_shippings',
        due: "campaign_id = ? AND state = 'queued' AND due_at <= ?",
        dueBindings: [campaign.id, now],
        orderBy: 'due_at, id',
        limit,
        now,
        leaseMs: this.options.leaseMs,
        token,
        returning: `s.id, s.number, s.name, s.email, s.variant, s.attempts,
           s.confirmation_requested_at AS "confirmationRequestedAt", s.confirmation_message_id AS "confirmationMessageId",
           s.message_id AS "messageId"`,
      });
      if (pace && claimed.length > 0) {
        const sent = pace.sentSincePause + claimed.length;
        const pause = settings.longerIntervalAfter > 0 && settings.greaterInterval > 0 && sent >= settings.longerIntervalAfter;
        const waitSeconds = pause ? settings.greaterInterval : settings.messageInterval;
        await trx.raw('UPDATE campaign_pacing SET next_at = ?, sent_since_pause = ? WHERE company_id = ? AND whatsapp_id = ?', [
          new Date(now.getTime() + waitSeconds * 1000),
          pause ? 0 : sent,
          campaign.companyId,
          campaign.whatsappId,
        ]);
      }
      const rows = claimed.map((row) => ({
        ...row,
        id: Number(row.id),
        confirmationMessageId: row.confirmationMessageId === null ? null : Number(row.confirmationMessageId),
        messageId: row.messageId === null ? null : Number(row.messageId),
      }));
      return { rows, limit };
    });
  }

  /**
   * Keeps a claim's lease ahead while its batch is in flight (staging, delivery, recording may outlast a
   * lease on a busy machine; a second claim would repeat the deliveries — kept once by the provider, but
   * twice the work).
   */
  private keepLease(companyId: number, ids: number[], token: string): { stop(): Promise<void> } {
    return keepLeaseAhead({
      leaseMs: this.options.leaseMs,
      clock: { now: () => this.clock.now() },
      renew: (leaseUntil) =>
        this.ctx.db.knex.raw(
          'UPDATE campaign_shippings SET lease_until = ? WHERE company_id = ? AND id = ANY(?::bigint[]) AND lease_token = ?',
          [leaseUntil, companyId, ids, token],
        ),
      onError: (error) => this.ctx.log.warn({ err: error }, 'campaign lease not renewed'),
    });
  }

  /** Stores what is not stored yet, delivers everything claimed, records each outcome. */
  private async send(
    campaign: RunningCampaign,
    channel: string,
    settings: CampaignSettings,
    rows: ClaimedRow[],
    token: string,
  ): Promise<void> {
    const { ctx } = this;
    const { knex } = ctx.db;
    const companyId = campaign.companyId;
    const connectionId = campaign.whatsappId as number;
    const row = (await knex('campaigns').where({ companyId, id: campaign.id }).first()) as CampaignRow | undefined;
    if (!row) return;

    // numbers that asked for no more campaigns since the campaign started
    const optedOut = new Set(
      (await knex('campaignOptOuts')
        .where({ companyId })
        .whereRaw('number = ANY(?::text[])', [rows.map((r) => r.number)])
        .pluck('number')) as string[],
    );
    const skipped = rows.filter((r) => optedOut.has(r.number) && r.messageId === null && r.confirmationMessageId === null);
    if (skipped.length > 0) {
      await knex('campaignShippings')
        .where({ companyId, leaseToken: token })
        .whereIn(
          'id',
          skipped.map((r) => r.id),
        )
        .update({ state: 'skipped', reason: 'opted_out', leaseUntil: null, leaseToken: null });
    }
    const live = rows.filter((r) => !skipped.includes(r));
    const stepOf = (r: ClaimedRow): 'confirm' | 'main' =>
      row.confirmation && r.confirmationRequestedAt === null ? 'confirm' : 'main';
    const idOf = (r: ClaimedRow) => (stepOf(r) === 'confirm' ? r.confirmationMessageId : r.messageId);

    const inbox = ctx.services.use('inbox');
    const staged = new Map<number, StagedOutbound>();
    for (const step of ['confirm', 'main'] as const) {
      const toStage = live.filter((r) => stepOf(r) === step && idOf(r) === null);
      if (toStage.length === 0) continue;
      const items: StageOutboundItem[] = toStage.map((r) => ({
        key: r.id,
        number: r.number,
        name: r.name,
        email: r.email,
        body: fillVariables(messageFor(row, step, r.variant), r, settings.variables),
        media:
          step === 'main' && row.mediaPath
            ? {
                storageKey: row.mediaPath,
                fileName: row.mediaName ?? 'file',
                mimetype: row.mediaMimetype,
                mediaType: mediaTypeOf(row.mediaMimetype),
              }
            : null,
      }));
      const column = step === 'confirm' ? 'confirmation_message_id' : 'message_id';
      try {
        const result = await inbox.stageOutbound(items, {
          whatsappId: connectionId,
          channel,
          newTicket: { status: row.statusTicket, userId: row.userId, queueId: row.queueId },
          automation: 'campaign',
          link: (trx, done) => linkStaged(trx, companyId, column, token, done),
        });
        for (const entry of result) staged.set(entry.key, entry);
      } catch (error) {
        if (!(error instanceof LostClaim)) throw error;
        // cancelled, deleted, or the lease passed to another process meanwhile: nothing was stored; what is
        // still ours goes back at once (a restart takes it without waiting for the lease)
        await knex('campaignShippings').where({ companyId, leaseToken: token }).update({ leaseUntil: null, leaseToken: null });
        return;
      }
    }

    const messageIds = live.flatMap((r) => {
      const id = idOf(r) ?? staged.get(r.id)?.messageId ?? null;
      return id === null ? [] : [{ row: r, messageId: id, step: stepOf(r) }];
    });
    if (messageIds.length === 0) return;
    const outcomes = await inbox.deliver(messageIds.map((entry) => entry.messageId));
    await this.record(companyId, token, messageIds, outcomes);
  }

  /** Writes each row's outcome (only while the claim is still this one's). */
  private async record(
    companyId: number,
    token: string,
    sent: Array<{ row: ClaimedRow; messageId: number; step: 'confirm' | 'main' }>,
    outcomes: Array<{ status: string; channelMessageId: string | null; error: string | null }>,
  ): Promise<void> {
    const now = this.clock.now();
    const delivered: Array<{ id: number; channelMessageId: string | null }> = [];
    const awaiting: number[] = [];
    const retry: Array<{ id: number; dueAt: Date }> = [];
    const failed: Array<{ id: number; reason: string }> = [];
    sent.forEach((entry, index) => {
      const outcome = outcomes[index];
      if (outcome?.status === 'sent') {
        if (entry.step === 'confirm') awaiting.push(entry.row.id);
        else delivered.push({ id: entry.row.id, channelMessageId: outcome.channelMessageId });
        return;
      }
      const reason = outcome?.error ?? 'ERR_SENDING_WAPP_MSG';
      if (outcome?.status === 'pending' || PERMANENT_ERRORS.has(reason) || entry.row.attempts >= MAX_ATTEMPTS) {
        failed.push({ id: entry.row.id, reason: outcome?.status === 'pending' ? 'ERR_MESSAGE_GONE' : reason });
      } else {
        retry.push({ id: entry.row.id, dueAt: new Date(now.getTime() + RETRY_BASE_MS * 2 ** (entry.row.attempts - 1)) });
      }
    });
    const { knex } = this.ctx.db;
    if (delivered.length > 0) {
      await knex.raw(
        `UPDATE campaign_shippings s SET state = 'delivered', delivered_at = ?, channel_message_id = v.channel_id,
           lease_until = NULL, lease_token = NULL, reason = NULL
         FROM unnest(?::bigint[], ?::text[]) AS v(id, channel_id)
         WHERE s.company_id = ? AND s.id = v.id AND s.lease_token = ?`,
        [now, delivered.map((d) => d.id), delivered.map((d) => d.channelMessageId) as string[], companyId, token],
      );
    }
    if (awaiting.length > 0) {
      await knex.raw(
        `UPDATE campaign_shippings SET state = 'awaiting', confirmation_requested_at = ?, lease_until = NULL, lease_token = NULL
         WHERE company_id = ? AND id = ANY(?::bigint[]) AND lease_token = ?`,
        [now, companyId, awaiting, token],
      );
    }
    if (retry.length > 0) {
      await knex.raw(
        `UPDATE campaign_shippings s SET due_at = v.due, lease_until = NULL, lease_token = NULL
         FROM unnest(?::bigint[], ?::timestamptz[]) AS v(id, due)
         WHERE s.company_id = ? AND s.id = v.id AND s.lease_token = ?`,
        [retry.map((r) => r.id), retry.map((r) => r.dueAt), companyId, token],
      );
    }
    if (failed.length > 0) {
      await knex.raw(
        `UPDATE campaign_shippings s SET state = 'failed', reason = v.reason, lease_until = NULL, lease_token = NULL
         FROM unnest(?::bigint[], ?::text[]) AS v(id, reason)
         WHERE s.company_id = ? AND s.id = v.id AND s.lease_token = ?`,
        [failed.map((f) => f.id), failed.map((f) => f.reason), companyId, token],
      );
    }
  }

  /** A campaign whose connection is gone: its remaining recipients fail (the report shows why). */
  private async failAll(campaign: RunningCampaign, reason: string): Promise<number> {
    const count = await this.ctx.db
      .knex('campaignShippings')
      .where({ companyId: campaign.companyId, campaignId: campaign.id, state: 'queued' })
      .update({ state: 'failed', reason, leaseUntil: null, leaseToken: null });
    if (count > 0) this.announceSoon(campaign);
    return 0;
  }

  /**
   * The report of a campaign hears of its progress at most once a second — less often when counting takes
   * long (ANNOUNCE_COST_FACTOR) — and once more after the last batch.
   */
  private announceSoon(campaign: RunningCampaign): void {
    const last = this.lastAnnounce.get(campaign.id) ?? 0;
    const every = Math.max(ANNOUNCE_EVERY_MS, (this.announceCost.get(campaign.id) ?? 0) * ANNOUNCE_COST_FACTOR);
    const wait = last + every - Date.now();
    const announce = () => {
      this.trailing.delete(campaign.id);
      const began = Date.now();
      this.lastAnnounce.set(campaign.id, began);
      void runInTenant({ companyId: campaign.companyId }, () => announceCampaign(this.ctx, campaign.companyId, campaign.id))
        .then(() => this.announceCost.set(campaign.id, Date.now() - began))
        .catch((error) => this.ctx.log.warn({ err: error }, 'campaign progress not announced'));
    };
    if (wait <= 0) {
      announce();
      return;
    }
    if (this.trailing.has(campaign.id)) return;
    const timer = setTimeout(announce, wait);
    timer.unref();
    this.trailing.set(campaign.id, timer);
  }
}

/**
 * Records the staged message ids on the claimed rows, inside the inbox's transaction — only rows still
 * leased with this token, still without a message for the step, of a campaign still running. Any row
 * missing rolls the whole batch back (LostClaim): no message exists without its row knowing it.
 */
async function linkStaged(
  trx: Knex.Transaction,
  companyId: number,
  column: 'confirmation_message_id' | 'message_id',
  token: string,
  staged: StagedOutbound[],
): Promise<void> {
  const result = await trx.raw(
    `UPDATE campaign_shippings s SET ${column} = v.message_id, contact_id = v.contact_id, ticket_id = v.ticket_id
     FROM unnest(?::bigint[], ?::bigint[], ?::int[], ?::int[]) AS v(id, message_id, contact_id, ticket_id)
     WHERE s.company_id = ? AND s.id = v.id AND s.lease_token = ? AND s.${column} IS NULL
       AND EXISTS (SELECT 1 FROM campaigns c WHERE c.id = s.campaign_id AND c.status = 'EM_ANDAMENTO')`,
    [
      staged.map((entry) => entry.key),
      staged.map((entry) => entry.messageId),
      staged.map((entry) => entry.contactId),
      staged.map((entry) => entry.ticketId),
      companyId,
      token,
    ],
  );
  if ((result as { rowCount?: number }).rowCount !== staged.length) throw new LostClaim();
}

const dispatchers = new WeakMap<PluginContext, CampaignDispatcher>();

/** The dispatcher of an app (one per plugin context: two apps in one test process keep theirs). */
export function campaignDispatcher(ctx: CampaignsContext): CampaignDispatcher {
  let dispatcher = dispatchers.get(ctx);
  if (!dispatcher) {
    dispatcher = new CampaignDispatcher(ctx, dispatcherOptions(ctx.config));
    dispatchers.set(ctx, dispatcher);
  }
  return dispatcher;
}
