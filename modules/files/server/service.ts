import {
  AppError,
  companyEvent,
  currentTenant,
  type FileListContent,
  type PluginContext,
  ROOMS,
  runInTenant,
} from '@balcao/plugin-sdk/server';
import { fileTypeFromBuffer } from 'file-type';
import { FileList, FileOption } from './models';

/** Lists a page of the list at a time (`GET /files`). */
export const FILE_LISTS_PAGE_SIZE = 20;
/** The largest file an option may hold (the largest media a channel takes: a video of 20 MB). */
export const FILE_OPTION_MAX_BYTES = 20 * 1024 * 1024;

export interface FileOptionJson {
  id: number;
  name: string;
  path: string | null;
  mediaType: string | null;
  fileName: string | null;
  /** A signed address of the uploaded file for the dialog's preview (null before an upload). */
  url: string | null;
}

export interface FileListJson {
  id: number;
  name: string;
  message: string;
  options: FileOptionJson[];
  createdAt: string;
  updatedAt: string;
}

export interface FileListInput {
  name: string;
  message: string;
  options?: Array<{ id?: number | null; name: string }>;
  userId?: number | null;
}

async function load(ctx: PluginContext, companyId: number, id: number): Promise<FileListJson> {
  const list = await FileList.query().findById(id);
  if (!list) throw new AppError('ERR_NO_FILE_LIST_FOUND');
  const options = await FileOption.query().where({ fileId: id }).orderBy(['orderOption', 'id']);
  return {
    id: list.id,
    name: list.name,
    message: list.message,
    options: options.map((option) => ({
      id: option.id,
      name: option.name,
      path: option.path,
      mediaType: option.mediaType,
      fileName: option.originalName,
      url: option.path ? ctx.storage.signedUrl(companyId, option.path, { fileName: option.originalName ?? undefined }) : null,
    })),
    createdAt: new Date(list.createdAt).toISOString(),
    updatedAt: new Date(list.updatedAt).toISOString(),
  };
}

/**
 * Tells the company's admins (profile users have no access to file lists) on `company-{id}-file`:
 * `{ action: 'create' | 'update', files }` or `{ action: 'delete', fileId }`.
 */
async function announce(ctx: PluginContext, companyId: number, payload: unknown): Promise<void> {
  const ids = (await ctx.db
    .knex('users')
    .where({ companyId })
    .where((query) => query.where('profile', 'admin').orWhere('super', true))
    .pluck('id')) as number[];
  if (ids.length === 0) return;
  ctx.realtime.emit(companyId, companyEvent(companyId, 'file'), payload, { rooms: ids.map((id) => ROOMS.user(id)) });
}

function validate(input: FileListInput): void {
  if (input.name.trim().length < 3) throw new AppError('ERR_FILE_LIST_NAME_SHORT');
  if (input.message.trim() === '') throw new AppError('ERR_FILE_LIST_MESSAGE_REQUIRED');
}

export async function listFileLists(
  ctx: PluginContext,
  companyId: number,
  query: { searchParam?: string; pageNumber?: number },
): Promise<{ files: FileListJson[]; hasMore: boolean }> {
  const page = Math.max(1, query.pageNumber ?? 1);
  const search = (query.searchParam ?? '').trim();
  const rows = await FileList.query()
    .modify((builder) => {
      if (search !== '') builder.whereILike('name', `%${search.replace(/[\\%_]/g, '\\$&')}%`);
    })
    .orderBy([{ column: 'name' }, { column: 'id' }])
    .limit(FILE_LISTS_PAGE_SIZE + 1)
    .offset((page - 1) * FILE_LISTS_PAGE_SIZE)
    .select('id');
  const files = await Promise.all(rows.slice(0, FILE_LISTS_PAGE_SIZE).map((row) => load(ctx, companyId, row.id)));
  return { files, hasMore: rows.length > FILE_LISTS_PAGE_SIZE };
}

export const showFileList = (ctx: PluginContext, companyId: number, id: number) => load(ctx, companyId, id);

export async function createFileList(ctx: PluginContext, companyId: number, input: FileListInput): Promise<FileListJson> {
  validate(input);
  const id = await ctx.db.transaction(async (trx) => {
    const list = await FileList.query(trx).insert({ name: input.name.trim(), message: input.message });
    for (const [index, option] of (input.options ?? []).entries()) {
      await FileOption.query(trx).insert({ fileId: list.id, name: option.name.trim(), orderOption: index });
    }
    return list.id;
  });
  const files = await load(ctx, companyId, id);
  await announce(ctx, companyId, { action: 'create', files });
  return files;
}

/**
 * `PUT /files/:id`: the name, the message and the options in the order given — an option with an id keeps
 * its file, one without is new, and one left out is removed with its stored file.
 */
