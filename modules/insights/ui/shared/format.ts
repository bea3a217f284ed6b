import type { TFunction } from 'i18next';

/** Minutes as hours and minutes: the dashboard keeps averages in minutes and shows them this way (docs/product/tickets-and-inbox.md#constants-and-limits). */
export function formatMinutes(t: TFunction, minutes: number): string {
  const whole = Math.round(minutes);
  const h = Math.floor(whole / 60);
  const m = whole % 60;
  return h > 0 ? t('format.hoursMinutes', { h, m: String(m).padStart(2, '0') }) : t('format.minutes', { m });
}

/** A calendar day `YYYY-MM-DD` as `DD/MM/YYYY` (docs/product/tickets-and-inbox.md#constants-and-limits date formats). */
export function formatDay(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}

/** An instant as `DD/MM/YYYY HH:mm` in the browser's time. */
export function formatDateTime(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A calendar day of the browser as `YYYY-MM-DD`. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The documented default range: the first day of the current month to today. */
export function monthToDate(now = new Date()): { from: string; to: string } {
  return { from: localDay(new Date(now.getFullYear(), now.getMonth(), 1)), to: localDay(now) };
}
