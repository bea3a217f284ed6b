/**
 * Where the public routes send a user who just became authenticated. A login goes to /tickets
 * (docs/product/tickets-and-inbox.md#states-and-transitions); a user who opens a public route with a session goes to / (#screens-and-routes).
 *
 * The login can't navigate by itself: the router's location updates run as transitions while the store's
 * session update renders at once, so the public-route guard would redirect first. The guard performs the
 * one navigation instead, to the destination the login left here.
 */
let destination: string | null = null;

/** Sets (or, with null, clears) the destination of the next redirect away from a public route. */
export function setPostLoginDestination(path: string | null): void {
  destination = path;
}

/** The destination for an authenticated user on a public route. */
export function postLoginDestination(): string {
  return destination ?? '/';
}
