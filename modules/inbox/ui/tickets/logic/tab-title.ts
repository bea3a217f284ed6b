/**
 * The browser tab's title with the number of tickets waiting to be read (docs/product/tickets-and-inbox.md#constants-and-limits): a circled digit
 * (① … ⑳) for 1 to 20, the count in brackets beyond, nothing for none.
 */

const CIRCLED_ONE = 0x2460;
const MAX_CIRCLED = 20;

/** ① … ⑳ for 1 to 20; null outside that range. */
export function circledNumber(count: number): string | null {
  if (!Number.isInteger(count) || count < 1 || count > MAX_CIRCLED) return null;
  return String.fromCodePoint(CIRCLED_ONE + count - 1);
}

/** The unread mark of the title: '' for none, ① … ⑳, else `(N)`. */
export function unreadMark(count: number): string {
  if (count <= 0) return '';
  return circledNumber(count) ?? `(${count})`;
}
