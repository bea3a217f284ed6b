/**
 * A shortcode as saved: trimmed, without the leading '/' the composer's trigger adds (docs/product/tickets-and-inbox.md#screens-and-routes: text
 * beginning with '/' lists shortcode matches). A shortcode saved as `/oi` would only be found by typing
 * `//oi`, so the slash typed out of habit is dropped; an empty result is a missing shortcode.
 */
export function normalizeShortcode(value: string | null | undefined): string {
  return (value ?? '').trim().replace(/^\/+/, '').trim();
}
