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
import { dueTime, nextOccurrence, totalSends } from '../../shared/schedules';
import type { SchedulesConfig, SchedulesContext } from '../config';
import { emitSchedule } from './live';
import { companyServiceHours, loadSchedules } from './schedules.service';

/**
 * The dispatcher (docs/schedules.md "Exactly once"): every worker process runs a few lanes (the SDK's
 * `ClaimedRowsLoop`) that claim due schedules in Postgres (`FOR UPDATE SKIP LOCKED`, then a lease with a
 * token), store each one's message on the contact's ticket through the inbox — writing the message id on
 * the schedule in the same transaction — and deliver it through the inbox's delivery step, whose driver
 * call carries the message id as its idempotency key. A process killed at any instant leaves rows whose
 * lease runs out: the next claim finds the message already stored (maybe already sent) and completes it,
 * never storing or sending a second one.
 */

export interface DispatcherOptions {
  lanes: number;
  batch: number;
  leaseMs: number;
  /** How long an idle loop first waits before looking again (a wake-up cuts it short). */
  idleMs: number;
}

export function dispatcherOptions(config: SchedulesConfig): DispatcherOptions {
  return { lanes: config.SCHEDULE_LANES, batch: config.SCHEDULE_BATCH, leaseMs: config.SCHEDULE_LEASE_MS, idleMs: 250 };
}

/** Tries of an occurrence that fails for a reason that may pass, before the schedule is marked ERRO. */
export const MAX_ATTEMPTS = 5;
/** The first retry's wait; each next one doubles it. */
const RETRY_BASE_MS = 30_000;
/** How long a schedule of a company whose plan lacks useSchedules waits before it is looked at again. */
export const PLAN_OFF_WAIT_MS = 5 * 60_000;
/** Failures that no retry will mend. */
const PERMANENT_ERRORS = new Set(['ERR_WAPP_INVALID_CONTACT', 'ERR_INVALID_NUMBER', 'ERR_NO_WAPP_FOUND']);
/**
 * The longest an idle loop waits: a schedule created for a later minute is found within it. Wake-ups (a
 * schedule due now, from any process) cut it short.
 */
const MAX_IDLE_MS = 2_000;

interface ClaimedRow {
  id: number;
  companyId: number;
  body: string;
  sendAt: Date;
  anchorAt: Date | null;
  contactId: number;
  userId: number | null;
  ticketUserId: number | null;
  queueId: number | null;
  whatsappId: number | null;
  intervalo: number;
  valorIntervalo: number;
  enviarQuantasVezes: number;
  tipoDias: number;
  openTicket: 'enabled' | 'disabled';
  statusTicket: 'closed' | 'pending' | 'open';
  assinar: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  mediaMimetype: string | null;
  sentCount: number;
  messageId: number | null;
  attempts: number;
}

/** The media type of an attachment for the inbox (docs/product/tickets-and-inbox.md#entities). */
function mediaTypeOf(mime: string | null): string {
  if (!mime) return 'application';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'application';
}

/** The body with the agent's signature, as the inbox signs an agent's message: `*{name}:*\n{body}`. */
export function signed(body: string, name: string | null | undefined): string {
  return name ? `*${name}:*\n${body}` : body;
}

export class ScheduleDispatcher {
  clock: Clock = systemClock;
  private readonly loop: ClaimedRowsLoop;

  constructor(
    private readonly ctx: PluginContext,
    readonly options: DispatcherOptions,
  ) {
    this.loop = new ClaimedRowsLoop({
      lanes: options.lanes,
      idleMs: options.idleMs,
      maxIdleMs: MAX_IDLE_MS,
      pass: () => this.runOnce(),
      onError: (error) => ctx.log.error({ err: error }, 'schedule dispatch failed'),
    });
  }

  /** Starts the lanes (worker processes only). */
  start(): void {
    this.loop.start();
  }

  /** Stops the lanes after their batch in flight. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Ends idle waits at once (a schedule due now). */
  wake(): void {
    this.loop.wake();
  }

  /** One pass: claims a batch of due schedules (every company) and sends them. Answers how many were claimed. */
  async runOnce(): Promise<number> {
    const now = this.clock.now();
    const token = leaseToken();
    const rows = await this.claim(now, token);
    if (rows.length === 0) return 0;
    const renewing = this.keepLease(
      rows.map((row) => row.id),
      token,
    );
    try {
      const byCompany = new Map<number, ClaimedRow[]>();
      for (const row of rows) byCompany.set(row.companyId, [...(byCompany.get(row.companyId) ?? []), row]);
      for (const [companyId, own] of byCompany) {
        await runInTenant({ companyId }, () => this.sendCompany(companyId, own, token)).catch((error: unknown) =>
          this.ctx.log.error({ err: error, companyId }, 'schedules not sent'),
        );
      }
    } finally {
      await renewing.stop();
    }
    return rows.length;
  }

