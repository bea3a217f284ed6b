import type { PassThrough } from 'node:stream';
import { companyEvent, type PluginContext } from '@balcao/plugin-sdk/server';
import ExcelJS from 'exceljs';
import type { Knex } from 'knex';
import type { ReportExportProgress, ReportTicket } from '../../shared/types';
import { countReport, type ReportFilters, type ReportOrder, streamReport } from './report.service';
import type { ViewerScope } from './scope';

/** The export's file name (docs/product/administration.md#constants-and-limits), per format. */
export const EXPORT_FILE_NAME = 'relatorio-de-atendimentos';

export type ExportLanguage = 'pt' | 'en' | 'es' | 'tr';

/** The columns of docs/product/administration.md#constants-and-limits (connection, contact, user, queue, status, last message, open and close, support time, nps), with the ticket's number first. */
const HEADERS: Record<ExportLanguage, string[]> = {
  pt: [
    'Nº',
    'Conexão',
    'Contato',
    'Usuário',
    'Fila',
    'Status',
    'Última mensagem',
    'Abertura',
    'Fechamento',
    'Tempo de atendimento (min)',
    'NPS',
  ],
  en: [
    'No.',
    'Connection',
    'Contact',
    'User',
    'Queue',
    'Status',
    'Last message',
    'Opened',
    'Closed',
    'Support time (min)',
    'NPS',
  ],
  es: [
    'Nº',
    'Conexión',
    'Contacto',
    'Usuario',
    'Cola',
    'Estado',
    'Último mensaje',
    'Apertura',
    'Cierre',
    'Tiempo de atención (min)',
    'NPS',
  ],
  tr: ['No', 'Bağlantı', 'Kişi', 'Kullanıcı', 'Kuyruk', 'Durum', 'Son mesaj', 'Açılış', 'Kapanış', 'Destek süresi (dk)', 'NPS'],
};

const STATUS_LABELS: Record<ExportLanguage, Record<string, string>> = {
  pt: { pending: 'Aguardando', open: 'Em atendimento', closed: 'Finalizado', group: 'Grupo', lgpd: 'LGPD', nps: 'Avaliação' },
  en: { pending: 'Waiting', open: 'In attendance', closed: 'Closed', group: 'Group', lgpd: 'LGPD', nps: 'Rating' },
  es: { pending: 'En espera', open: 'En atención', closed: 'Finalizado', group: 'Grupo', lgpd: 'LGPD', nps: 'Evaluación' },
  tr: { pending: 'Bekliyor', open: 'Görüşmede', closed: 'Kapandı', group: 'Grup', lgpd: 'KVKK', nps: 'Değerlendirme' },
};

/** `DD/MM/YYYY HH:mm` in the company's time zone (docs/product/tickets-and-inbox.md#constants-and-limits date formats). */
function dateTimeFormatter(timezone: string): (iso: string | null) => string {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return (iso) => (iso ? format.format(new Date(iso)).replace(',', '') : '');
}

function cellsOf(
  row: ReportTicket,
  language: ExportLanguage,
  formatDate: (iso: string | null) => string,
): Array<string | number> {
  return [
    row.id,
    row.whatsappName ?? '',
    row.contactName,
    row.userName ?? '',
    row.queueName ?? '',
    STATUS_LABELS[language][row.status] ?? row.status,
    row.lastMessage,
    formatDate(row.createdAt),
    formatDate(row.closedAt),
    row.supportTime ?? '',
    row.NPS ?? '',
  ];
}

/** A CSV field: quoted when it holds a separator, a quote or a line break; a leading formula sign defused. */
function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Bytes waiting in the stream beyond which the export stops reading rows until the client catches up. */
const BACKLOG_BYTES = 1 << 20;

async function waitForClient(out: PassThrough, aborted: () => boolean): Promise<void> {
  while (!aborted() && out.readableLength + out.writableLength > BACKLOG_BYTES) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export interface ExportRequest {
  format: 'xlsx' | 'csv';
  language: ExportLanguage;
  /** The browser's id for the progress events; none: no events. */
  exportId?: string;
}

/**
 * Writes the report as .xlsx (exceljs's streaming writer: rows are committed as they come, nothing of the
 * sheet stays in memory) or .csv into `out`, reading the rows through a cursor, 2,000 at a time, and telling
 * the user's sockets how far it is (`company-{id}-reportExport`). Stops early when the client goes away.
 */
export async function writeReportExport(
  ctx: PluginContext,
  knex: Knex,
  scope: ViewerScope,
  filters: ReportFilters,
  order: ReportOrder,
  request: ExportRequest,
  out: PassThrough,
  aborted: () => boolean,
): Promise<void> {
  const total = request.exportId ? await countReport(knex, scope, filters) : 0;
  let written = 0;
  const progress = (done: boolean) => {
    if (!request.exportId) return;
    const payload: ReportExportProgress = { exportId: request.exportId, written, total, done };
    ctx.realtime.emit(scope.companyId, companyEvent(scope.companyId, 'reportExport'), payload, { rooms: `user:${scope.userId}` });
  };
  const formatDate = dateTimeFormatter(filters.range.timezone);
  const headers = HEADERS[request.language];
  const stop = new Error('export aborted');
  try {
    if (request.format === 'csv') {
      // a byte order mark: spreadsheet programs then read the file as UTF-8
      out.write(`\uFEFF${headers.map(csvField).join(',')}\r\n`);
      await streamReport(knex, scope, filters, order, async (rows) => {
        if (aborted()) throw stop;
        out.write(rows.map((row) => `${cellsOf(row, request.language, formatDate).map(csvField).join(',')}\r\n`).join(''));
        written += rows.length;
        progress(false);
        await waitForClient(out, aborted);
      });
      out.end();
    } else {
      // the fastest deflate: exceljs hands the sheet to the zip without waiting for it, so a slower one lets
      // compressed-to-be rows pile up in memory (and takes most of the export's time)
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
        stream: out,
        useStyles: false,
        useSharedStrings: false,
        zip: { zlib: { level: 1 } },
      });
      const sheet = workbook.addWorksheet(EXPORT_FILE_NAME);
      sheet.addRow(headers).commit();
      await streamReport(knex, scope, filters, order, async (rows) => {
        if (aborted()) throw stop;
        for (const row of rows) sheet.addRow(cellsOf(row, request.language, formatDate)).commit();
        written += rows.length;
        progress(false);
        await waitForClient(out, aborted);
      });
      sheet.commit();
      await workbook.commit();
    }
    progress(true);
  } catch (error) {
    if (error === stop) {
      out.destroy();
      return;
    }
    throw error;
  }
}
