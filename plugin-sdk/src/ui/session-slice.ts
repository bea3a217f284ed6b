import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SessionUser } from '../shared/session';

/**
 * - `restoring`: a token is stored and the session user is being fetched (`GET /auth/me`);
 * - `authenticated`: the user is known;
 * - `anonymous`: no session (private routes send to /login).
 */
export type SessionStatus = 'restoring' | 'authenticated' | 'anonymous';

/**
 * Why a session ended: the user logged out, the server refused the token, another device took over, or
 * the company's subscription expired (the router then shows /financeiro-aberto).
 */
export type SessionEndReason = 'logout' | 'expired' | 'takeover' | 'subscription';

/** The session part of the store. */
export interface SessionState {
  status: SessionStatus;
  user: SessionUser | null;
  endedBy: SessionEndReason | null;
  /**
   * The due date (`YYYY-MM-DD`) of an expired subscription: of the signed-in company, whose session then
   * reaches only the pay screen (/financeiro-aberto), or of one that ended the session.
   */
  subscriptionDueDate: string | null;
}

/** The initial session: restoring when a token is stored, anonymous otherwise. */
export function initialSessionState(hasToken: boolean): SessionState {
  return { status: hasToken ? 'restoring' : 'anonymous', user: null, endedBy: null, subscriptionDueDate: null };
}

/**
 * The due date of the user's company when the server said it has passed (`user.expired`), else null. The
 * server's calendar decides, not this device's clock: a device a day ahead must not lock a paid company,
 * nor one behind unlock an expired one. An answer without the verdict locks nothing; the server's 402 on
 * the next call does (`subscriptionExpired`).
 */
export function expiredDueDate(user: SessionUser): string | null {
  if (user.expired !== true) return null;
  return typeof user.company?.dueDate === 'string' ? user.company.dueDate : '';
}

/** The session slice: who is logged in. The token itself lives in local storage, not in the store. */
export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState(false),
  reducers: {
    /** A login, a restored session or a refresh produced the session user. */
    sessionStarted(state, action: PayloadAction<SessionUser>) {
      state.status = 'authenticated';
      state.user = action.payload;
      state.endedBy = null;
      state.subscriptionDueDate = expiredDueDate(action.payload);
    },
    /**
     * A field of the session user changed on the server (a preference saved from a screen): the session's copy
     * follows, so screens that start from it (the tickets panel's width) open with the saved value. Ignored
     * when another user is signed in by then.
     */
    sessionUserChanged(state, action: PayloadAction<{ id: number; changes: Partial<SessionUser> }>) {
      if (state.user?.id !== action.payload.id) return;
      state.user = { ...state.user, ...action.payload.changes, id: state.user.id };
      // a payment moves the company's due date: the session unlocks with it
      if (state.subscriptionDueDate !== null) state.subscriptionDueDate = expiredDueDate(state.user);
    },
    /**
     * The session is over; the token has already been removed. A session already ended keeps its first
     * reason: a socket refused after the subscription ended it must not send the user to /login instead.
     */
    sessionEnded(state, action: PayloadAction<SessionEndReason>) {
      if (state.status === 'anonymous' && state.endedBy !== null) return;
      state.status = 'anonymous';
      state.user = null;
      state.endedBy = action.payload;
      state.subscriptionDueDate = null;
    },
    /**
     * The server answered 402 `ERR_SUBSCRIPTION_EXPIRED`. A signed-in session stays, limited to the pay
     * screen (the router shows /financeiro-aberto); a session not yet known ends with that reason.
     */
    subscriptionExpired(state, action: PayloadAction<string | null>) {
      if (state.status === 'authenticated' && state.user) {
        state.subscriptionDueDate = action.payload ?? state.user.company?.dueDate ?? null;
        return;
      }
      state.status = 'anonymous';
      state.user = null;
      state.endedBy = 'subscription';
      state.subscriptionDueDate = action.payload;
    },
  },
  selectors: {
    selectSession: (state) => state,
    selectSessionUser: (state) => state.user,
  },
});

/**
 * Session actions: `sessionStarted(user)` after a login, restore or refresh; `sessionUserChanged({ id, changes })`
 * when a field of the user was saved; `sessionEnded(reason)`;
 * `subscriptionExpired(dueDate)` when the server refuses the session for an expired subscription.
 */
export const { sessionStarted, sessionUserChanged, sessionEnded, subscriptionExpired } = sessionSlice.actions;
/** Session selectors over the root state. */
export const { selectSession, selectSessionUser } = sessionSlice.selectors;
