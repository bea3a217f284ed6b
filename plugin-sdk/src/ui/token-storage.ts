/** Where the access token is kept (docs/product/tickets-and-inbox.md#calls-and-realtime-events: every request carries the bearer token from local storage). */
export const TOKEN_KEY = 'token';

/** The access token store: local storage in the browser, any `Storage` in tests. */
export interface TokenStore {
  read(): string | null;
  write(token: string): void;
  clear(): void;
}

/** A token store over a `Storage` (local storage by default); storage failures count as "no token". */
export function createTokenStore(storage: () => Storage | undefined = () => globalThis.localStorage): TokenStore {
  return {
    read() {
      try {
        return storage()?.getItem(TOKEN_KEY) || null;
      } catch {
        return null;
      }
    },
    write(token) {
      try {
        storage()?.setItem(TOKEN_KEY, token);
      } catch {
        // storage full or blocked: the session lasts for this page only
      }
    },
    clear() {
      try {
        storage()?.removeItem(TOKEN_KEY);
      } catch {
        // nothing stored
      }
    },
  };
}

/** The page's token store (local storage). */
export const tokens: TokenStore = createTokenStore();
