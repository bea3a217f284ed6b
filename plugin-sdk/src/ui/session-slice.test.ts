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

describe("the server's verdict on expiry", () => {
  const withDue = (dueDate: string, expired?: boolean) =>
    ({ ...user(9), company: { id: 2, name: 'Acme', dueDate }, ...(expired === undefined ? {} : { expired }) }) as SessionUser;

  it('locks the session by the server’s word, whatever this device’s clock says', () => {
    // a due date already past here, but the server (a day behind) says paid up: no lock
    const paid = sessionSlice.reducer(initialSessionState(true), sessionStarted(withDue('2000-01-01', false)));
    expect(paid.subscriptionDueDate).toBeNull();
    // a due date in the future here, but the server says past due: locked, with its date
    const lapsed = sessionSlice.reducer(initialSessionState(true), sessionStarted(withDue('2999-12-31', true)));
    expect(lapsed.subscriptionDueDate).toBe('2999-12-31');
    // no verdict (an older server): nothing locks here; the server's 402 does
    expect(sessionSlice.reducer(initialSessionState(true), sessionStarted(withDue('2000-01-01'))).subscriptionDueDate).toBeNull();
  });

  it('unlocks when the server says the payment went through', () => {
    const lapsed = sessionSlice.reducer(initialSessionState(true), sessionStarted(withDue('2000-01-01', true)));
    const paid = sessionSlice.reducer(
      lapsed,
      sessionUserChanged({
        id: 9,
        changes: { company: { id: 2, name: 'Acme', dueDate: '2999-12-31' }, expired: false } as never,
      }),
    );
    expect(paid.subscriptionDueDate).toBeNull();
  });
});
