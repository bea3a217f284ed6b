import { randomBytes } from 'node:crypto';
import { type Readable, Transform } from 'node:stream';
import { AppError, isAppError, type PluginContext, type Static } from '@balcao/plugin-sdk/server';
import { parse as parseCsv } from '@fast-csv/parse';
import ExcelJS from 'exceljs';
import { MAX_NUMBER_DIGITS, normaliseNumber } from '../../shared/campaigns';
import { ContactList, ContactListImport } from '../models/contact-list';
import { announceList, requestNumberCheck } from './contact-lists.service';
import { emitToManagers } from './live';
import type { ImportSchema } from './schemas';
import { campaignSettings } from './settings.service';

export type ImportJson = Static<typeof ImportSchema>;
export type ImportFormat = 'xlsx' | 'xls' | 'csv';

/** An uploaded sheet's size limit (a 100,000-row .xlsx is about 3 MB). */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** An .xls is read whole (its format has no streaming reader): a smaller limit bounds the memory it takes. */
export const XLS_MAX_BYTES = 10 * 1024 * 1024;
/** Rows one import may hold. */
export const IMPORT_MAX_ROWS = 200_000;
/** A cell longer than this makes the file refused (a name, a number, an e-mail are far shorter). */
export const MAX_CELL_CHARS = 1_000;
/** Refused rows kept with their reason (the count covers all of them). */
const REFUSED_KEPT = 1_000;
/** Valid rows written to the staging table per statement. */
const STAGE_CHUNK = 1_000;
/** How often a running import reports its progress. */
const PROGRESS_EVERY_MS = 500;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export function importJson(row: ContactListImport): ImportJson {
  return {
    id: row.id,
    contactListId: row.contactListId,
    fileName: row.fileName,
    status: row.status,
    progress: row.progress,
    rows: row.rows,
    added: row.added,
    updated: row.updated,
    refused: row.refused,
    refusedRows: row.refusedRows ?? [],
    error: row.error,
    createdAt: iso(row.createdAt) as string,
    finishedAt: iso(row.finishedAt),
  };
}

/** The format of an upload by its extension (.xlsx, .xls, .csv), or 415 ERR_IMPORT_FILE_TYPE. */
export function formatOf(fileName: string): ImportFormat {
  const ext = /\.([A-Za-z]+)$/.exec(fileName)?.[1]?.toLowerCase();
  if (ext === 'xlsx' || ext === 'xls' || ext === 'csv') return ext;
  throw new AppError('ERR_IMPORT_FILE_TYPE');
}

/** Whether the first bytes are what the format starts with (a zip, a compound file, text). */
function signatureMatches(format: ImportFormat, head: Buffer): boolean {
  if (format === 'xlsx') return head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  if (format === 'xls') return head.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
  return head.length > 0 && !head.includes(0);
}

async function headOf(stream: Readable | null, size: number): Promise<Buffer> {
  if (!stream) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    chunks.push(buffer);
    length += buffer.length;
    if (length >= size) break;
  }
  stream.destroy();
  return Buffer.concat(chunks).subarray(0, size);
}

/** The latest import of a list (its progress or its outcome), or null. */
export async function latestImport(contactListId: number): Promise<ImportJson | null> {
  const list = await ContactList.query().findById(contactListId).select('id');
  if (!list) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  const row = await ContactListImport.query().where({ contactListId }).orderBy('id', 'desc').first();
  return row ? importJson(row) : null;
}

async function announceImport(ctx: PluginContext, companyId: number, row: ContactListImport): Promise<void> {
  await emitToManagers(ctx, companyId, 'ContactList', { action: 'import', import: importJson(row) });
}

/**
 * `POST /contact-lists/:id/upload`: stores the sheet, checks that it is what its extension says, and queues
 * its import (`import-list`). One import at a time per list (409 ERR_IMPORT_RUNNING).
 */
