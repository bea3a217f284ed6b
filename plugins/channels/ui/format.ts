import type { Connection, ConnectionStatus } from './types';

/** A timestamp as the connections list shows it: DD/MM/YYYY HH:mm in the browser's time. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getDate())}/${two(date.getMonth() + 1)}/${date.getFullYear()} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** docs/product/tickets-and-inbox.md#screens-and-routes: the statuses that put the badge on the Connections menu entry (all but CONNECTED). */
export const ATTENTION_STATUSES: readonly ConnectionStatus[] = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'];

/** Whether any connection needs attention (the side-menu badge). */
export function needsAttention(connections: readonly Pick<Connection, 'status'>[]): boolean {
  return connections.some((connection) => ATTENTION_STATUSES.includes(connection.status));
}

/** docs/product/administration.md#constants-and-limits: the preparing state lasts 35 seconds after an import starts. */
export const IMPORT_PREPARING_MS = 35_000;

/**
 * What `statusImportMessages` asks the list to show (docs/product/administration.md#screens-and-routes): `renderButtonCloseTickets` offers
 * closing the imported tickets; a start time (milliseconds since the epoch) shows "preparing" for 35 seconds
 * after it; anything else nothing. The import itself is the WhatsApp channel's (server/whatsapp/import.ts).
 */
export function importState(status: string | null | undefined, now = Date.now()): 'closeTickets' | 'preparing' | null {
  if (!status) return null;
  if (status === 'renderButtonCloseTickets') return 'closeTickets';
  const startedAt = Number(status);
  if (Number.isFinite(startedAt) && startedAt > 0 && now - startedAt < IMPORT_PREPARING_MS && now >= startedAt - 1_000)
    return 'preparing';
  return null;
}

/** A day as the list shows it: DD/MM/YYYY in the browser's time (an import's "until" date). */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getDate())}/${two(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** The fewest and most digits a phone number to pair with may have, country code included (the server's rule). */
export const PAIRING_NUMBER_DIGITS = { min: 8, max: 15 } as const;

/**
 * The phone number to pair with as `POST /whatsappsession/:id/pairing-code` wants it: its digits only,
 * country code first — spaces, `+`, dashes and parentheses as people type them are dropped. Null when it
 * can't be a WhatsApp number (fewer than 8 or more than 15 digits).
 */
export function pairingDigits(input: string): string | null {
  const digits = input.replace(/\D/g, '');
  return digits.length >= PAIRING_NUMBER_DIGITS.min && digits.length <= PAIRING_NUMBER_DIGITS.max ? digits : null;
}

/** A pairing code as WhatsApp shows it and people read it: `ABCD-EFGH` (any other length as it came). */
export function formatPairingCode(code: string): string {
  return code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}
