import { describe, expect, it } from 'vitest';
import { type ListQueryState, listArgsFor, openTabsFor } from './views';

const base: ListQueryState = {
  view: 'open',
  tab: 'open',
  search: '',
  searchOnMessages: false,
  tags: [],
  users: [],
  statusFilter: [],
  whatsapps: [],
  queueIds: [],
  showAll: false,
  unreadOnly: false,
};
const agent = { canShowAll: false, isAdmin: false };
const admin = { canShowAll: true, isAdmin: true };

describe('the lists the views ask for (docs/product/tickets-and-inbox.md#screens-and-routes, docs/product/roles-and-permissions.md#roles-in-the-inbox)', () => {
  it('has a group tab only with allowGroup', () => {
    expect(openTabsFor(false)).toEqual(['open', 'pending']);
    expect(openTabsFor(true)).toEqual(['open', 'pending', 'group']);
  });

  it('asks the open view by tab, and the closed view for closed tickets', () => {
    expect(listArgsFor(base, agent)).toEqual({ status: 'open', showAll: false });
    expect(listArgsFor(base, agent, 'pending')).toEqual({ status: 'pending', showAll: false });
    expect(listArgsFor({ ...base, view: 'closed' }, agent)).toEqual({ status: 'closed', showAll: false });
  });

  it('uses showAll only for users who may (admins, allUserChat)', () => {
    expect(listArgsFor({ ...base, showAll: true }, agent).showAll).toBe(false);
    expect(listArgsFor({ ...base, showAll: true }, admin).showAll).toBe(true);
  });

  it('filters by users only for admins, and by status only in the search view', () => {
    expect(listArgsFor({ ...base, users: [3] }, agent).users).toBeUndefined();
    expect(listArgsFor({ ...base, users: [3, 1] }, admin).users).toEqual([1, 3]);
    expect(listArgsFor({ ...base, statusFilter: ['closed'] }, admin).statusFilter).toBeUndefined();
    expect(listArgsFor({ ...base, view: 'search', statusFilter: ['closed'] }, admin)).toEqual({ statusFilter: ['closed'] });
  });

  it('sends the search with its messages option in the search view, without a status', () => {
    expect(listArgsFor({ ...base, view: 'search', search: ' ana ', searchOnMessages: true, unreadOnly: true }, agent)).toEqual({
      searchParam: 'ana',
      searchOnMessages: true,
      withUnreadMessages: true,
    });
  });

  it('gives equal questions equal arguments, whatever the order filters were picked in', () => {
    expect(listArgsFor({ ...base, queueIds: [2, 1], tags: [9, 4] }, agent)).toEqual(
      listArgsFor({ ...base, queueIds: [1, 2], tags: [4, 9] }, agent),
    );
  });
});
