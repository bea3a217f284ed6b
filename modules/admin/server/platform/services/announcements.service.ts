import { AppError, type PluginContext, type Static } from '@balcao/plugin-sdk/server';
import { type AnnouncementBody, type AnnouncementSchema, PLATFORM_COMPANY_ID } from '../schemas';
import type { StoredImage } from './images';

type Announcement = Static<typeof AnnouncementSchema>;

/** Announcements per page of `GET /announcements/`. */
export const ANNOUNCEMENTS_PAGE_SIZE = 20;
/** The realtime event every company's sockets receive (docs/product/tickets-and-inbox.md#calls-and-realtime-events, docs/product/automation.md#states-and-transitions). */
export const ANNOUNCEMENT_EVENT = 'company-announcement';
/** docs/product/automation.md#validation: the image attachment accepts png, jpg, jpeg. */
export const ANNOUNCEMENT_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg']);
export const ANNOUNCEMENT_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** What the realtime event carries (the documented client patches its lists with it). */
export type AnnouncementEvent = { action: 'create' | 'update'; record: Announcement } | { action: 'delete'; id: number };

/**
 * A row as the API shows it. Announcement images live in the platform company's folder; every company's
 * users read them, so each gets a signed address (an `<img>` can't send the bearer token).
 */
function present(ctx: PluginContext, row: Record<string, unknown>): Announcement {
  const mediaPath = (row.mediaPath as string | null) ?? null;
  const mediaName = (row.mediaName as string | null) ?? null;
  return {
    id: row.id as number,
    title: row.title as string,
    text: row.text as string,
    priority: row.priority as number,
    status: row.status as boolean,
    mediaPath,
    mediaName,
    mediaUrl: mediaPath ? ctx.storage.signedUrl(PLATFORM_COMPANY_ID, mediaPath, { fileName: mediaName ?? undefined }) : null,
    createdAt: (row.createdAt as Date).toISOString(),
    updatedAt: (row.updatedAt as Date).toISOString(),
  };
}

function broadcast(ctx: PluginContext, event: AnnouncementEvent): void {
  ctx.realtime.emitAll(ANNOUNCEMENT_EVENT, event);
}

/**
 * A page of announcements (`GET /announcements/`): the super user sees every one; everyone else only the
 * active ones. Most urgent first, then newest.
 */
export async function pageAnnouncements(
  ctx: PluginContext,
  { searchParam = '', pageNumber = 1 }: { searchParam?: string; pageNumber?: number },
  onlyActive: boolean,
): Promise<{ records: Announcement[]; count: number; hasMore: boolean }> {
  const search = searchParam.trim().toLowerCase();
  const query = ctx.db.knex('announcements').modify((builder) => {
    if (onlyActive) builder.where({ status: true });
    if (!search) return;
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    builder.where((where) => where.whereRaw('lower(title) like ?', [like]).orWhereRaw('lower(text) like ?', [like]));
  });
  const [{ count }] = await query.clone().count({ count: 'id' });
  const rows = await query
    .orderBy('priority')
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(ANNOUNCEMENTS_PAGE_SIZE)
    .offset((pageNumber - 1) * ANNOUNCEMENTS_PAGE_SIZE);
  return {
    records: rows.map((row: Record<string, unknown>) => present(ctx, row)),
    count: Number(count),
    hasMore: pageNumber * ANNOUNCEMENTS_PAGE_SIZE < Number(count),
  };
}

/** The active announcements, most urgent first (`GET /announcements/list`: the top bar's popover). */
export async function activeAnnouncements(ctx: PluginContext): Promise<Announcement[]> {
  const rows = await ctx.db
    .knex('announcements')
    .where({ status: true })
    .orderBy('priority')
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(100);
  return rows.map((row) => present(ctx, row));
}

/** One announcement; others than the super user may read only an active one. */
export async function getAnnouncement(ctx: PluginContext, id: number, onlyActive = false): Promise<Announcement> {
  const row = await ctx.db
    .knex('announcements')
    .where({ id })
    .modify((builder) => {
      if (onlyActive) builder.where({ status: true });
    })
    .first();
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  return present(ctx, row);
}

/** docs/product/automation.md#states-and-transitions: a new announcement is active with priority 3 unless told otherwise. */
const fields = (body: Static<typeof AnnouncementBody>) => ({
  title: body.title.trim(),
  text: body.text.trim(),
  priority: body.priority ?? 3,
  status: body.status ?? true,
});

export async function createAnnouncement(ctx: PluginContext, body: Static<typeof AnnouncementBody>): Promise<Announcement> {
  const [row] = await ctx.db.knex('announcements').insert(fields(body)).returning('*');
  const record = present(ctx, row);
  broadcast(ctx, { action: 'create', record });
  return record;
}

async function update(ctx: PluginContext, id: number, changes: Record<string, unknown>): Promise<Announcement> {
  const [row] = await ctx.db
    .knex('announcements')
    .where({ id })
    .update({ ...changes, updatedAt: ctx.db.knex.fn.now() })
    .returning('*');
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  const record = present(ctx, row);
  broadcast(ctx, { action: 'update', record });
  return record;
}

export function updateAnnouncement(ctx: PluginContext, id: number, body: Static<typeof AnnouncementBody>) {
  return update(ctx, id, fields(body));
}

export async function deleteAnnouncement(ctx: PluginContext, id: number): Promise<void> {
  const current = await getAnnouncement(ctx, id);
  await ctx.db.knex('announcements').where({ id }).delete();
  if (current.mediaPath) await ctx.storage.delete(PLATFORM_COMPANY_ID, current.mediaPath).catch(() => {});
  broadcast(ctx, { action: 'delete', id });
}

/** Sets an announcement's image (replacing, and removing, the previous one). */
export async function attachImage(ctx: PluginContext, id: number, image: StoredImage): Promise<Announcement> {
  const current = await getAnnouncement(ctx, id).catch(async (error: unknown) => {
    await ctx.storage.delete(PLATFORM_COMPANY_ID, image.key).catch(() => {});
    throw error;
  });
  const saved = await update(ctx, id, { mediaPath: image.key, mediaName: image.name });
  if (current.mediaPath) await ctx.storage.delete(PLATFORM_COMPANY_ID, current.mediaPath).catch(() => {});
  return saved;
}

/** Removes an announcement's image. */
export async function detachImage(ctx: PluginContext, id: number): Promise<Announcement> {
  const current = await getAnnouncement(ctx, id);
  const saved = await update(ctx, id, { mediaPath: null, mediaName: null });
  if (current.mediaPath) await ctx.storage.delete(PLATFORM_COMPANY_ID, current.mediaPath).catch(() => {});
  return saved;
}
