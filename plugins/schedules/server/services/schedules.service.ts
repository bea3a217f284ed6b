import type { Readable } from 'node:stream';
import { AppError, type PluginContext, requireOwnIds, type ServiceHours, type Static } from '@balcao/plugin-sdk/server';
import { fileTypeFromBuffer } from 'file-type';
import type { Knex } from 'knex';
import { ANY_DAY, dueTime, REPLY_WINDOW_CHANNELS, REPLY_WINDOW_MS, totalSends } from '../../shared/schedules';
import { Schedule } from '../models/schedule';
import { emitSchedule } from './live';
import type { ScheduleBody, ScheduleQuery, ScheduleSchema } from './schemas';

export type ScheduleJson = Static<typeof ScheduleSchema>;
export type ScheduleInput = Static<typeof ScheduleBody>;

/** Schedules a page of `GET /schedules` (a calendar month fits in one). */
export const SCHEDULES_PAGE_SIZE = 200;
/** Size limit of a schedule's attachment (WhatsApp takes media up to 16 MB). */
export const SCHEDULE_MEDIA_MAX_BYTES = 16 * 1024 * 1024;
/** How far in the past a new time may be (the seconds between opening the dialog and saving it). */
const PAST_TOLERANCE_MS = 60_000;

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);

interface ScheduleRow extends Schedule {
  contactName: string;
  contactNumber: string | null;
}

function serialize(ctx: PluginContext, companyId: number, row: ScheduleRow): ScheduleJson {
  return {
    id: row.id,
    body: row.body,
    sendAt: iso(row.sendAt) as string,
    dueAt: iso(row.dueAt) as string,
    contactId: row.contactId,
    contact: { id: row.contactId, name: row.contactName, number: row.contactNumber ?? '' },
    userId: row.userId,
    ticketUserId: row.ticketUserId,
    queueId: row.queueId,
    whatsappId: row.whatsappId,
    intervalo: row.intervalo,
    valorIntervalo: row.valorIntervalo,
    enviarQuantasVezes: row.enviarQuantasVezes,
    tipoDias: row.tipoDias,
    openTicket: row.openTicket,
    statusTicket: row.statusTicket,
    assinar: row.assinar,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    mediaUrl: row.mediaPath ? ctx.storage.signedUrl(companyId, row.mediaPath, { fileName: row.mediaName ?? undefined }) : null,
    status: row.status,
    sentAt: iso(row.sentAt),
    sentCount: row.sentCount,
    ticketId: row.ticketId,
    error: row.error,
    createdAt: iso(row.createdAt) as string,
    updatedAt: iso(row.updatedAt) as string,
  };
}

/** Schedules with their contact's name and number (the calendar's title). */
function withContact(knex: Knex, companyId: number) {
  return knex('schedules as s')
    .join('contacts as c', function joinContact() {
      this.on('c.id', '=', 's.contactId').andOn('c.companyId', '=', 's.companyId');
    })
    .where('s.companyId', companyId)
    .select('s.*', 'c.name as contactName', 'c.number as contactNumber');
}

/** `GET /schedules`: by time, filtered by text (body or contact), contact and range; 200 a page. */
export async function listSchedules(
  ctx: PluginContext,
  companyId: number,
  query: Static<typeof ScheduleQuery>,
): Promise<{ schedules: ScheduleJson[]; count: number; hasMore: boolean }> {
  const page = query.pageNumber ?? 1;
  const filtered = withContact(ctx.db.knex, companyId);
  const search = query.searchParam?.trim();
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filtered.where((q) => q.whereILike('s.body', like).orWhereILike('c.name', like).orWhereILike('c.number', like));
  }
  if (query.contactId !== undefined) filtered.where('s.contactId', query.contactId);
  if (query.start) filtered.where('s.sendAt', '>=', new Date(query.start));
  if (query.end) filtered.where('s.sendAt', '<', new Date(query.end));
  const [{ count }] = (await filtered.clone().clearSelect().count({ count: '*' })) as [{ count: string }];
  const rows = (await filtered
    .orderBy('s.sendAt', 'asc')
    .orderBy('s.id', 'asc')
    .limit(SCHEDULES_PAGE_SIZE)
    .offset((page - 1) * SCHEDULES_PAGE_SIZE)) as ScheduleRow[];
  return {
    schedules: rows.map((row) => serialize(ctx, companyId, row)),
    count: Number(count),
    hasMore: page * SCHEDULES_PAGE_SIZE < Number(count),
  };
}

