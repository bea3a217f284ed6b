/**
 * Text and time formatting of the Tickets screen (docs/product/tickets-and-inbox.md#constants-and-limits): ticket times, message times, day separators
 * and the truncations of the list. Local time, as the agent reads it.
 */

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** Whether two instants fall on the same local calendar day. */
export function isSameLocalDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** HH:mm of an instant, local time. */
export function formatHourMinute(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** dd/MM/yyyy of an instant, local time. */
export function formatDay(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** dd/MM/yyyy HH:mm (ticket log, notes, PDF). */
export function formatDayTime(value: string | Date): string {
  return `${formatDay(value)} ${formatHourMinute(value)}`;
}

/** A ticket's time in the list: HH:mm when updated today, else dd/MM/yyyy (docs/product/tickets-and-inbox.md#constants-and-limits). */
export function formatTicketTime(updatedAt: string, now: Date = new Date()): string {
  const date = new Date(updatedAt);
  if (Number.isNaN(date.getTime())) return '';
  return isSameLocalDay(date, now) ? formatHourMinute(date) : formatDay(date);
}

/** The local-day key of an instant (`YYYY-M-D`), for grouping messages by day. */
export function localDayKey(value: string): string {
  const date = new Date(value);
  return `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`;
}

/** A day separator of the message list: `today` (shown as 'HOJE') or the day as dd/MM/yyyy. */
export function daySeparator(value: string, now: Date = new Date()): { today: true } | { today: false; day: string } {
  const date = new Date(value);
  return isSameLocalDay(date, now) ? { today: true } : { today: false, day: formatDay(date) };
}

/**
 * Cuts a text to `max` characters with an ellipsis (docs/product/tickets-and-inbox.md#constants-and-limits: previews 40, names 60, quick replies 90).
 * Counts characters, not UTF-16 units, so an emoji is never split in half.
 */
export function truncate(text: string | null | undefined, max: number): string {
  if (!text) return '';
  const characters = Array.from(text);
  return characters.length > max ? `${characters.slice(0, max).join('')}...` : text;
}

/** Elapsed recording time as mm:ss. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${pad(Math.floor(seconds / 60))}:${pad(seconds % 60)}`;
}

/** The first line of a text, for one-line previews (quoted messages, the reply bar). */
export function firstLine(text: string | null | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}
