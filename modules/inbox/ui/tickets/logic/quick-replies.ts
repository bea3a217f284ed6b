import type { QuickMessage } from '../../../shared/types';
import { truncate } from './format';

/** docs/product/tickets-and-inbox.md#screens-and-routes: quick-reply list items are cut to 90 characters. */
export const QUICK_REPLY_LABEL_MAX = 90;

/**
 * The shortcode being typed when the composer's text starts with '/' (docs/product/tickets-and-inbox.md#screens-and-routes), or null when the list
 * should not show: no leading '/', or the text already goes past the first word — unless a shortcode of
 * several words (`bom dia`) still starts with it, which `list` (the user's quick messages) tells.
 */
export function quickReplySearch(text: string, list: readonly QuickMessage[] = []): string | null {
  if (!text.startsWith('/')) return null;
  const term = text.slice(1);
  if (!/\s/.test(term)) return term;
  return matchQuickReplies(list, term).length > 0 ? term : null;
}

/** The quick messages whose shortcode starts with the typed term (case-insensitive), active ones only. */
export function matchQuickReplies(list: readonly QuickMessage[], term: string): QuickMessage[] {
  const needle = term.toLowerCase();
  return list.filter((item) => item.status !== false && item.shortcode.toLowerCase().startsWith(needle));
}

/** The text of a list item: `shortcode - message`, cut to 90 characters. */
export function quickReplyLabel(item: Pick<QuickMessage, 'shortcode' | 'message'>): string {
  return truncate(`${item.shortcode} - ${item.message}`, QUICK_REPLY_LABEL_MAX);
}
