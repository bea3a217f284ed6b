import type { Dispatch } from '@reduxjs/toolkit';
import { type BaseQueryFn, type FetchArgs, type FetchBaseQueryError, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import type { AuthResponse } from '../shared/session';
import { currentLanguage } from './i18n';
import { sessionEnded, sessionStarted, subscriptionExpired } from './session-slice';
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
 * The due date (or null) when an answer is the server refusing the session for an expired subscription
 * (402 `{ "error": "ERR_SUBSCRIPTION_EXPIRED", "dueDate": "YYYY-MM-DD" }`); undefined for any other answer.
 */
function expiredSubscription(status: unknown, body: unknown): string | null | undefined {
  if (status !== 402 || errorCodeOf({ data: body }) !== 'ERR_SUBSCRIPTION_EXPIRED') return undefined;
  const { dueDate } = body as { dueDate?: unknown };
  return typeof dueDate === 'string' ? dueDate : null;
}

/**
 * The base query of docs/product/tickets-and-inbox.md#states-and-transitions and #calls-and-realtime-events: the bearer token from local storage and credentials on every call;
 * a 403 refreshes the token (`POST /auth/refresh_token`, one refresh in flight at a time) and retries the
 * call once when it failed for `ERR_TOKEN_EXPIRED`; a 401, or a refresh that fails, removes the token
 * and ends the session (the router then shows /login). A 402 `ERR_SUBSCRIPTION_EXPIRED`, from a call or
 * from the refresh, dispatches `subscriptionExpired(dueDate)` and keeps the token: a signed-in session
 * stays, limited to the pay screen (the router then shows /financeiro-aberto).
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
      // the interface's language: what the server picks its default customer texts by (a farewell)
      if (!headers.has('accept-language')) headers.set('accept-language', currentLanguage());
      return headers;
    },
  });

  /** Ends the session when an answer says the subscription expired; true when it did. */
  const endIfSubscriptionExpired = (dispatch: Dispatch, getState: () => unknown, status: unknown, body: unknown): boolean => {
    const dueDate = expiredSubscription(status, body);
    if (dueDate === undefined) return false;
    // a signed-in session keeps its token: it still reaches the pay screen, and works everywhere once paid
    const signedIn = (getState() as { session?: { status?: string } }).session?.status === 'authenticated';
    if (!signedIn) {
      tokens.clear();
      dispatch(sessionEnded('subscription'));
    }
    dispatch(subscriptionExpired(dueDate));
    return true;
  };

  /** How a refresh ended: a new token, a refusal, or a refusal for an expired subscription. */
  type RefreshOutcome = 'renewed' | 'refused' | 'subscription';
  let inFlight: Promise<RefreshOutcome> | null = null;
  const refresh = (dispatch: Dispatch): Promise<RefreshOutcome> => {
    inFlight ??= (async (): Promise<RefreshOutcome> => {
      try {
        const response = await fetchFn(`${baseUrl}/auth/refresh_token`, {
          method: 'POST',
          credentials: 'include',
          headers: { accept: 'application/json' },
        });
        if (!response.ok) {
          const body: unknown = response.status === 402 ? await response.json().catch(() => null) : null;
          // a refresh refused: no token is left to keep, so the session ends, with the subscription as reason
          return endIfSubscriptionExpired(dispatch, () => ({}), response.status, body) ? 'subscription' : 'refused';
        }
        const session = (await response.json()) as Partial<AuthResponse>;
        if (typeof session.token !== 'string' || !session.user) return 'refused';
        tokens.write(session.token);
        dispatch(sessionStarted(session.user));
        return 'renewed';
      } catch {
        return 'refused';
      }
    })().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
  const refreshSession = async (dispatch: Dispatch): Promise<boolean> => (await refresh(dispatch)) === 'renewed';

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
      const outcome = renewedMeanwhile ? 'renewed' : await refresh(api.dispatch);
      // a refresh refused for the subscription has already ended the session, with its reason
      if (outcome === 'refused') endSession(api.dispatch);
      if (outcome !== 'renewed') return result;
      if (errorCodeOf(result.error) === 'ERR_TOKEN_EXPIRED') result = await raw(args, api, extraOptions);
    }
    if (result.error?.status === 401) endSession(api.dispatch);
    if (result.error) endIfSubscriptionExpired(api.dispatch, api.getState, result.error.status, result.error.data);
    return result;
  };

  return { baseQuery, refreshSession };
}