  /** Claims due schedules with a lease (a dead process's come back when it passes). */
  private async claim(now: Date, token: string): Promise<ClaimedRow[]> {
    const claimed = await claimDueRows<ClaimedRow>(this.ctx.db.knex, {
      table: 'schedules',
      due: "status = 'PENDENTE' AND due_at <= ?",
      dueBindings: [now],
      orderBy: 'due_at, id',
      limit: this.options.batch,
      now,
      leaseMs: this.options.leaseMs,
      token,
      returning: `s.id, s.company_id AS "companyId", s.body, s.send_at AS "sendAt", s.anchor_at AS "anchorAt", s.contact_id AS "contactId",
         s.user_id AS "userId", s.ticket_user_id AS "ticketUserId", s.queue_id AS "queueId", s.whatsapp_id AS "whatsappId",
         s.intervalo, s.valor_intervalo AS "valorIntervalo", s.enviar_quantas_vezes AS "enviarQuantasVezes",
         s.tipo_dias AS "tipoDias", s.open_ticket AS "openTicket", s.status_ticket AS "statusTicket", s.assinar,
         s.media_path AS "mediaPath", s.media_name AS "mediaName", s.media_mimetype AS "mediaMimetype",
         s.sent_count AS "sentCount", s.message_id AS "messageId", s.attempts`,
    });
    return claimed.map((row) => ({ ...row, messageId: row.messageId === null ? null : Number(row.messageId) }));
  }

  /** Keeps a claim's lease ahead while its batch is in flight (a slow batch is not claimed twice). */
  private keepLease(ids: number[], token: string): { stop(): Promise<void> } {
    return keepLeaseAhead({
      leaseMs: this.options.leaseMs,
      clock: { now: () => this.clock.now() },
      renew: (leaseUntil) =>
        this.ctx.db.knex.raw('UPDATE schedules SET lease_until = ? WHERE id = ANY(?::int[]) AND lease_token = ?', [
          leaseUntil,
          ids,
          token,
        ]),
      onError: (error) => this.ctx.log.warn({ err: error }, 'schedule lease not renewed'),
    });
  }

