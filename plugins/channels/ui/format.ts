import type { Connection, ConnectionStatus } from './types';

/** A timestamp as the connections list shows it: DD/MM/YYYY HH:mm in the browser's time. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getDate())}/${two(date.getMonth() + 1)}/${date.getFullYear()} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** 1-core §2: the statuses that put the badge on the Connections menu entry (all but CONNECTED). */
export const ATTENTION_STATUSES: readonly ConnectionStatus[] = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'];

/** Whether any connection needs attention (the side-menu badge). */
export function needsAttention(connections: readonly Pick<Connection, 'status'>[]): boolean {
  return connections.some((connection) => ATTENTION_STATUSES.includes(connection.status));
}

/** 2-administration §9: the preparing state lasts 35 seconds after an import starts. */
export const IMPORT_PREPARING_MS = 35_000;

/**
 * What `statusImportMessages` asks the list to show (2-administration §2): `renderButtonCloseTickets` offers
 * closing the imported tickets; a start time (milliseconds since the epoch) shows "preparing" for 35 seconds
 * after it; anything else nothing. The import itself is issue 6's.
 */
export function importState(status: string | null | undefined, now = Date.now()): 'closeTickets' | 'preparing' | null {
  if (!status) return null;
  if (status === 'renderButtonCloseTickets') return 'closeTickets';
  const startedAt = Number(status);
  if (Number.isFinite(startedAt) && startedAt > 0 && now - startedAt < IMPORT_PREPARING_MS && now >= startedAt - 1_000)
    return 'preparing';
  return null;
}