/** `GET /schedules/:id`. */
export async function loadSchedule(ctx: PluginContext, companyId: number, id: number): Promise<ScheduleJson> {
  const row = (await withContact(ctx.db.knex, companyId).where('s.id', id).first()) as ScheduleRow | undefined;
  if (!row) throw new AppError('ERR_NO_SCHEDULE_FOUND');
  return serialize(ctx, companyId, row);
}

/** Several schedules at once (the dispatcher tells the screens of a batch's outcomes). */
export async function loadSchedules(ctx: PluginContext, companyId: number, ids: number[]): Promise<ScheduleJson[]> {
  const rows = (await withContact(ctx.db.knex, companyId).whereIn('s.id', ids)) as ScheduleRow[];
  return rows.map((row) => serialize(ctx, companyId, row));
}

/**
 * The company's service hours (the week `tipoDias` 5 keeps to), from the administration's `companyHours`
 * service: what the company saved, or the defaults when it never saved any.
 */
export function companyServiceHours(ctx: PluginContext, companyId: number): Promise<ServiceHours[]> {
  return ctx.services.use('companyHours').serviceHours(companyId);
}

/**
 * Checks the dialog's fields against the company's rows and fills what it leaves out: the connection (the
 * contact's, else the company's default one), and a ticket user or queue only when a ticket is opened.
 */
async function normalize(ctx: PluginContext, companyId: number, input: ScheduleInput) {
  const { knex } = ctx.db;
  const sendAt = new Date(input.sendAt);
  if (Number.isNaN(sendAt.getTime())) throw new AppError('ERR_SCHEDULE_INVALID_DATE');
  await requireOwnIds(knex, companyId, [
    { table: 'contacts', entity: 'contact', ids: [input.contactId] },
    ...(input.ticketUserId ? [{ table: 'users', entity: 'user', ids: [input.ticketUserId] }] : []),
    ...(input.queueId ? [{ table: 'queues', entity: 'queue', ids: [input.queueId] }] : []),
    ...(input.whatsappId ? [{ table: 'whatsapps', entity: 'whatsapp', ids: [input.whatsappId] }] : []),
  ]);
  const contact = (await knex('contacts').where({ companyId, id: input.contactId }).first('id', 'number', 'whatsappId')) as
    | { id: number; number: string | null; whatsappId: number | null }
    | undefined;
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  if (!contact.number || contact.number.replace(/\D/g, '').length < 8) throw new AppError('ERR_SCHEDULE_CONTACT_NO_NUMBER');
  if (input.ticketUserId && !(await knex('users').where({ companyId, id: input.ticketUserId }).first('id'))) {
    throw new AppError('ERR_NO_USER_FOUND');
  }
  if (input.queueId && !(await knex('queues').where({ companyId, id: input.queueId }).first('id'))) {
    throw new AppError('ERR_NO_QUEUE_FOUND');
  }
  let whatsappId = input.whatsappId ?? null;
  if (whatsappId !== null && !(await knex('whatsapps').where({ companyId, id: whatsappId }).first('id'))) {
    throw new AppError('ERR_NO_WAPP_FOUND');
  }
  if (whatsappId === null && contact.whatsappId !== null) {
    const own = await knex('whatsapps').where({ companyId, id: contact.whatsappId }).first('id');
    whatsappId = own ? contact.whatsappId : null;
  }
  if (whatsappId === null) {
    const fallback = (await knex('whatsapps').where({ companyId }).orderBy('isDefault', 'desc').orderBy('id').first('id')) as
      | { id: number }
      | undefined;
    whatsappId = fallback?.id ?? null;
  }
  if (whatsappId === null) throw new AppError('ERR_SCHEDULE_NO_CONNECTION');
  const openTicket = input.openTicket ?? 'disabled';
  const tipoDias = input.tipoDias ?? ANY_DAY;
  const dueAt = dueTime(sendAt, tipoDias, await companyServiceHours(ctx, companyId));
  await checkReplyWindow(ctx, companyId, {
    whatsappId,
    contactId: contact.id,
    dueAt,
    repeats: totalSends({ valorIntervalo: input.valorIntervalo ?? 0, enviarQuantasVezes: input.enviarQuantasVezes ?? 1 }) > 1,
  });
  return {
    body: input.body,
    sendAt,
    dueAt,
    contactId: input.contactId,
    intervalo: input.intervalo ?? 1,
    valorIntervalo: input.valorIntervalo ?? 0,
    enviarQuantasVezes: input.enviarQuantasVezes ?? 1,
    tipoDias,
    openTicket,
    statusTicket: input.statusTicket ?? 'closed',
    ticketUserId: openTicket === 'enabled' ? (input.ticketUserId ?? null) : null,
    queueId: openTicket === 'enabled' ? (input.queueId ?? null) : null,
    whatsappId,
    assinar: input.assinar ?? false,
  };
}

