import { type Clock, claimDueRows, leaseToken, systemClock } from '@balcao/plugin-sdk/server';
import type { WebhooksContext } from '../config';

/**
 * The e-mail of a disabled endpoint (docs/api.md "Retries"): when the dispatcher switches off an endpoint
 * that failed for a day, the same statement writes a notice row; the `mail-disable-notices` job (enqueued
 * at once, and run every minute by the core's scheduler for a notice whose enqueue was lost) claims due
 * notices with a lease and mails each of the company's admins and the company's own address through the
 * core's mailer (`ctx.mail`), in the endpoint's language. A send that fails is tried again later, skipping
 * the addresses already mailed; a notice is mailed once per disable.
 */

export const NOTICE_JOB = 'mail-disable-notices';
/** How often the scheduler runs the notices job (any one worker), for a notice whose enqueue was lost. */
export const NOTICE_EVERY_MS = 60_000;
/** Waits after the 1st, 2nd … attempt that left an address unmailed (the SMTP server down); then it gives up. */
export const NOTICE_RETRY_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000];
/** Notices one pass claims. */
const NOTICE_BATCH = 20;
/** How long a claim holds: far longer than mailing a handful of addresses takes. */
const NOTICE_LEASE_MS = 5 * 60_000;

type Language = 'pt' | 'en' | 'es' | 'tr';

interface NoticeTexts {
  subject: string;
  body(notice: { name: string; url: string; company: string; disabledAt: string; page: string }): string;
}

const TEXTS: Record<Language, NoticeTexts> = {
  pt: {
    subject: 'Balcão — um webhook foi desativado após falhar por 24 horas',
    body: (n) =>
      `Olá,\n\nO webhook "${n.name}" da empresa ${n.company} (${n.url}) falhou em todas as entregas por 24 horas e foi desativado em ${n.disabledAt}. Nenhum evento será enviado a ele até que seja ativado de novo.\n\nVerifique o sistema que recebe os eventos e, quando ele voltar a responder, ative o webhook em ${n.page} (o registro de entregas mostra as respostas recebidas).\n\nEsta mensagem foi enviada aos administradores da empresa.`,
  },
  en: {
    subject: 'Balcão — a webhook was disabled after failing for 24 hours',
    body: (n) =>
      `Hello,\n\nThe webhook "${n.name}" of ${n.company} (${n.url}) failed every delivery for 24 hours and was disabled at ${n.disabledAt}. No event will be sent to it until it is switched on again.\n\nCheck the system that receives the events and, once it answers again, switch the webhook on at ${n.page} (its delivery log shows the answers it got).\n\nThis message was sent to the company's admins.`,
  },
  es: {
    subject: 'Balcão — un webhook fue desactivado tras fallar durante 24 horas',
    body: (n) =>
      `Hola:\n\nEl webhook "${n.name}" de la empresa ${n.company} (${n.url}) falló en todas las entregas durante 24 horas y fue desactivado el ${n.disabledAt}. No se le enviará ningún evento hasta que se active de nuevo.\n\nRevise el sistema que recibe los eventos y, cuando vuelva a responder, active el webhook en ${n.page} (el registro de entregas muestra las respuestas recibidas).\n\nEste mensaje se envió a los administradores de la empresa.`,
  },
  tr: {
    subject: 'Balcão — bir webhook 24 saat boyunca başarısız olduğu için devre dışı bırakıldı',
    body: (n) =>
      `Merhaba,\n\n${n.company} şirketinin "${n.name}" webhook'u (${n.url}) 24 saat boyunca tüm teslimatlarda başarısız oldu ve ${n.disabledAt} tarihinde devre dışı bırakıldı. Yeniden etkinleştirilene kadar ona hiçbir olay gönderilmeyecek.\n\nOlayları alan sistemi kontrol edin; yeniden yanıt verdiğinde webhook'u ${n.page} adresinden etkinleştirin (teslimat kaydı alınan yanıtları gösterir).\n\nBu mesaj şirketin yöneticilerine gönderildi.`,
  },
};

/** The language of an `Accept-Language` header or a stored tag (`en-US,en;q=0.9` → en); null when none of ours. */
export function languageOf(header: string | null | undefined): Language | null {
  for (const part of (header ?? '').split(',')) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if (tag in TEXTS) return tag as Language;
  }
  return null;
}