export async function updateFileList(
  ctx: PluginContext,
  companyId: number,
  id: number,
  input: FileListInput,
): Promise<FileListJson> {
  validate(input);
  const removedPaths = await ctx.db.transaction(async (trx) => {
    const list = await FileList.query(trx).findById(id).forUpdate();
    if (!list) throw new AppError('ERR_NO_FILE_LIST_FOUND');
    const current = await FileOption.query(trx).where({ fileId: id });
    const known = new Map(current.map((option) => [option.id, option]));
    await FileList.query(trx).findById(id).patch({ name: input.name.trim(), message: input.message, updatedAt: new Date() });
    // a body without `options` changes the name and message only: leaving the list out never deletes its files
    if (input.options === undefined) return [];
    const kept = new Set<number>();
    for (const option of input.options) {
      if (option.id == null) continue;
      if (!known.has(option.id)) throw new AppError('ERR_NO_FILE_OPTION_FOUND');
      kept.add(option.id);
    }
    for (const [index, option] of input.options.entries()) {
      if (option.id == null) {
        await FileOption.query(trx).insert({ fileId: id, name: option.name.trim(), orderOption: index });
      } else {
        await FileOption.query(trx).findById(option.id).patch({ name: option.name.trim(), orderOption: index });
      }
    }
    const removed = current.filter((option) => !kept.has(option.id));
    if (removed.length > 0)
      await FileOption.query(trx)
        .whereIn(
          'id',
          removed.map((option) => option.id),
        )
        .delete();
    return removed.map((option) => option.path).filter((path): path is string => path !== null);
  });
  for (const path of removedPaths) await ctx.storage.delete(companyId, path);
  const files = await load(ctx, companyId, id);
  await announce(ctx, companyId, { action: 'update', files });
  return files;
}

export async function deleteFileList(ctx: PluginContext, companyId: number, id: number): Promise<void> {
  const paths = await ctx.db.transaction(async (trx) => {
    const list = await FileList.query(trx).findById(id).forUpdate();
    if (!list) throw new AppError('ERR_NO_FILE_LIST_FOUND');
    const options = await FileOption.query(trx).where({ fileId: id });
    await FileList.query(trx).findById(id).delete();
    return options.map((option) => option.path).filter((path): path is string => path !== null);
  });
  for (const path of paths) await ctx.storage.delete(companyId, path);
  await announce(ctx, companyId, { action: 'delete', fileId: id });
}

/**
 * Content types an option may hold: images (not SVG), audio, video, PDF and Office Open XML documents
 * (.docx, .xlsx, .pptx). The older binary Office formats read as a generic compound file, the same as an
 * installer package, so they are refused.
 */
function allowedType(mime: string): boolean {
  if (/^(image|audio|video)\//.test(mime)) return mime !== 'image/svg+xml';
  return mime === 'application/pdf' || mime.startsWith('application/vnd.openxmlformats-officedocument.');
}

/** The inbox's media type of a content type. */
function mediaTypeOf(mime: string): string {
  const kind = mime.split('/')[0] as string;
  return kind === 'image' || kind === 'audio' || kind === 'video' ? kind : 'application';
}

/**
 * `POST /files/uploadList/:id`: the file of option `optionId` of list `id`, its type decided by its
 * content (not its name), replacing the option's previous file.
 */
export async function uploadOptionFile(
  ctx: PluginContext,
  companyId: number,
  id: number,
  optionId: number,
  file: { fileName: string; data: Buffer },
): Promise<FileListJson> {
  const list = await FileList.query().findById(id);
  if (!list) throw new AppError('ERR_NO_FILE_LIST_FOUND');
  const option = await FileOption.query().findOne({ id: optionId, fileId: id });
  if (!option) throw new AppError('ERR_NO_FILE_OPTION_FOUND');
  const type = await fileTypeFromBuffer(file.data);
  if (!type || !allowedType(type.mime)) throw new AppError('ERR_FILE_LIST_MEDIA_TYPE');
  const safe = file.fileName
    .replace(/[^\p{L}\p{N}._ -]+/gu, '_')
    .trim()
    .slice(-120);
  const name = safe || `file.${type.ext}`;
  // the stored key ends in the content's extension, so the file is served as what it is, not as its name says
  const stem = name.replace(/\.[^.]*$/, '').replace(/\s+/g, '_') || 'file';
  const key = `files/${id}/${optionId}-${Date.now().toString(36)}-${stem}.${type.ext}`;
  await ctx.storage.put(companyId, key, file.data, { maxBytes: FILE_OPTION_MAX_BYTES });
  const patched = await FileOption.query()
    .where({ id: optionId, fileId: id })
    .patch({ path: key, originalName: name, mimetype: type.mime, mediaType: mediaTypeOf(type.mime) });
  if (patched === 0) {
    // a PUT removed the option meanwhile: nothing points at the stored file
    await ctx.storage.delete(companyId, key);
    throw new AppError('ERR_NO_FILE_OPTION_FOUND');
  }
  if (option.path && option.path !== key) await ctx.storage.delete(companyId, option.path);
  const files = await load(ctx, companyId, id);
  await announce(ctx, companyId, { action: 'update', files });
  return files;
}

/** The `fileLists` service's read: the list's message and its uploaded files, in order. */
export function fileListContent(companyId: number, id: number): Promise<FileListContent | null> {
  if (currentTenant()?.companyId === companyId) return readContent(id);
  return runInTenant({ companyId }, () => readContent(id));
}

async function readContent(id: number): Promise<FileListContent | null> {
  const list = await FileList.query().findById(id);
  if (!list) return null;
  const options = await FileOption.query().where({ fileId: id }).orderBy(['orderOption', 'id']);
  return {
    id: list.id,
    name: list.name,
    message: list.message,
    entries: options.map((option) => ({
      name: option.name,
      media: option.path
        ? {
            storageKey: option.path,
            fileName: option.originalName ?? 'file',
            mimetype: option.mimetype,
            mediaType: option.mediaType ?? 'application',
          }
        : null,
    })),
  };
}

/** Reads a multipart file whole under the option's limit (413 past it). */
export async function readOptionFile(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > FILE_OPTION_MAX_BYTES) {
      (stream as NodeJS.ReadableStream & { resume(): void }).resume();
      throw new AppError('ERR_PAYLOAD_TOO_LARGE');
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