/**
 * Channels with a reply window (Meta's: WhatsApp Cloud API, Messenger, Instagram) take a free-form message
 * only within 24 hours of the contact's last message on the connection: a schedule due later — or repeated,
 * whose next sends are days later — would fail at send time, so it is refused now, with the reason.
 */
async function checkReplyWindow(
  ctx: PluginContext,
  companyId: number,
  plan: { whatsappId: number; contactId: number; dueAt: Date; repeats: boolean },
): Promise<void> {
  const profile = await ctx.services.use('connections').profile(companyId, plan.whatsappId);
  if (!profile || !REPLY_WINDOW_CHANNELS.includes(profile.channel)) return;
  const last = (await ctx.db
    .knex('messages')
    .where({ companyId, contactId: plan.contactId, whatsappId: plan.whatsappId, fromMe: false })
    .max({ at: 'createdAt' })
    .first()) as { at: Date | string | null } | undefined;
  const closesAt = last?.at ? new Date(last.at).getTime() + REPLY_WINDOW_MS : 0;
  if (plan.repeats || plan.dueAt.getTime() > closesAt) {
    throw new AppError('ERR_SCHEDULE_OUTSIDE_WINDOW', {
      channel: profile.channel,
      windowClosesAt: closesAt > 0 ? new Date(closesAt).toISOString() : null,
    });
  }
}

/** Announces a schedule to the company's screens and answers it. */
async function announce(ctx: PluginContext, companyId: number, id: number, action: 'create' | 'update'): Promise<ScheduleJson> {
  const schedule = await loadSchedule(ctx, companyId, id);
  emitSchedule(ctx, companyId, { action, schedule });
  return schedule;
}

/** Wakes the dispatchers when a schedule is due now (else their idle wait finds it in time). */
async function wakeIfDue(ctx: PluginContext, dueAt: Date): Promise<void> {
  if (dueAt.getTime() <= Date.now() + 1_000) await ctx.broadcast.publish(WAKE_TOPIC, {});
}

/** The broadcast topic that wakes every process's dispatch loops (a schedule due now). */
export const WAKE_TOPIC = 'schedule-wake';

/** `POST /schedules`. A time already past (beyond a minute's grace) is refused. */
export async function createSchedule(
  ctx: PluginContext,
  companyId: number,
  userId: number,
  input: ScheduleInput,
): Promise<ScheduleJson> {
  const fields = await normalize(ctx, companyId, input);
  if (fields.sendAt.getTime() < Date.now() - PAST_TOLERANCE_MS) throw new AppError('ERR_SCHEDULE_DATE_PAST');
  const created = await Schedule.query().insert({ ...fields, anchorAt: fields.sendAt, userId, status: 'PENDENTE' });
  await wakeIfDue(ctx, fields.dueAt);
  return announce(ctx, companyId, created.id, 'create');
}

/**
 * `PUT /schedules/:id`: a new time starts the schedule over (PENDENTE, nothing sent of the new plan); the
 * same time keeps the sends already made (ENVIADA when they reach the new count).
 * Refused while an occurrence is being sent (a live lease): its message may already be on its way.
 */
export async function updateSchedule(
  ctx: PluginContext,
  companyId: number,
  id: number,
  input: ScheduleInput,
): Promise<ScheduleJson> {
  const fields = await normalize(ctx, companyId, input);
  const current = await Schedule.query().findById(id);
  if (!current) throw new AppError('ERR_NO_SCHEDULE_FOUND');
  const timeChanged = fields.sendAt.getTime() !== new Date(current.sendAt).getTime();
  if (timeChanged && fields.sendAt.getTime() < Date.now() - PAST_TOLERANCE_MS) throw new AppError('ERR_SCHEDULE_DATE_PAST');
  // the same time keeps what was already sent: a sent schedule edited stays sent, and fewer sends than
  // already made ends it, rather than sending its past-due occurrence again
  const sentCount = timeChanged ? 0 : current.sentCount;
  const done = sentCount >= totalSends(fields);
  const updated = await Schedule.query()
    .where({ id })
    .where((q) => q.whereNull('leaseUntil').orWhere('leaseUntil', '<', new Date()))
    .whereNull('messageId')
    .patch({
      ...fields,
      status: done ? 'ENVIADA' : 'PENDENTE',
      sentCount,
      anchorAt: timeChanged ? fields.sendAt : (current.anchorAt ?? current.sendAt),
      attempts: 0,
      error: null,
      // a claimer whose lease lapsed loses its claim: it cannot link a message of the old fields
      leaseUntil: null,
      leaseToken: null,
      updatedAt: new Date(),
    });
  if (updated === 0) throw new AppError('ERR_SCHEDULE_SENDING');
  if (!done) await wakeIfDue(ctx, fields.dueAt);
  return announce(ctx, companyId, id, 'update');
}

