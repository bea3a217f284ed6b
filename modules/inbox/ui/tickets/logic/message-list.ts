import type { AppMessageEvent, Message, Ticket } from '../../../shared/types';
import { daySeparator, localDayKey } from './format';

/** One page of `GET /messages/:ticketUuid`: 30 messages in chronological order, page 1 the latest. */
export interface MessagesPage {
  messages: Message[];
  ticket: Ticket;
  count: number;
  hasMore: boolean;
}

/** The pages as the infinite query keeps them: `pages[0]` the latest, each next page older. */
export interface MessagePages {
  pages: MessagesPage[];
  pageParams: number[];
}

function byTime(a: Message, b: Message): number {
  return Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id;
}

/**
 * Puts a message in a cached conversation: replaces it where it is (ack, edit, reaction, failure) unless the
 * cache holds a newer version, or adds it to the latest page in time order. Mutates `data`.
 */
export function upsertMessage(data: MessagePages, message: Message): void {
  for (const page of data.pages) {
    const index = page.messages.findIndex((item) => item.id === message.id);
    if (index >= 0) {
      // a reply's own answer can arrive after the realtime update that failed or acked it: never go back
      const held = page.messages[index] as Message;
      if (Date.parse(held.updatedAt) <= Date.parse(message.updatedAt)) page.messages[index] = message;
      return;
    }
  }
  const latest = data.pages[0];
  if (!latest) return;
  latest.messages.push(message);
  latest.messages.sort(byTime);
  latest.count += 1;
}

/** Takes a message out of a cached conversation (the LGPD delete). */
export function removeMessage(data: MessagePages, messageId: number): void {
  for (const page of data.pages) {
    const index = page.messages.findIndex((item) => item.id === messageId);
    if (index >= 0) page.messages.splice(index, 1);
  }
}

/** The ticket a cached conversation belongs to. */
export function conversationTicketId(data: MessagePages): number | undefined {
  return data.pages[0]?.ticket.id;
}

/** Applies a `company-{id}-appMessage` event to the conversation of ticket `ticketUuid`. */
export function applyAppMessageEventToConversation(data: MessagePages, event: AppMessageEvent, ticketUuid: string): void {
  const ticketId = conversationTicketId(data);
  if (event.action === 'create') {
    if (event.ticket.uuid !== ticketUuid && event.message.ticketId !== ticketId) return;
    upsertMessage(data, event.message);
    for (const page of data.pages) page.ticket = event.ticket;
  } else if (event.action === 'update') {
    if (event.message.ticketId === ticketId) upsertMessage(data, event.message);
  } else if (event.ticketId === ticketId) {
    removeMessage(data, event.messageId);
  }
}

/** The loaded messages in chronological order (oldest page first), each once. */
export function flattenMessages(data: MessagePages | undefined): Message[] {
  if (!data) return [];
  const seen = new Set<number>();
  const messages: Message[] = [];
  for (const page of [...data.pages].reverse()) {
    for (const message of page.messages) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
      messages.push(message);
    }
  }
  return messages;
}

/**
 * What the list shows: reactions live on their message, not as rows; deleted messages are dropped when
 * the company's LGPD rule hides them (enableLGPD and lgpdDeleteMessage both enabled, docs/product/roles-and-permissions.md#roles-in-the-inbox).
 */
export function visibleMessages(messages: readonly Message[], hideDeleted: boolean): Message[] {
  return messages.filter((message) => message.mediaType !== 'reactionMessage' && !(hideDeleted && message.isDeleted));
}

/** A row of the message list: a day separator or a message. */
export type MessageRow =
  | { kind: 'day'; key: string; today: boolean; day: string }
  | { kind: 'message'; key: string; message: Message };

/** Messages with a separator before each new day ('HOJE' for today, docs/product/tickets-and-inbox.md#screens-and-routes). */
export function withDaySeparators(messages: readonly Message[], now: Date = new Date()): MessageRow[] {
  const rows: MessageRow[] = [];
  let currentDay: string | null = null;
  for (const message of messages) {
    const day = localDayKey(message.createdAt);
    if (day !== currentDay) {
      currentDay = day;
      const separator = daySeparator(message.createdAt, now);
      rows.push({ kind: 'day', key: `day-${day}`, today: separator.today, day: separator.today ? '' : separator.day });
    }
    rows.push({ kind: 'message', key: `message-${message.id}`, message });
  }
  return rows;
}

/** docs/product/tickets-and-inbox.md#states-and-transitions and #constants-and-limits: edits only of own messages, within 15 minutes of creation. */
export const EDIT_WINDOW_MS = 900_000;

/** A message the agent sent (fromMe, and by them when the message names its user). */
export function isOwnMessage(message: Message, userId: number): boolean {
  return message.fromMe && (message.userId === null || message.userId === userId);
}

/** Whether the user may edit the message now: own text, not deleted, within 15 minutes. */
export function canEditMessage(message: Message, userId: number, now: number = Date.now()): boolean {
  if (!isOwnMessage(message, userId) || message.isDeleted) return false;
  if (message.mediaType !== 'chat' || message.mediaUrl) return false;
  return now - Date.parse(message.createdAt) <= EDIT_WINDOW_MS;
}

/** Whether the user may delete the message: own and not deleted yet. */
export function canDeleteMessage(message: Message, userId: number): boolean {
  return isOwnMessage(message, userId) && !message.isDeleted;
}

/** Reactions grouped by emoji, with counts, in first-seen order. */
export function groupReactions(message: Pick<Message, 'reactions'>): Array<{ type: string; count: number; mine: boolean }> {
  const groups = new Map<string, { type: string; count: number; mine: boolean }>();
  for (const reaction of message.reactions ?? []) {
    if (!reaction.type) continue;
    const group = groups.get(reaction.type) ?? { type: reaction.type, count: 0, mine: false };
    group.count += 1;
    group.mine ||= reaction.fromMe;
    groups.set(reaction.type, group);
  }
  return [...groups.values()];
}
