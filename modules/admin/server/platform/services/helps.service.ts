import { AppError, type PluginContext, type Static } from '@balcao/plugin-sdk/server';
import type { HelpBody, HelpSchema } from '../schemas';

type Help = Static<typeof HelpSchema>;

/** Help entries per page of `GET /helps`. */
export const HELPS_PAGE_SIZE = 20;

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

/**
 * The video identifier of what the super user typed: a YouTube address in any of its forms (watch,
 * youtu.be, embed, shorts) becomes its id; anything else is kept as written.
 */
export function videoId(input: string): string {
  const text = input.trim();
  if (YOUTUBE_ID.test(text)) return text;
  try {
    const url = new URL(text);
    const host = url.hostname.replace(/^www\.|^m\./, '');
    const candidate =
      host === 'youtu.be'
        ? url.pathname.slice(1)
        : host.endsWith('youtube.com') || host.endsWith('youtube-nocookie.com')
          ? (url.searchParams.get('v') ?? /^\/(?:embed|shorts|v|live)\/([^/?#]+)/.exec(url.pathname)?.[1] ?? '')
          : '';
    return YOUTUBE_ID.test(candidate) ? candidate : text;
  } catch {
    return text;
  }
}

const present = (row: Record<string, unknown>): Help => ({
  id: row.id as number,
  title: row.title as string,
  description: row.description as string,
  video: row.video as string,
  createdAt: (row.createdAt as Date).toISOString(),
  updatedAt: (row.updatedAt as Date).toISOString(),
});

/** Every help entry, newest last (`GET /helps/list`: the gallery and the menu's visibility). */
export async function listHelps(ctx: PluginContext): Promise<Help[]> {
  const rows = await ctx.db.knex('helps').orderBy('id');
  return rows.map(present);
}

/** A page of help entries matching a search by title or description (`GET /helps`). */
export async function pageHelps(
  ctx: PluginContext,
  { searchParam = '', pageNumber = 1 }: { searchParam?: string; pageNumber?: number },
): Promise<{ records: Help[]; count: number; hasMore: boolean }> {
  const search = searchParam.trim().toLowerCase();
  const query = ctx.db.knex('helps').modify((builder) => {
    if (!search) return;
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    builder.where((where) => where.whereRaw('lower(title) like ?', [like]).orWhereRaw('lower(description) like ?', [like]));
  });
  const [{ count }] = await query.clone().count({ count: 'id' });
  const rows = await query
    .orderBy('title')
    .orderBy('id')
    .limit(HELPS_PAGE_SIZE)
    .offset((pageNumber - 1) * HELPS_PAGE_SIZE);
  return { records: rows.map(present), count: Number(count), hasMore: pageNumber * HELPS_PAGE_SIZE < Number(count) };
}

export async function getHelp(ctx: PluginContext, helpId: number): Promise<Help> {
  const row = await ctx.db.knex('helps').where({ id: helpId }).first();
  if (!row) throw new AppError('ERR_NO_HELP_FOUND');
  return present(row);
}

const fields = (body: Static<typeof HelpBody>) => ({
  title: body.title.trim(),
  description: body.description?.trim() ?? '',
  video: videoId(body.video ?? ''),
});

export async function createHelp(ctx: PluginContext, body: Static<typeof HelpBody>): Promise<Help> {
  const [row] = await ctx.db.knex('helps').insert(fields(body)).returning('*');
  return present(row);
}

export async function updateHelp(ctx: PluginContext, helpId: number, body: Static<typeof HelpBody>): Promise<Help> {
  const [row] = await ctx.db
    .knex('helps')
    .where({ id: helpId })
    .update({ ...fields(body), updatedAt: ctx.db.knex.fn.now() })
    .returning('*');
  if (!row) throw new AppError('ERR_NO_HELP_FOUND');
  return present(row);
}

export async function deleteHelp(ctx: PluginContext, helpId: number): Promise<void> {
  const deleted = await ctx.db.knex('helps').where({ id: helpId }).delete();
  if (!deleted) throw new AppError('ERR_NO_HELP_FOUND');
}
