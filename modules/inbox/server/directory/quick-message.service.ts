import type { Readable } from 'node:stream';
import { AppError, companyEvent, type PluginContext, ROOMS } from '@balcao/plugin-sdk/server';
import { LIST_PAGE_SIZE, type QuickMessageEvent, type QuickMessage as QuickMessageJson } from '../../shared/types';
import { displayName } from '../messages/media-upload';
import { QuickMessage } from '../models/quick-message';
import type { Caller } from './caller';
import { escapeLike, invalid } from './contact.service';

/**
 * Quick replies (docs/product/automation.md#entities Quick message, #quick-message-visibility, #calls-and-realtime-events Quick replies):
 * - a user sees their own messages and the general (`geral`) ones; an admin sees every one;
 * - a message with `visao` on that is not general is edited only by its owner (403 ERR_NO_PERMISSION);
 * - `geral` needs `visao` (400 ERR_VALIDATION); deleting and attachments: owner or admin.
 */

/** Largest attachment of a quick reply. */
export const QUICK_MESSAGE_MAX_BYTES = 64 * 1024 * 1024;
/** Most replies `GET /quick-messages/list` answers to the composer. */
const COMPOSER_LIMIT = 100;

const isAdmin = (caller: Caller) => caller.user.profile === 'admin';

/** Whether the caller may see (read, list, receive events of) a message. */
export function canSee(caller: Caller, message: Pick<QuickMessage, 'userId' | 'geral'>): boolean {
  return isAdmin(caller) || message.geral || message.userId === caller.user.id;
}

/** Whether the caller may edit a message they see: visao on and not general → its owner only. */
export function canEdit(caller: Caller, message: Pick<QuickMessage, 'userId' | 'geral' | 'visao'>): boolean {
  if (message.visao && !message.geral) return message.userId === caller.user.id;
  return canSee(caller, message);
}

/** Owner or admin: delete and attachments. */
function canManage(caller: Caller, message: Pick<QuickMessage, 'userId'>): boolean {
  return isAdmin(caller) || message.userId === caller.user.id;
}

/** The API shape, with a signed address of the attachment. */
export function toJson(ctx: PluginContext, companyId: number, row: QuickMessage): QuickMessageJson {
  return {
    id: row.id,
    shortcode: row.shortcode,
    message: row.message,
    geral: row.geral,
    visao: row.visao,
    status: row.status,
    userId: row.userId,
    isMedia: row.isMedia,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    mediaUrl: row.mediaPath ? ctx.storage.signedUrl(companyId, row.mediaPath, { fileName: row.mediaName ?? undefined }) : null,
  };
}

/** Narrows a query to what the caller sees (admins: everything). */
function visibleTo(caller: Caller, everythingForAdmins = true) {
  const query = QuickMessage.query();
  if (!(everythingForAdmins && isAdmin(caller))) {
    query.where((mine) => mine.where('userId', caller.user.id).orWhere('geral', true));
  }
  return query;
}

/** A page (40) of the messages the caller sees, by shortcode, matching shortcode or text. */
export async function listQuickMessages(
  ctx: PluginContext,
  caller: Caller,
  query: { searchParam?: string; pageNumber?: number },
): Promise<{ records: QuickMessageJson[]; hasMore: boolean }> {
  const page = query.pageNumber ?? 1;
  const rows = visibleTo(caller)
    .orderBy([{ column: 'shortcode' }, { column: 'id' }])
    .limit(LIST_PAGE_SIZE + 1)
    .offset((page - 1) * LIST_PAGE_SIZE);
  const search = (query.searchParam ?? '').trim();
  if (search) {
    const pattern = `%${escapeLike(search)}%`;
    rows.where((match) => match.whereILike('shortcode', pattern).orWhereILike('message', pattern));
  }
  const found = await rows;
  return {
    records: found.slice(0, LIST_PAGE_SIZE).map((row) => toJson(ctx, caller.companyId, row)),
    hasMore: found.length > LIST_PAGE_SIZE,
  };
}

