import { combineSlices, configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query/react';
import { api } from './api';
import { disconnectCompanySocket, subscribeSocketResync } from './realtime';
import { initialSessionState, sessionEnded, sessionSlice, subscriptionExpired } from './session-slice';
import { tokens } from './token-storage';

/**
 * The root reducer: the API cache and the session, plus whatever slices features inject with
 * `rootReducer.inject(slice)` (see `injectSlice`).
 */
export const rootReducer = combineSlices(api, sessionSlice);

/** The state of the page's store. */
export type RootState = ReturnType<typeof rootReducer>;

const sessionListener = createListenerMiddleware();

/**
 * The one Redux store of the page. It lives in the SDK, a Module Federation singleton, so the host and
 * every plugin remote read and write the same state.
 */
export const store = configureStore({
  reducer: rootReducer,
  preloadedState: { session: initialSessionState(tokens.read() !== null) } as Partial<RootState>,
  middleware: (getDefaultMiddleware) => getDefaultMiddleware().prepend(sessionListener.middleware).concat(api.middleware),
});

// When a session ends, nothing of it may stay behind: cached answers and the company socket go with it.
sessionListener.startListening({
  matcher: isAnyOf(sessionEnded, subscriptionExpired),
  effect: (_action, listenerApi) => {
    disconnectCompanySocket();
    listenerApi.dispatch(api.util.resetApiState());
  },
});

// The page is back online for RTK Query when its company socket is: after a drop, every query on screen
// refetches (refetchOnReconnect), since the socket events that would have patched it were lost meanwhile.
// The browser's own online event isn't used: the socket's return follows it, and a blip the browser never
// noticed (a server restarting) still loses events.
setupListeners(store.dispatch, (dispatch, { onOnline }) => subscribeSocketResync(() => dispatch(onOnline())));

/** The store's dispatch type (thunks included). */
export type AppDispatch = typeof store.dispatch;

/** Adds a feature's own slice to the store (for state that is not a server cache). */
export function injectSlice<Slice extends Parameters<typeof rootReducer.inject>[0]>(slice: Slice) {
  return rootReducer.inject(slice);
}
