import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SessionUser } from '../shared/session';

/**
 * - `restoring`: a token is stored and the session user is being fetched (`GET /auth/me`);
 * - `authenticated`: the user is known;
 * - `anonymous`: no session (private routes send to /login).
 */
export type SessionStatus = 'restoring' | 'authenticated' | 'anonymous';

/** Why a session ended: the user logged out, the server refused the token, or another device took over. */
export type SessionEndReason = 'logout' | 'expired' | 'takeover';

/** The session part of the store. */
export interface SessionState {
  status: SessionStatus;
  user: SessionUser | null;
  endedBy: SessionEndReason | null;
}

/** The initial session: restoring when a token is stored, anonymous otherwise. */
export function initialSessionState(hasToken: boolean): SessionState {
  return { status: hasToken ? 'restoring' : 'anonymous', user: null, endedBy: null };
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
    },
    /** The session is over; the token has already been removed. */
    sessionEnded(state, action: PayloadAction<SessionEndReason>) {
      state.status = 'anonymous';
      state.user = null;
      state.endedBy = action.payload;
    },
  },
  selectors: {
    selectSession: (state) => state,
    selectSessionUser: (state) => state.user,
  },
});

/** Session actions: `sessionStarted(user)` after a login, restore or refresh; `sessionEnded(reason)`. */
export const { sessionStarted, sessionEnded } = sessionSlice.actions;
/** Session selectors over the root state. */
export const { selectSession, selectSessionUser } = sessionSlice.selectors;