/** The active replies the caller may use in the composer ('/'): own and general, shortcode prefix. */
export async function composerQuickMessages(ctx: PluginContext, caller: Caller, searchParam?: string) {
  const rows = visibleTo(caller, false)
    .where('status', true)
    .orderBy([{ column: 'shortcode' }, { column: 'id' }])
    .limit(COMPOSER_LIMIT);
  const prefix = (searchParam ?? '').trim().replace(/^\//, '');
  if (prefix) rows.whereILike('shortcode', `${escapeLike(prefix)}%`);
  return (await rows).map((row) => toJson(ctx, caller.companyId, row));
}

/** A message the caller sees, or 404 ERR_NO_QUICK_MESSAGE_FOUND. */
async function requireVisible(caller: Caller, id: number): Promise<QuickMessage> {
  const row = await QuickMessage.query().findById(id);
  if (!row || !canSee(caller, row)) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND');
  return row;
}

export async function getQuickMessage(ctx: PluginContext, caller: Caller, id: number): Promise<QuickMessageJson> {
  return toJson(ctx, caller.companyId, await requireVisible(caller, id));
}

/**
 * `company-{id}-quickemessage` to the users who may see the message: the whole company for a general
 * one; the owner and the admins for the others. `wasGeneral`: it stopped being general, so the other
 * users drop it.
 */
async function emitQuickMessage(
  ctx: PluginContext,
  companyId: number,
  row: Pick<QuickMessage, 'id' | 'userId' | 'geral'>,
  payload: QuickMessageEvent,
  wasGeneral = false,
): Promise<void> {
  const event = companyEvent(companyId, 'quickemessage');
  if (wasGeneral && !row.geral) ctx.realtime.emit(companyId, event, { action: 'delete', id: row.id } satisfies QuickMessageEvent);
  if (row.geral) {
    ctx.realtime.emit(companyId, event, payload);
    return;
  }
  const admins = (await ctx.db.knex('users').where({ companyId, profile: 'admin' }).select('id')) as Array<{ id: number }>;
  const rooms = new Set(admins.map((admin) => ROOMS.user(admin.id)));
  if (row.userId !== null) rooms.add(ROOMS.user(row.userId));
  ctx.realtime.emit(companyId, event, payload, { rooms: [...rooms] });
}

export interface QuickMessageInput {
  shortcode: string;
  message: string;
  geral?: boolean;
  visao?: boolean;
  status?: boolean;
}

function columnsOf(input: QuickMessageInput, current?: QuickMessage) {
  const shortcode = input.shortcode.trim();
  if (shortcode === '') throw invalid('shortcode', 'is required');
  const visao = input.visao ?? current?.visao ?? true;
  const geral = input.geral ?? current?.geral ?? false;
  if (geral && !visao) throw invalid('geral', 'a general message needs visibility (visao) on');
  return { shortcode, message: input.message, visao, geral, status: input.status ?? current?.status ?? true };
}

/** Creates a reply owned by the caller. */
export async function createQuickMessage(ctx: PluginContext, caller: Caller, input: QuickMessageInput) {
  const row = await QuickMessage.query().insertAndFetch({ ...columnsOf(input), userId: caller.user.id });
  const json = toJson(ctx, caller.companyId, row);
  await emitQuickMessage(ctx, caller.companyId, row, { action: 'create', record: json });
  return json;
}

/** Updates a reply under the visibility rule. */
export async function updateQuickMessage(ctx: PluginContext, caller: Caller, id: number, input: QuickMessageInput) {
  const current = await requireVisible(caller, id);
  if (!canEdit(caller, current)) throw new AppError('ERR_NO_PERMISSION');
  const row = await QuickMessage.query().patchAndFetchById(id, { ...columnsOf(input, current), updatedAt: new Date() });
  const json = toJson(ctx, caller.companyId, row);
  await emitQuickMessage(ctx, caller.companyId, row, { action: 'update', record: json }, current.geral);
  return json;
}

/** Deletes a reply and its attachment: owner or admin. */
export async function deleteQuickMessage(ctx: PluginContext, caller: Caller, id: number): Promise<void> {
  const current = await requireVisible(caller, id);
  if (!canManage(caller, current)) throw new AppError('ERR_NO_PERMISSION');
  await QuickMessage.query().deleteById(id);
  if (current.mediaPath) await ctx.storage.delete(caller.companyId, current.mediaPath);
  await emitQuickMessage(ctx, caller.companyId, current, { action: 'delete', id });
}

/** A file name made safe as a storage key part (the original name is kept as `mediaName`). */
export function storageName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const safe = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .slice(-120)
    .replace(/^[^A-Za-z0-9]+/, '');
  return safe === '' ? 'file' : safe;
}

/** Checks that the caller may change the reply's attachment; returns the reply. */
export async function requireManageable(caller: Caller, id: number): Promise<QuickMessage> {
  const current = await requireVisible(caller, id);
  if (!canManage(caller, current)) throw new AppError('ERR_NO_PERMISSION');
  return current;
}

/** Stores an attachment under `quick-messages/<id>/<name>` (≤ 64 MB), replacing the previous one. */
export async function attachMedia(
  ctx: PluginContext,
  caller: Caller,
  current: QuickMessage,
  file: { fileName: string; stream: Readable },
): Promise<QuickMessageJson> {
  // the name is cleaned and shortened before anything is stored: a name the row can't hold must not
  // leave the bytes behind (nor cost the previous attachment)
  const mediaName = displayName(file.fileName);
  const key = `quick-messages/${current.id}/${storageName(mediaName)}`;
  await ctx.storage.put(caller.companyId, key, file.stream, { maxBytes: QUICK_MESSAGE_MAX_BYTES });
  let row: QuickMessage;
  try {
    row = await QuickMessage.query().patchAndFetchById(current.id, {
      isMedia: true,
      mediaPath: key,
      mediaName,
      updatedAt: new Date(),
    });
  } catch (error) {
    if (key !== current.mediaPath) await ctx.storage.delete(caller.companyId, key).catch(() => {});
    throw error;
  }
  if (current.mediaPath && current.mediaPath !== key) await ctx.storage.delete(caller.companyId, current.mediaPath);
  const json = toJson(ctx, caller.companyId, row);
  await emitQuickMessage(ctx, caller.companyId, row, { action: 'update', record: json });
  return json;
}

/** Removes a reply's attachment. */
export async function detachMedia(ctx: PluginContext, caller: Caller, id: number): Promise<QuickMessageJson> {
  const current = await requireManageable(caller, id);
  if (current.mediaPath) await ctx.storage.delete(caller.companyId, current.mediaPath);
  const row = await QuickMessage.query().patchAndFetchById(id, {
    isMedia: false,
    mediaPath: null,
    mediaName: null,
    updatedAt: new Date(),
  });
  const json = toJson(ctx, caller.companyId, row);
  await emitQuickMessage(ctx, caller.companyId, row, { action: 'update', record: json });
  return json;
}
