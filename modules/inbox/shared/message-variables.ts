/**
 * The message variables of docs/product/tickets-and-inbox.md#constants-and-limits — `{{firstName}}`, `{{name}}`, `{{userName}}`, `{{ms}}`,
 * `{{protocol}}`, `{{date}}`, `{{hour}}`, `{{ticket_id}}`, `{{queue}}`, `{{connection}}` — filled in the
 * texts the product sends (greeting on accept, farewell, transfer, bot and campaign messages).
 * Pure: no database; callers gather the names (the server when it sends, the composer for its preview).
 * Times are the local time of where it runs.
 */

/** What a text's variables are filled from. Every part is optional: a missing one fills as empty text. */
export interface MessageVariableSource {
  contact?: { name: string | null } | null;
  /** The agent the message is sent as. */
  user?: { name: string | null } | null;
  ticket?: { id: number; createdAt?: Date | string | null } | null;
  queue?: { name: string | null } | null;
  /** The connection (WhatsApp, page …) of the ticket. */
  connection?: { name: string | null } | null;
  /** The moment of sending (default now). */
  now?: Date;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The greeting for the hour (`{{ms}}`): Bom dia 05–11 h, Boa tarde 12–17 h, Boa noite otherwise. */
export function greetingForHour(hour: number): string {
  if (hour >= 5 && hour < 12) return 'Bom dia';
  if (hour >= 12 && hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

/** DD/MM/YYYY (docs/product/tickets-and-inbox.md#constants-and-limits). */
export function formatDate(date: Date): string {
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** HH:mm (docs/product/tickets-and-inbox.md#constants-and-limits). */
export function formatHour(date: Date): string {
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * A ticket's protocol number: its creation instant as YYYYMMDDHHmmss followed by its id, so it is the same
 * in every message of the ticket and unique across tickets.
 */
export function ticketProtocol(ticket: { id: number; createdAt?: Date | string | null }, fallback: Date = new Date()): string {
  const created = ticket.createdAt ? new Date(ticket.createdAt) : fallback;
  const at = Number.isNaN(created.getTime()) ? fallback : created;
  return `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}${ticket.id}`;
}

/** The value of every variable for a source. */
export function messageVariables(source: MessageVariableSource): Record<string, string> {
  const now = source.now ?? new Date();
  const name = (source.contact?.name ?? '').trim();
  return {
    firstName: name.split(/\s+/)[0] ?? '',
    name,
    userName: (source.user?.name ?? '').trim(),
    ms: greetingForHour(now.getHours()),
    protocol: source.ticket ? ticketProtocol(source.ticket, now) : '',
    date: formatDate(now),
    hour: formatHour(now),
    ticket_id: source.ticket ? String(source.ticket.id) : '',
    queue: (source.queue?.name ?? '').trim(),
    connection: (source.connection?.name ?? '').trim(),
  };
}

/**
 * Fills `{{variable}}` (spaces inside the braces allowed) with the source's values. Unknown names are left
 * as written, so a text with other braces is not mangled.
 */
export function fillMessageVariables(template: string, source: MessageVariableSource): string {
  const values = messageVariables(source);
  return template.replace(/\{\{\s*([A-Za-z_]+)\s*\}\}/g, (whole, key: string) =>
    Object.hasOwn(values, key) ? (values[key] as string) : whole,
  );
}
