/** The contact fields a spreadsheet column can be mapped to. */
export const IMPORT_FIELDS = ['name', 'number', 'email'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** Which column (0-based) holds each field; null when none does. */
export type ColumnMapping = Record<ImportField, number | null>;

/** A raw cell as a spreadsheet or CSV gives it. */
export type RawCell = string | number | boolean | Date | null | undefined;

/** Header words recognised for each field (compared without accents, case or punctuation), pt/en/es/tr. */
const HEADER_WORDS: Record<ImportField, readonly string[]> = {
  name: ['nome', 'name', 'nombre', 'isim', 'ad', 'adsoyad', 'contato', 'contact', 'fullname', 'nomecompleto', 'cliente'],
  number: [
    'numero',
    'number',
    'telefone',
    'phone',
    'phonenumber',
    'celular',
    'mobile',
    'whatsapp',
    'fone',
    'tel',
    'telefono',
    'numara',
    'telefon',
  ],
  email: ['email', 'mail', 'correo', 'correoelectronico', 'eposta'],
};

/** A header cell reduced to its letters: `Número de telefone` → `numerodetelefone`. */
export function headerKey(cell: RawCell): string {
  return cellText(cell)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ı/g, 'i')
    .replace(/[^a-z0-9]/g, '');
}

/** Fields in the order a header containing several words is resolved (`contactemail` is an e-mail). */
const CONTAINS_PRIORITY: readonly ImportField[] = ['email', 'number', 'name'];

/** Which field a header names, if any: an exact word first, then a word (4+ letters) it contains. */
function fieldOfHeader(cell: RawCell): ImportField | null {
  const key = headerKey(cell);
  if (!key) return null;
  for (const field of IMPORT_FIELDS) if (HEADER_WORDS[field].includes(key)) return field;
  for (const field of CONTAINS_PRIORITY) {
    if (HEADER_WORDS[field].some((word) => word.length >= 4 && key.includes(word))) return field;
  }
  return null;
}

/**
 * Reads the first row as a header: the column of each recognised field (the first one when several
 * match). `header` is true when at least one field was recognised.
 */
export function detectColumns(firstRow: readonly RawCell[]): { header: boolean; mapping: ColumnMapping } {
  const mapping: ColumnMapping = { name: null, number: null, email: null };
  firstRow.forEach((cell, index) => {
    const field = fieldOfHeader(cell);
    if (field && mapping[field] === null) mapping[field] = index;
  });
  const header = IMPORT_FIELDS.some((field) => mapping[field] !== null);
  if (header) return { header, mapping };
  // no header: name, number, e-mail in the first three columns
  const width = firstRow.length;
  return {
    header: false,
    mapping: { name: width > 0 ? 0 : null, number: width > 1 ? 1 : null, email: width > 2 ? 2 : null },
  };
}

/** A cell as text: numbers without exponent or grouping, dates as ISO, trimmed. */
export function cellText(cell: RawCell): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? '' : cell.toISOString();
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) return '';
    return Number.isInteger(cell) ? BigInt(cell).toString() : String(cell);
  }
  return String(cell).trim();
}

/** Number bounds of docs/product/tickets-and-inbox.md#validation (digits only). */
export const NUMBER_MIN_DIGITS = 8;
export const NUMBER_MAX_DIGITS = 50;
/** The contacts dialog's name limit (docs/product/tickets-and-inbox.md#validation). */
export const NAME_MAX_LENGTH = 250;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** One contact ready for `POST /contacts/import`, with the spreadsheet line it came from (1-based). */
export interface ImportCandidate {
  line: number;
  contact: { name: string; number: string; email?: string };
}

/** Why a line is not sent. */
export type ImportRowIssue = 'numberMissing' | 'numberTooShort' | 'numberTooLong' | 'duplicateInFile';

/** A line left out before sending, with the reason. */
export interface ImportRowError {
  line: number;
  issue: ImportRowIssue;
}

/** What is wrong with a row's number (digits only), if anything. */
function numberIssue(number: string, seen: ReadonlySet<string>): ImportRowIssue | null {
  if (!number) return 'numberMissing';
  if (number.length < NUMBER_MIN_DIGITS) return 'numberTooShort';
  if (number.length > NUMBER_MAX_DIGITS) return 'numberTooLong';
  if (seen.has(number)) return 'duplicateInFile';
  return null;
}

/** The result of `normalizeRows`. */
export interface NormalizedRows {
  candidates: ImportCandidate[];
  errors: ImportRowError[];
  /** Blank lines skipped silently. */
  blank: number;
}

/**
 * Turns sheet rows into contacts: the number keeps its digits only and must have 8 to 50 of them; a
 * missing name becomes the number; the name is cut to 250 characters; an invalid e-mail is dropped (the
 * contact still imports); a number already seen earlier in the file is reported, not sent twice. Line
 * numbers count from 1 at the sheet's first row (the header included), as a spreadsheet shows them.
 */
export function normalizeRows(rows: readonly (readonly RawCell[])[], mapping: ColumnMapping, header: boolean): NormalizedRows {
  const candidates: ImportCandidate[] = [];
  const errors: ImportRowError[] = [];
  const seen = new Set<string>();
  let blank = 0;
  const read = (row: readonly RawCell[], field: ImportField) => {
    const column = mapping[field];
    return column === null ? '' : cellText(row[column]);
  };
  rows.forEach((row, index) => {
    if (header && index === 0) return;
    const line = index + 1;
    if (row.every((cell) => cellText(cell) === '')) {
      blank++;
      return;
    }
    const number = read(row, 'number').replace(/\D/g, '');
    const issue = numberIssue(number, seen);
    if (issue) {
      errors.push({ line, issue });
      return;
    }
    seen.add(number);
    const name = (read(row, 'name') || number).slice(0, NAME_MAX_LENGTH);
    const email = read(row, 'email').toLowerCase();
    candidates.push({ line, contact: EMAIL_PATTERN.test(email) ? { name, number, email } : { name, number } });
  });
  return { candidates, errors, blank };
}

/** Splits a list into consecutive chunks of at most `size` items. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (size < 1) throw new RangeError('chunk size must be at least 1');
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** The number of columns of the widest row (for the column pickers). */
export function columnCount(rows: readonly (readonly RawCell[])[]): number {
  return rows.reduce((widest, row) => Math.max(widest, row.length), 0);
}

/**
 * Maps an error of `POST /contacts/import` (`row`: the 1-based position in the chunk sent) back to the
 * spreadsheet line it came from.
 */
export function lineOfServerRow(part: readonly ImportCandidate[], row: number): number | null {
  return part[row - 1]?.line ?? null;
}

/** A column's spreadsheet letter: 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(index: number): string {
  let letter = '';
  let rest = index + 1;
  while (rest > 0) {
    const digit = (rest - 1) % 26;
    letter = String.fromCharCode(65 + digit) + letter;
    rest = Math.floor((rest - 1) / 26);
  }
  return letter;
}