export async function startImport(
  ctx: PluginContext,
  companyId: number,
  contactListId: number,
  file: { fileName: string; stream: Readable; truncated: () => boolean },
): Promise<ImportJson> {
  const list = await ContactList.query().findById(contactListId).select('id');
  if (!list) {
    file.stream.resume();
    throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  }
  let format: ImportFormat;
  try {
    format = formatOf(file.fileName);
  } catch (error) {
    file.stream.resume();
    throw error;
  }
  const running = await ContactListImport.query().where({ contactListId }).whereIn('status', ['queued', 'running']).first();
  if (running) {
    file.stream.resume();
    throw new AppError('ERR_IMPORT_RUNNING');
  }
  const key = `imports/${contactListId}/${randomBytes(8).toString('hex')}.${format}`;
  const maxBytes = format === 'xls' ? XLS_MAX_BYTES : IMPORT_MAX_BYTES;
  try {
    await ctx.storage.put(companyId, key, file.stream, { maxBytes });
    if (file.truncated()) throw new AppError('ERR_PAYLOAD_TOO_LARGE');
    if (!signatureMatches(format, await headOf(await ctx.storage.get(companyId, key), 8)))
      throw new AppError('ERR_IMPORT_UNREADABLE');
  } catch (error) {
    await ctx.storage.delete(companyId, key).catch(() => {});
    throw error;
  }
  const row = (await ContactListImport.query()
    .insert({ contactListId, fileName: file.fileName.slice(0, 255), storageKey: key, format, status: 'queued' })
    .returning('*')) as unknown as ContactListImport;
  await ctx.jobs.enqueue('import-list', { importId: row.id }, { companyId, jobId: `import-${row.id}` });
  await announceImport(ctx, companyId, row);
  return importJson(row);
}

/** A cell's text: numbers without exponent, rich text and links by their text; a formula refuses the file. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const cell = value as {
      formula?: unknown;
      sharedFormula?: unknown;
      richText?: Array<{ text: string }>;
      text?: unknown;
      error?: unknown;
    };
    if (cell.formula !== undefined || cell.sharedFormula !== undefined) throw new AppError('ERR_IMPORT_FORMULAS');
    if (Array.isArray(cell.richText)) return cell.richText.map((part) => part.text).join('');
    if (cell.text !== undefined) return cellText(cell.text);
    if (cell.error !== undefined) return '';
  }
  return String(value);
}

/** One row of a sheet: its number in the sheet (from 1) and its cells' text. */
interface SheetRow {
  row: number;
  cells: string[];
}

function checkCells(cells: string[]): string[] {
  for (const cell of cells) if (cell.length > MAX_CELL_CHARS) throw new AppError('ERR_IMPORT_CELL_TOO_LONG');
  return cells;
}

/** The first sheet of an .xlsx, streamed (exceljs' streaming reader: memory stays flat however long). */
async function* xlsxRows(stream: Readable): AsyncGenerator<SheetRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(stream, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  for await (const worksheet of reader) {
    for await (const row of worksheet as AsyncIterable<ExcelJS.Row>) {
      const values = (row.values as unknown[]) ?? [];
      // a sparse array: empty cells are holes
      yield { row: row.number, cells: checkCells(Array.from(values.slice(1), cellText)) };
    }
    return;
  }
}

/** The first sheet of an .xls (read whole: the format can't be streamed; its size is capped lower). */
async function* xlsRows(stream: Readable): AsyncGenerator<SheetRow> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  const XLSX = await import('@e965/xlsx');
  let workbook: ReturnType<typeof XLSX.read>;
  try {
    workbook = XLSX.read(Buffer.concat(chunks), { type: 'buffer', cellFormula: true, cellHTML: false, cellStyles: false });
  } catch {
    throw new AppError('ERR_IMPORT_UNREADABLE');
  }
  const sheet = workbook.Sheets[workbook.SheetNames[0] ?? ''];
  if (!sheet?.['!ref']) return;
  const range = XLSX.utils.decode_range(sheet['!ref']);
  if (range.e.r - range.s.r + 1 > IMPORT_MAX_ROWS + 1) throw new AppError('ERR_IMPORT_TOO_MANY_ROWS');
  for (let r = range.s.r; r <= range.e.r; r++) {
    const cells: string[] = [];
    for (let c = range.s.c; c <= Math.min(range.e.c, range.s.c + 20); c++) {
      const cell = sheet[XLSX.utils.encode_cell({ r, c })] as { f?: string; v?: unknown; w?: string } | undefined;
      if (cell?.f) throw new AppError('ERR_IMPORT_FORMULAS');
      cells.push(cell ? cellText(typeof cell.v === 'number' ? cell.v : (cell.w ?? cell.v)) : '');
    }
    yield { row: r + 1, cells: checkCells(cells) };
  }
}

