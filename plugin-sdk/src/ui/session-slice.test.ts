import type { SessionUser } from '@balcao/plugin-sdk/ui';
import { describe, expect, it } from 'vitest';
import { initialSessionState, sessionSlice, sessionStarted, sessionUserChanged } from './session-slice';

const user = (id: number) => ({ id, name: `User ${id}`, defaultTicketsManagerWidth: 550 }) as unknown as SessionUser;

describe('the session user changed on the server', () => {
  it("updates the signed-in user's copy", () => {
    const started = sessionSlice.reducer(initialSessionState(true), sessionStarted(user(7)));
    const changed = sessionSlice.reducer(started, sessionUserChanged({ id: 7, changes: { defaultTicketsManagerWidth: 650 } }));
    expect(changed.user).toMatchObject({ id: 7, name: 'User 7', defaultTicketsManagerWidth: 650 });
    expect(changed.status).toBe('authenticated');
  });

  it('is ignored for another user, or when nobody is signed in', () => {
    const started = sessionSlice.reducer(initialSessionState(true), sessionStarted(user(7)));
    const other = sessionSlice.reducer(started, sessionUserChanged({ id: 8, changes: { defaultTicketsManagerWidth: 650 } }));
    expect(other.user).toMatchObject({ id: 7, defaultTicketsManagerWidth: 550 });
    const anonymous = sessionSlice.reducer(initialSessionState(false), sessionUserChanged({ id: 7, changes: { name: 'x' } }));
    expect(anonymous.user).toBeNull();
  });
});
