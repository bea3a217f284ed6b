import type { RawCell } from './columns';
import { parseCsv } from './csv';

/** File types the import takes. */
export const IMPORT_ACCEPT = '.xlsx,.csv';

/** The kind of a picked file, by its extension; null for anything else. */
export function importFileKind(fileName: string): 'xlsx' | 'csv' | null {
  const extension = fileName.toLowerCase().split('.').pop();
  if (extension === 'xlsx') return 'xlsx';
  if (extension === 'csv') return 'csv';
  return null;
}

/** Reads the first sheet of an .xlsx (read-excel-file, loaded on first use) or a CSV file into rows. */
export async function readImportFile(file: File): Promise<RawCell[][]> {
  const kind = importFileKind(file.name);
  if (kind === 'xlsx') {
    const { readSheet } = await import('read-excel-file/browser');
    const rows = await readSheet(file);
    return rows.map((row) => row.map((cell) => cell as RawCell));
  }
  if (kind === 'csv') return parseCsv(await file.text());
  throw new Error('unsupported');
}