/** A .csv, streamed; `;` or `,` as the first line uses most (spreadsheets in Portuguese write `;`). */
async function* csvRows(stream: Readable): AsyncGenerator<SheetRow> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  const head = first.done ? Buffer.alloc(0) : Buffer.isBuffer(first.value) ? first.value : Buffer.from(first.value);
  const firstLine = head.subarray(0, Math.max(0, head.indexOf(0x0a)) || head.length).toString('utf8');
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const parser = parseCsv({ delimiter, ignoreEmpty: true, trim: true, maxRows: IMPORT_MAX_ROWS + 2 });
  let row = 0;
  const feed = (async () => {
    try {
      if (!first.done) parser.write(head);
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        // a line that never ends is a cell that never ends: refuse before it fills the memory
        if (!parser.write(next.value)) await new Promise((resolve) => parser.once('drain', resolve));
      }
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row += 1;
      yield { row, cells: checkCells(record.map((cell) => cell.replace(/^\uFEFF/, ''))) };
    }
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new AppError('ERR_IMPORT_UNREADABLE');
  } finally {
    await feed;
  }
}

/** Which column holds what: from a header row (pt, en, es, tr names), else name, number, e-mail in order. */
function columnsOf(cells: string[]): { name: number; number: number; email: number; header: boolean } {
  const names = cells.map((cell) => cell.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase());
  const find = (pattern: RegExp) => names.findIndex((name) => pattern.test(name));
  const name = find(/^(nome|name|nombre|isim|ad|ad soyad|contato|contact)$/);
  const number = find(/^(numero|number|telefone|telefono|phone|whatsapp|celular|telefon|tel)$/);
  const email = find(/^(e-?mail|correo|e-posta)$/);
  if (name >= 0 || number >= 0) return { name, number, email, header: true };
  return { name: 0, number: 1, email: 2, header: false };
}

/** Counts bytes flowing through (the import's progress is the share of the file read). */
function byteCounter(onBytes: (total: number) => void): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      onBytes(total);
      done(null, chunk);
    },
  });
}

/**
 * The `import-list` job: reads the sheet row by row, refusing rows without a name, with a number that can't
 * be normalised, an invalid e-mail, or a number already seen in the file (each with its row number), streams
 * the good rows into a staging table, then merges them into the list in one transaction — new numbers added,
 * known ones updated. A file that can't be read (broken, formulas, a cell over 1,000 characters, too many
 * rows) changes nothing. Progress and outcome reach the list's page live.
 */