/** `DELETE /schedules/:id` (an occurrence in flight still completes: its message is already stored). */
export async function deleteSchedule(ctx: PluginContext, companyId: number, id: number): Promise<void> {
  const current = await Schedule.query().findById(id);
  if (!current) throw new AppError('ERR_NO_SCHEDULE_FOUND');
  await Schedule.query().deleteById(id);
  if (current.mediaPath) await dropMedia(ctx, companyId, current.mediaPath, false);
  emitSchedule(ctx, companyId, { action: 'delete', scheduleId: id });
}

/** Whether an occurrence is being sent: its claimer may have read the file's key and stage it still. */
function inFlight(schedule: Schedule): boolean {
  return schedule.messageId !== null || (schedule.leaseUntil !== null && new Date(schedule.leaseUntil).getTime() > Date.now());
}

/**
 * Deletes a schedule's replaced or removed file unless a sent occurrence's message still shows it (each
 * message stores the schedule's key as its media) or an occurrence in flight may still store it; such a
 * file stays in the company's storage with the messages.
 */
async function dropMedia(ctx: PluginContext, companyId: number, key: string, sending: boolean): Promise<void> {
  if (sending) return;
  const shown = await ctx.db.knex('messages').where({ companyId, mediaPath: key }).first('id');
  if (!shown) await ctx.storage.delete(companyId, key);
}

/** Content types a schedule may attach: images, audio, video, PDF and office documents. */
function allowedAttachment(mime: string): boolean {
  if (/^(image|audio|video)\//.test(mime)) return mime !== 'image/svg+xml';
  return (
    mime === 'application/pdf' ||
    mime.startsWith('application/vnd.openxmlformats-officedocument.') ||
    mime === 'application/msword' ||
    mime === 'application/vnd.ms-excel'
  );
}

/** Reads an uploaded file into memory (the limit is the multipart parser's). */
export async function readAttachment(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `POST /schedules/:id/media-upload`: the attachment (its type decided by content), replacing any other. */
export async function attachMedia(
  ctx: PluginContext,
  companyId: number,
  id: number,
  file: { fileName: string; data: Buffer },
): Promise<ScheduleJson> {
  const current = await Schedule.query().findById(id);
  if (!current) throw new AppError('ERR_NO_SCHEDULE_FOUND');
  const type = await fileTypeFromBuffer(file.data);
  if (!type || !allowedAttachment(type.mime)) throw new AppError('ERR_SCHEDULE_MEDIA_TYPE');
  const safe = file.fileName
    .replace(/[^\p{L}\p{N}._ -]+/gu, '_')
    .trim()
    .slice(-120);
  const name = safe || `file.${type.ext}`;
  const key = `schedules/${id}/${Date.now().toString(36)}-${name.replace(/\s+/g, '_')}`;
  await ctx.storage.put(companyId, key, file.data, { maxBytes: SCHEDULE_MEDIA_MAX_BYTES });
  await Schedule.query().findById(id).patch({ mediaPath: key, mediaName: name, mediaMimetype: type.mime, updatedAt: new Date() });
  if (current.mediaPath && current.mediaPath !== key) await dropMedia(ctx, companyId, current.mediaPath, inFlight(current));
  return announce(ctx, companyId, id, 'update');
}

/** `DELETE /schedules/:id/media-upload`. */
export async function detachMedia(ctx: PluginContext, companyId: number, id: number): Promise<ScheduleJson> {
  const current = await Schedule.query().findById(id);
  if (!current) throw new AppError('ERR_NO_SCHEDULE_FOUND');
  await Schedule.query().findById(id).patch({ mediaPath: null, mediaName: null, mediaMimetype: null, updatedAt: new Date() });
  if (current.mediaPath) await dropMedia(ctx, companyId, current.mediaPath, inFlight(current));
  return announce(ctx, companyId, id, 'update');
}
