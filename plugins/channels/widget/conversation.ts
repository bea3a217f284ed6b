import type { WebchatMessage } from '../shared/webchat';

/** A visitor's message not yet stored by the server: sending (maybe uploading) or failed (retry with the same clientId). */
export interface PendingMessage {
  clientId: string;
  body: string;
  file: File | null;
  state: 'sending' | 'failed';
  /** Upload progress 0–100 for a file, null for text. */
  progress: number | null;
  /** Why it failed (an error code), when failed. */
  error: string | null;
  createdAt: string;
}

export type ConversationItem =
  | { key: string; message: WebchatMessage; pending?: undefined }
  | { key: string; pending: PendingMessage; message?: undefined };

/** Inbox ids are numbers in strings: compared as numbers when both are. */
export function compareIds(a: string, b: string): number {
  const [x, y] = [Number(a), Number(b)];
  return Number.isFinite(x) && Number.isFinite(y) ? x - y : a.localeCompare(b);
}

/**
 * The visitor's conversation as the widget knows it: the server's messages by id (a page, a live event,
 * a resync after a reconnection all merge here, never twice) and the visitor's messages still in flight.
 */
export class Conversation {
  private readonly messages = new Map<string, WebchatMessage>();
  private readonly pending = new Map<string, PendingMessage>();
  hasMore = false;

  /** Adds or replaces a message; true when it is new. A stored message ends its pending twin. */
  upsert(message: WebchatMessage): boolean {
    const known = this.messages.has(message.id);
    this.messages.set(message.id, message);
    if (message.clientId) this.pending.delete(message.clientId);
    return !known;
  }

  has(id: string): boolean {
    return this.messages.has(id);
  }

  addPending(pending: PendingMessage): void {
    this.pending.set(pending.clientId, pending);
  }

  updatePending(clientId: string, patch: Partial<PendingMessage>): PendingMessage | null {
    const current = this.pending.get(clientId);
    if (!current) return null;
    const next = { ...current, ...patch };
    this.pending.set(clientId, next);
    return next;
  }

  getPending(clientId: string): PendingMessage | null {
    return this.pending.get(clientId) ?? null;
  }

  /** The oldest stored message's id: where "load older" continues. */
  oldestId(): string | null {
    return this.sortedMessages()[0]?.id ?? null;
  }

  /** The newest message from the company (agent or bot): what `read` acknowledges. */
  newestCompanyId(): string | null {
    const company = this.sortedMessages().filter((message) => message.author !== 'visitor');
    return company.at(-1)?.id ?? null;
  }

  /** Stored messages in time order, then the ones in flight in the order they were written. */
  items(): ConversationItem[] {
    return [
      ...this.sortedMessages().map((message) => ({ key: `m${message.id}`, message })),
      ...[...this.pending.values()]
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .map((pending) => ({ key: `p${pending.clientId}`, pending })),
    ];
  }

  /** Forgets the stored messages (the ones in flight stay). */
  clearMessages(): void {
    this.messages.clear();
    this.hasMore = false;
  }

  clear(): void {
    this.messages.clear();
    this.pending.clear();
    this.hasMore = false;
  }

  private sortedMessages(): WebchatMessage[] {
    return [...this.messages.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || compareIds(a.id, b.id));
  }
}

/** The delivery state the visitor sees under their own message. */
export type DeliveryState = 'sending' | 'failed' | 'sent' | 'delivered' | 'read';

export function deliveryState(ack: number): DeliveryState {
  if (ack >= 3) return 'read';
  if (ack === 2) return 'delivered';
  return 'sent';
}

/** A new clientId (a uuid): crypto.randomUUID where the page is a secure context, else from getRandomValues. */
export function newClientId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
