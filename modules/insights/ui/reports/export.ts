import { API_BASE, type AppDispatch, companyEvent, refreshSession, subscribeSocketEvent, tokens } from '@balcao/plugin-sdk/ui';
import type { ReportExportProgress } from '../../shared/types';

/**
 * Downloads the report's export (`GET /ticketreport/reports/export`): the server streams the file and tells
 * this user's sockets how many rows it has written (`company-{id}-reportExport`), which `onProgress` gets.
 * The file is saved as the server names it.
 */
export async function downloadReport(
  params: URLSearchParams,
  options: {
    companyId: number;
    format: 'xlsx' | 'csv';
    language: string;
    dispatch: AppDispatch;
    onProgress(progress: { written: number; total: number }): void;
  },
): Promise<void> {
  const exportId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  const query = new URLSearchParams(params);
  query.delete('page');
  query.delete('pageSize');
  query.set('format', options.format);
  query.set('language', options.language);
  query.set('exportId', exportId);
  const stop = subscribeSocketEvent<ReportExportProgress>(companyEvent(options.companyId, 'reportExport'), (progress) => {
    if (progress.exportId === exportId) options.onProgress({ written: progress.written, total: progress.total });
  });
  try {
    const call = () =>
      fetch(`${API_BASE}/ticketreport/reports/export?${query.toString()}`, {
        headers: { authorization: `Bearer ${tokens.read() ?? ''}` },
        credentials: 'include',
      });
    let response = await call();
    // an access token past its life: renew it once, as every other call does
    if (response.status === 403 && (await refreshSession(options.dispatch))) response = await call();
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { error?: string };
      throw { data: { error: body.error ?? 'ERR_EXPORT_FAILED' }, status: response.status };
    }
    const blob = await response.blob();
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `relatorio-de-atendimentos.${options.format}`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  } finally {
    stop();
  }
}
