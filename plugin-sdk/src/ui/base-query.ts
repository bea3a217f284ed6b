import type { Dispatch } from '@reduxjs/toolkit';
import { type BaseQueryFn, type FetchArgs, type FetchBaseQueryError, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import type { AuthResponse } from '../shared/session';
import { sessionEnded, sessionStarted } from './session-slice';
import type { TokenStore } from './token-storage';

/** The base query every endpoint runs through. */
export type AuthBaseQuery = BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError>;

/** Options of `createAuthBaseQuery`. */
export interface AuthBaseQueryOptions {
  /** The API base address (`/api`). */
  baseUrl: string;
  tokens: TokenStore;
  /** The fetch implementation (the page's `fetch` by default, looked up on each call). */
  fetchFn?: typeof fetch;
}

/** The base query, plus the refresh it uses (the socket reuses it when its handshake is refused). */
export interface AuthBaseQueryKit {
  baseQuery: AuthBaseQuery;
  /** Rotates the refresh cookie for a new access token; one refresh at a time, callers share it. */
  refreshSession(dispatch: Dispatch): Promise<boolean>;
}

/** The session calls themselves: their answers never trigger a refresh nor end a session. */
const SESSION_CALLS = /^\/auth\/(login|refresh_token|logout|signup)$/;

/** The `ERR_*` code of an API error (`{ "error": "ERR_..." }` body), if it has one. */
export function errorCodeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const data = (error as { data?: unknown }).data;
  if (typeof data === 'object' && data !== null) {
    const code = (data as { error?: unknown }).error;
    if (typeof code === 'string' && code.length > 0) return code;
  }
  return undefined;
}

/**
 * The base query of 1-core §4 and §7: the bearer token from local storage and credentials on every call;
 * a 403 refreshes the token (`POST /auth/refresh_token`, one refresh in flight at a time) and retries the
 * call once when it failed for `ERR_TOKEN_EXPIRED`; a 401, or a refresh that fails, removes the token
 * and ends the session (the router then shows /login).
 */
export function createAuthBaseQuery(options: AuthBaseQueryOptions): AuthBaseQueryKit {
  const { baseUrl, tokens } = options;
  const fetchFn: typeof fetch = (input, init) => (options.fetchFn ?? globalThis.fetch)(input, init);
  const raw = fetchBaseQuery({
    baseUrl,
    credentials: 'include',
    fetchFn,
    prepareHeaders(headers) {
      const token = tokens.read();
      if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
      return headers;
    },
  });

  let inFlight: Promise<boolean> | null = null;
  const refreshSession = (dispatch: Dispatch): Promise<boolean> => {
    inFlight ??= (async () => {
      try {
        const response = await fetchFn(`${baseUrl}/auth/refresh_token`, {
          method: 'POST',
          credentials: 'include',
          headers: { accept: 'application/json' },
        });
        if (!response.ok) return false;
        const session = (await response.json()) as Partial<AuthResponse>;
        if (typeof session.token !== 'string' || !session.user) return false;
        tokens.write(session.token);
        dispatch(sessionStarted(session.user));
        return true;
      } catch {
        return false;
      }
    })().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  const endSession = (dispatch: Dispatch) => {
    tokens.clear();
    dispatch(sessionEnded('expired'));
  };

  const baseQuery: AuthBaseQuery = async (args, api, extraOptions) => {
    const path = (typeof args === 'string' ? args : args.url).split('?')[0] ?? '';
    if (SESSION_CALLS.test(path)) return raw(args, api, extraOptions);
    const sentToken = tokens.read();
    let result = await raw(args, api, extraOptions);
    if (result.error?.status === 403) {
      // Another call may have refreshed while this one was on the wire: its new token is good to retry with.
      const renewedMeanwhile = sentToken !== null && tokens.read() !== null && tokens.read() !== sentToken;
      const refreshed = renewedMeanwhile || (await refreshSession(api.dispatch));
      if (!refreshed) {
        endSession(api.dispatch);
        return result;
      }
      if (errorCodeOf(result.error) === 'ERR_TOKEN_EXPIRED') result = await raw(args, api, extraOptions);
    }
    if (result.error?.status === 401) endSession(api.dispatch);
    return result;
  };

  return { baseQuery, refreshSession };
}
