import { describe, expect, it } from 'vitest';
import { type AdminUser, applyUserEvent, mergeUsersPage, type UsersPage } from './api';

const user = (id: number, name: string, email = `${name.toLowerCase()}@acme.test`) =>
  ({ id, name, email, online: false }) as AdminUser;

describe('live users lists', () => {
  it('patches an online ping into the row, adds created users matching the search, and drops deleted ones', () => {
    const page: UsersPage = { users: [user(1, 'Ana'), user(2, 'Bruna')], count: 2, hasMore: false };
    applyUserEvent(page, { action: 'update', user: { id: 2, online: true } }, '');
    expect(page.users[1]).toMatchObject({ id: 2, name: 'Bruna', online: true });
    applyUserEvent(page, { action: 'create', user: user(3, 'Caio') }, 'bru');
    expect(page.users.map((row) => row.id)).toEqual([1, 2]);
    applyUserEvent(page, { action: 'create', user: user(3, 'Caio') }, 'cai');
    expect(page).toMatchObject({ count: 3, users: [{ id: 3 }, { id: 1 }, { id: 2 }] });
    // the same creation again (the socket after the mutation's own patch) changes nothing
    applyUserEvent(page, { action: 'create', user: user(3, 'Caio') }, '');
    expect(page.count).toBe(3);
    applyUserEvent(page, { action: 'delete', userId: 1 }, '');
    applyUserEvent(page, { action: 'delete', userId: 1 }, '');
    expect(page).toMatchObject({ count: 2, users: [{ id: 3 }, { id: 2 }] });
  });

  it('replaces the list with page 1 and appends later pages without repeats', () => {
    const first = [user(1, 'Ana'), user(2, 'Bruna')];
    expect(mergeUsersPage(first, [user(2, 'Bruna'), user(3, 'Caio')], 2).map((row) => row.id)).toEqual([1, 2, 3]);
    expect(mergeUsersPage(first, [user(4, 'Dora')], 1).map((row) => row.id)).toEqual([4]);
  });
});