/** The notice's subject and body, in the endpoint's language (Portuguese when it is unknown). */
export function noticeMail(
  language: string | null,
  notice: { name: string; url: string; company: string; disabledAt: Date; page: string },
): { subject: string; text: string } {
  const texts = TEXTS[languageOf(language) ?? 'pt'];
  const disabledAt = `${new Date(notice.disabledAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return { subject: texts.subject, text: texts.body({ ...notice, disabledAt }) };
}

interface NoticeRow {
  id: string | number;
  companyId: number;
  endpointName: string;
  endpointUrl: string;
  language: string | null;
  disabledAt: Date;
  attempts: number;
  mailedTo: string[];
}

/** Who is told: the company's admins (and super users), and the company's own address when it has one. */
async function recipients(ctx: WebhooksContext, companyId: number): Promise<{ company: string; addresses: string[] }> {
  const { knex } = ctx.db;
  const [company, admins] = await Promise.all([
    knex('companies').where({ id: companyId }).first('name', 'email') as Promise<
      { name: string; email: string | null } | undefined
    >,
    knex('users')
      .where({ companyId })
      .where((query) => query.where('profile', 'admin').orWhere('super', true))
      .orderBy('id')
      .pluck('email') as Promise<string[]>,
  ]);
  const addresses = [...admins, company?.email ?? '']
    .map((address) => address.trim().toLowerCase())
    .filter((address) => address !== '');
  return { company: company?.name ?? '', addresses: [...new Set(addresses)] };
}

/**
 * One pass of the notices job: claims due notices (every company's: system work) and mails them. Answers
 * how many it claimed.
 */
export async function mailDisableNotices(ctx: WebhooksContext, clock: Clock = systemClock): Promise<number> {
  const now = clock.now();
  const token = leaseToken();
  const claimed = await claimDueRows<NoticeRow>(ctx.db.knex, {
    table: 'webhook_disable_notices',
    due: "status = 'pending' AND next_attempt_at <= ?",
    dueBindings: [now],
    orderBy: 'next_attempt_at, id',
    limit: NOTICE_BATCH,
    now,
    leaseMs: NOTICE_LEASE_MS,
    token,
    returning: `s.id, s.company_id AS "companyId", s.endpoint_name AS "endpointName", s.endpoint_url AS "endpointUrl",
      s.language, s.disabled_at AS "disabledAt", s.attempts, s.mailed_to AS "mailedTo"`,
  });
  for (const notice of claimed) {
    try {
      await mailNotice(ctx, notice, token, clock);
    } catch (error) {
      // the lease runs out and a later pass takes it again
      ctx.log.error({ err: error, noticeId: notice.id }, 'webhook disable notice not recorded');
    }
  }
  return claimed.length;
}

async function mailNotice(ctx: WebhooksContext, notice: NoticeRow, token: string, clock: Clock): Promise<void> {
  const { knex } = ctx.db;
  const { company, addresses } = await recipients(ctx, notice.companyId);
  const mail = noticeMail(notice.language, {
    name: notice.endpointName,
    url: notice.endpointUrl,
    company,
    disabledAt: notice.disabledAt,
    page: `${ctx.config.publicUrl.replace(/\/$/, '')}/webhooks`,
  });
  const done = new Set(notice.mailedTo);
  let failure: string | null = null;
  for (const to of addresses) {
    if (done.has(to)) continue;
    try {
      await ctx.mail.send({ to, ...mail });
    } catch (error) {
      failure = String((error as Error).message ?? error).slice(0, 200);
      ctx.log.warn({ noticeId: notice.id, companyId: notice.companyId, reason: failure }, 'webhook disable mail not sent');
      continue;
    }
    // recorded one by one: a process killed mid-list sends the rest, not these again
    await knex.raw('UPDATE webhook_disable_notices SET mailed_to = array_append(mailed_to, ?) WHERE id = ? AND lease_token = ?', [
      to,
      notice.id,
      token,
    ]);
    done.add(to);
  }
  const now = clock.now();
  if (failure === null) {
    const error = addresses.length === 0 ? 'no recipients' : null;
    if (error) ctx.log.warn({ noticeId: notice.id, companyId: notice.companyId }, 'webhook disabled: no admin e-mail to tell');
    await knex('webhookDisableNotices')
      .where({ id: notice.id, leaseToken: token })
      .update({ status: 'sent', sentAt: now, error, nextAttemptAt: null, leaseUntil: null, leaseToken: null });
    return;
  }
  const wait = NOTICE_RETRY_MS[notice.attempts - 1];
  await knex('webhookDisableNotices')
    .where({ id: notice.id, leaseToken: token })
    .update({
      status: wait === undefined ? 'failed' : 'pending',
      error: failure,
      nextAttemptAt: wait === undefined ? null : new Date(now.getTime() + wait),
      leaseUntil: null,
      leaseToken: null,
    });
}

/** Asks a worker to mail the notices now (the scheduler's pass catches one whose enqueue is lost). */
export async function enqueueNoticeMail(ctx: WebhooksContext, noticeId: number): Promise<void> {
  try {
    await ctx.jobs.enqueue(NOTICE_JOB, {}, { jobId: `notice-${noticeId}` });
  } catch (error) {
    ctx.log.warn({ err: error, noticeId }, 'webhook disable notice job not enqueued; the next scheduled pass mails it');
  }
}