export async function runImport(ctx: PluginContext, companyId: number, importId: number): Promise<void> {
  const { knex } = ctx.db;
  const current = await ContactListImport.query().findById(importId);
  if (!current || current.status === 'done' || current.status === 'failed') return;
  const settings = await campaignSettings(ctx, companyId);
  const size = (await ctx.storage.stat(companyId, current.storageKey))?.size ?? 0;
  await ContactListImport.query().findById(importId).patch({ status: 'running', heartbeatAt: new Date(), progress: 0 });
  let lastReport = 0;
  let bytes = 0;
  const report = async (force = false) => {
    if (!force && Date.now() - lastReport < PROGRESS_EVERY_MS) return;
    lastReport = Date.now();
    const progress = size > 0 ? Math.min(99, Math.floor((bytes / size) * 100)) : 0;
    const row = await ContactListImport.query().patchAndFetchById(importId, { progress, heartbeatAt: new Date() });
    await announceImport(ctx, companyId, row);
  };
  const refusedRows: Array<{ row: number; reason: string }> = [];
  let refused = 0;
  let total = 0;
  const refuse = (row: number, reason: string) => {
    refused += 1;
    if (refusedRows.length < REFUSED_KEPT) refusedRows.push({ row, reason });
  };
  try {
    const stream = await ctx.storage.get(companyId, current.storageKey);
    if (!stream) throw new AppError('ERR_IMPORT_UNREADABLE');
    const counted = stream.pipe(
      byteCounter((value) => {
        bytes = value;
      }),
    );
    stream.on('error', (error) => counted.destroy(error));
    const rows = current.format === 'xlsx' ? xlsxRows(counted) : current.format === 'xls' ? xlsRows(counted) : csvRows(counted);
    const seen = new Set<string>();
    let columns: ReturnType<typeof columnsOf> | null = null;
    let chunk: Array<{ importId: number; rowNumber: number; name: string; number: string; email: string | null }> = [];
    const flush = async () => {
      if (chunk.length === 0) return;
      await knex('contactListImportRows').insert(chunk);
      chunk = [];
    };
    try {
      for await (const { row, cells } of rows) {
        if (cells.every((cell) => cell.trim() === '')) continue;
        if (columns === null) {
          columns = columnsOf(cells);
          if (columns.header) continue;
        }
        total += 1;
        if (total > IMPORT_MAX_ROWS) throw new AppError('ERR_IMPORT_TOO_MANY_ROWS');
        const name = (columns.name >= 0 ? (cells[columns.name] ?? '') : '').trim();
        const raw = (columns.number >= 0 ? (cells[columns.number] ?? '') : '').trim();
        const email = (columns.email >= 0 ? (cells[columns.email] ?? '') : '').trim();
        if (name === '') {
          refuse(row, 'missing_name');
          continue;
        }
        if (name.length > 50) {
          refuse(row, 'name_too_long');
          continue;
        }
        const number = raw.length <= 50 ? normaliseNumber(raw, settings.countryCode) : null;
        if (number === null || number.length > MAX_NUMBER_DIGITS) {
          refuse(row, 'bad_number');
          continue;
        }
        if (email !== '' && (email.length > 255 || !EMAIL.test(email))) {
          refuse(row, 'bad_email');
          continue;
        }
        if (seen.has(number)) {
          refuse(row, 'duplicate');
          continue;
        }
        seen.add(number);
        chunk.push({ importId, rowNumber: row, name, number, email: email || null });
        if (chunk.length >= STAGE_CHUNK) await flush();
        await report();
      }
      await flush();
    } catch (error) {
      if (isAppError(error)) throw error;
      ctx.log.info({ err: error, importId }, 'a contact sheet could not be read');
      throw new AppError('ERR_IMPORT_UNREADABLE');
    }
    if (total === 0) throw new AppError('ERR_IMPORT_EMPTY');
    const merged = await ctx.db.transaction(async (trx) => {
      const result = (await trx.raw(
        `WITH merged AS (
           INSERT INTO contact_list_items (company_id, contact_list_id, name, number, email)
           SELECT ?, ?, r.name, r.number, r.email FROM contact_list_import_rows r WHERE r.import_id = ? ORDER BY r.row_number
           ON CONFLICT (contact_list_id, number) DO UPDATE
             SET name = excluded.name, email = coalesce(excluded.email, contact_list_items.email), updated_at = now()
           RETURNING (xmax = 0) AS inserted
         )
         SELECT count(*) FILTER (WHERE inserted)::int AS added, count(*) FILTER (WHERE NOT inserted)::int AS updated FROM merged`,
        [companyId, current.contactListId, importId],
      )) as { rows: Array<{ added: number; updated: number }> };
      await trx('contactListImportRows').where({ importId }).delete();
      return result.rows[0] ?? { added: 0, updated: 0 };
    });
    const done = await ContactListImport.query().patchAndFetchById(importId, {
      status: 'done',
      progress: 100,
      rows: total,
      added: merged.added,
      updated: merged.updated,
      refused,
      refusedRows,
      finishedAt: new Date(),
    });
    await announceImport(ctx, companyId, done);
    await announceList(ctx, companyId, current.contactListId);
    await emitToManagers(ctx, companyId, 'ContactListItem', { action: 'reload', contactListId: current.contactListId });
    await requestNumberCheck(ctx, companyId, current.contactListId);
  } catch (error) {
    await knex('contactListImportRows').where({ importId }).delete();
    const code = isAppError(error) ? error.code : 'ERR_IMPORT_UNREADABLE';
    if (!isAppError(error)) ctx.log.warn({ err: error, importId }, 'contact import failed');
    const failed = await ContactListImport.query().patchAndFetchById(importId, {
      status: 'failed',
      error: code,
      rows: total,
      refused,
      refusedRows,
      finishedAt: new Date(),
    });
    await announceImport(ctx, companyId, failed);
  } finally {
    await ctx.storage.delete(companyId, current.storageKey).catch(() => {});
  }
}

/** Imports whose job died with its process (no progress for this long) are marked failed by the sweep. */
export const IMPORT_STALE_MS = 2 * 60_000;

/** The example sheet of the contact lists page: the columns an import reads, with two sample rows. */
export async function exampleSheet(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  sheet.columns = [
    { header: 'Nome', key: 'name', width: 28 },
    { header: 'Número', key: 'number', width: 20 },
    { header: 'Email', key: 'email', width: 30 },
  ];
  sheet.addRow({ name: 'Maria Souza', number: '5511987654321', email: 'maria@exemplo.com' });
  sheet.addRow({ name: 'João Lima', number: '+55 21 99876-5432', email: '' });
  // numbers as text: a spreadsheet would otherwise show a long number in scientific notation
  sheet.getColumn('number').numFmt = '@';
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
