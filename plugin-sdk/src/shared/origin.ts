/**
 * A site's origin as browsers send it in `Origin`: `https://shop.example:8443` (scheme, host and port, the
 * default port dropped, the host lower-cased); null for anything else — another scheme, a path, a query,
 * a fragment, credentials, or no URL at all. Allowed-origin lists (the webchat widget, the kanban's embed
 * keys) store origins in this form and compare the request's header in it, and the connection editor
 * checks what it sends the same way.
 */
export function normalizeOrigin(origin: string): string | null {
  try {
    const url = new URL(origin.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) return null;
    return url.origin;
  } catch {
    return null;
  }
}