  /**
   * Sends one company's claimed schedules. Those of a plan without useSchedules go back unclaimed, their
   * claim not counted as a try, and wait PLAN_OFF_WAIT_MS before the next look: the flag may come back.
   */
  private async sendCompany(companyId: number, rows: ClaimedRow[], token: string): Promise<void> {
    const { ctx } = this;
    if (!(await ctx.plans.has(companyId, 'useSchedules'))) {
      await ctx.db.knex.raw(
        `UPDATE schedules SET lease_until = NULL, lease_token = NULL, attempts = GREATEST(attempts - 1, 0),
           due_at = GREATEST(due_at, ?) WHERE company_id = ? AND lease_token = ?`,
        [new Date(this.clock.now().getTime() + PLAN_OFF_WAIT_MS), companyId, token],
      );
      return;
    }
    const { knex } = ctx.db;
    const contacts = new Map(
      (
        (await knex('contacts')
          .where({ companyId })
          .whereIn(
            'id',
            rows.map((row) => row.contactId),
          )
          .select('id', 'name', 'number', 'email')) as Array<{
          id: number;
          name: string;
          number: string | null;
          email: string | null;
        }>
      ).map((contact) => [contact.id, contact]),
    );
    const signers = rows.filter((row) => row.assinar).map((row) => row.ticketUserId ?? row.userId);
    const names = new Map(
      signers.length === 0
        ? []
        : (
            (await knex('users')
              .where({ companyId })
              .whereIn(
                'id',
                signers.filter((id): id is number => id !== null),
              )
              .select('id', 'name')) as Array<{ id: number; name: string }>
          ).map((user) => [user.id, user.name]),
    );
    // one staging per connection and ticket options: each is one transaction of the inbox
    const groups = new Map<string, ClaimedRow[]>();
    for (const row of rows) {
      const key = [row.whatsappId, row.openTicket, row.statusTicket, row.ticketUserId, row.queueId].join('|');
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    const inbox = ctx.services.use('inbox');
    for (const group of groups.values()) {
      const first = group[0] as ClaimedRow;
      const profile =
        first.whatsappId === null ? null : await ctx.services.use('connections').profile(companyId, first.whatsappId);
      if (profile === null) {
        await this.record(
          companyId,
          token,
          group.map((row) => ({ row, outcome: { status: 'failed', error: 'ERR_NO_WAPP_FOUND' } })),
        );
        continue;
      }
      const unusable = group.filter((row) => row.messageId === null && !contacts.get(row.contactId)?.number);
      const toStage = group.filter((row) => row.messageId === null && !unusable.includes(row));
      const staged = new Map<number, StagedOutbound>();
      if (toStage.length > 0) {
        const items: StageOutboundItem[] = toStage.map((row) => {
          const contact = contacts.get(row.contactId);
          const signer = row.assinar ? names.get((row.ticketUserId ?? row.userId) as number) : null;
          return {
            key: row.id,
            number: String(contact?.number),
            name: contact?.name ?? null,
            email: contact?.email ?? null,
            body: signed(row.body, signer),
            media: row.mediaPath
              ? {
                  storageKey: row.mediaPath,
                  fileName: row.mediaName ?? 'file',
                  mimetype: row.mediaMimetype,
                  mediaType: mediaTypeOf(row.mediaMimetype),
                }
              : null,
          };
        });
        try {
          const result = await inbox.stageOutbound(items, {
            whatsappId: first.whatsappId as number,
            channel: profile.channel,
            newTicket: {
              status: first.statusTicket,
              userId: first.openTicket === 'enabled' ? first.ticketUserId : null,
              queueId: first.openTicket === 'enabled' ? first.queueId : null,
            },
            automation: 'schedule',
            link: (trx, done) => linkStaged(trx, companyId, token, done),
          });
          for (const entry of result) staged.set(entry.key, entry);
        } catch (error) {
          if (!(error instanceof LostClaim)) throw error;
          // deleted, edited or the lease passed to another process meanwhile: nothing was stored; what is
          // still ours goes back at once
          await knex('schedules').where({ companyId, leaseToken: token }).update({ leaseUntil: null, leaseToken: null });
          return;
        }
      }
      const sending = group.flatMap((row) => {
        const messageId = row.messageId ?? staged.get(row.id)?.messageId ?? null;
        return messageId === null ? [] : [{ row, messageId }];
      });
      const outcomes = sending.length === 0 ? [] : await inbox.deliver(sending.map((entry) => entry.messageId));
      await this.record(companyId, token, [
        ...unusable.map((row) => ({ row, outcome: { status: 'failed', error: 'ERR_INVALID_NUMBER' } })),
        ...sending.map((entry, index) => ({
          row: entry.row,
          outcome: outcomes[index] ?? { status: 'failed', error: 'ERR_SENDING_WAPP_MSG' },
        })),
      ]);
    }
  }

  /**
   * Writes each occurrence's outcome (only while the claim is still this one's): sent — the next occurrence,
   * or ENVIADA after the last; a failure that may pass — a retry 30 s × 2ⁿ later; otherwise ERRO.
   */
  private async record(
    companyId: number,
    token: string,
    results: Array<{ row: ClaimedRow; outcome: { status: string; error: string | null } }>,
  ): Promise<void> {
    if (results.length === 0) return;
    const { knex } = this.ctx.db;
    const now = this.clock.now();
    let hours: Awaited<ReturnType<typeof companyServiceHours>> | null = null;
    // one row of new values per schedule (null: keep the stored one), written in one statement
    const rows: Array<{
      id: number;
      status: string;
      sentAt: Date | null;
      sentCount: number;
      sendAt: Date;
      dueAt: Date | null;
      clearMessage: boolean;
      attempts: number;
      error: string | null;
    }> = [];
    for (const { row, outcome } of results) {
      const kept = { id: row.id, sentCount: row.sentCount, sendAt: new Date(row.sendAt), attempts: row.attempts };
      if (outcome.status === 'sent') {
        const sentCount = row.sentCount + 1;
        if (sentCount >= totalSends(row)) {
          rows.push({
            ...kept,
            status: 'ENVIADA',
            sentAt: now,
            sentCount,
            dueAt: null,
            clearMessage: true,
            attempts: 0,
            error: null,
          });
        } else {
          // counted from the first send, so a month's shorter length does not carry into the next ones
          const sendAt = row.anchorAt
            ? nextOccurrence(new Date(row.anchorAt), row.intervalo, row.valorIntervalo, sentCount)
            : nextOccurrence(new Date(row.sendAt), row.intervalo, row.valorIntervalo);
          hours ??= await companyServiceHours(this.ctx, companyId);
          rows.push({
            ...kept,
            status: 'PENDENTE',
            sentAt: now,
            sentCount,
            sendAt,
            dueAt: dueTime(sendAt, row.tipoDias, hours),
            clearMessage: true,
            attempts: 0,
            error: null,
          });
        }
        continue;
      }
      const reason = outcome.status === 'pending' ? 'ERR_MESSAGE_GONE' : (outcome.error ?? 'ERR_SENDING_WAPP_MSG');
      const giveUp = outcome.status === 'pending' || PERMANENT_ERRORS.has(reason) || row.attempts >= MAX_ATTEMPTS;
      rows.push({
        ...kept,
        status: giveUp ? 'ERRO' : 'PENDENTE',
        sentAt: null,
        dueAt: giveUp ? null : new Date(now.getTime() + RETRY_BASE_MS * 2 ** (row.attempts - 1)),
        clearMessage: giveUp,
        error: reason,
      });
    }
    const written = (await knex.raw(
      `UPDATE schedules s SET status = v.status, sent_at = COALESCE(v.sent_at, s.sent_at), sent_count = v.sent_count,
         send_at = v.send_at, due_at = COALESCE(v.due_at, s.due_at),
         message_id = CASE WHEN v.clear_message THEN NULL ELSE s.message_id END, attempts = v.attempts, error = v.error,
         lease_until = NULL, lease_token = NULL, updated_at = ?
       FROM unnest(?::int[], ?::text[], ?::timestamptz[], ?::int[], ?::timestamptz[], ?::timestamptz[], ?::boolean[], ?::int[], ?::text[])
         AS v(id, status, sent_at, sent_count, send_at, due_at, clear_message, attempts, error)
       WHERE s.company_id = ? AND s.id = v.id AND s.lease_token = ?
       RETURNING s.id`,
      [
        now,
        rows.map((r) => r.id),
        rows.map((r) => r.status),
        rows.map((r) => r.sentAt) as unknown as Date[],
        rows.map((r) => r.sentCount),
        rows.map((r) => r.sendAt),
        rows.map((r) => r.dueAt) as unknown as Date[],
        rows.map((r) => r.clearMessage),
        rows.map((r) => r.attempts),
        rows.map((r) => r.error) as unknown as string[],
        companyId,
        token,
      ],
    )) as { rows: Array<{ id: number }> };
    if (written.rows.length === 0) return;
    for (const schedule of await loadSchedules(
      this.ctx,
      companyId,
      written.rows.map((r) => r.id),
    )) {
      emitSchedule(this.ctx, companyId, { action: 'update', schedule });
    }
  }
}

/**
 * Records the staged message ids on the claimed schedules, inside the inbox's transaction — only rows still
 * leased with this token and still without a message. Any row missing rolls the whole batch back
 * (LostClaim): no message exists without its schedule knowing it.
 */
async function linkStaged(trx: Knex.Transaction, companyId: number, token: string, staged: StagedOutbound[]): Promise<void> {
  const result = await trx.raw(
    `UPDATE schedules s SET message_id = v.message_id, ticket_id = v.ticket_id
     FROM unnest(?::int[], ?::bigint[], ?::int[]) AS v(id, message_id, ticket_id)
     WHERE s.company_id = ? AND s.id = v.id AND s.lease_token = ? AND s.message_id IS NULL`,
    [
      staged.map((entry) => entry.key),
      staged.map((entry) => entry.messageId),
      staged.map((entry) => entry.ticketId),
      companyId,
      token,
    ],
  );
  if ((result as { rowCount?: number }).rowCount !== staged.length) throw new LostClaim();
}

const dispatchers = new WeakMap<PluginContext, ScheduleDispatcher>();

/** The dispatcher of an app (one per plugin context: two apps in one test process keep theirs). */
export function scheduleDispatcher(ctx: SchedulesContext): ScheduleDispatcher {
  let dispatcher = dispatchers.get(ctx);
  if (!dispatcher) {
    dispatcher = new ScheduleDispatcher(ctx, dispatcherOptions(ctx.config));
    dispatchers.set(ctx, dispatcher);
  }
  return dispatcher;
}
