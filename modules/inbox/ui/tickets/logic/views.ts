import type { TicketStatus } from '../../../shared/types';
import type { TicketListArgs } from './ticket-list';

/** The list's views (docs/product/tickets-and-inbox.md#screens-and-routes): open (with its tabs), closed (resolved), and search. */
export type TicketsView = 'open' | 'closed' | 'search';
/** The tabs of the open view: assigned ('Atendendo'), pending ('Aguardando'), and groups. */
export type OpenTab = 'open' | 'pending' | 'group';

/** What the filters and the search box hold. */
export interface ListQueryState {
  view: TicketsView;
  tab: OpenTab;
  search: string;
  searchOnMessages: boolean;
  tags: number[];
  users: number[];
  statusFilter: TicketStatus[];
  whatsapps: number[];
  queueIds: number[];
  showAll: boolean;
  unreadOnly: boolean;
}

/** The tabs of the open view for a user: groups only with allowGroup (docs/product/roles-and-permissions.md#roles-in-the-inbox). */
export function openTabsFor(allowGroup: boolean): OpenTab[] {
  return allowGroup ? ['open', 'pending', 'group'] : ['open', 'pending'];
}

/**
 * The `GET /tickets` arguments of a view (and of a tab of the open view). showAll only counts for users
 * who may use it (docs/product/roles-and-permissions.md#roles-in-the-inbox); users only for admins; status filters only in the search view. Empty
 * filters are left out, so equal questions share one cache entry.
 */
export function listArgsFor(
  state: ListQueryState,
  powers: { canShowAll: boolean; isAdmin: boolean },
  tab: OpenTab = state.tab,
): TicketListArgs {
  const args: TicketListArgs = {};
  if (state.view === 'open') args.status = tab;
  else if (state.view === 'closed') args.status = 'closed';
  else {
    const search = state.search.trim();
    if (search) args.searchParam = search;
    if (search && state.searchOnMessages) args.searchOnMessages = true;
    if (state.statusFilter.length > 0) args.statusFilter = [...state.statusFilter];
  }
  if (state.view !== 'search') args.showAll = powers.canShowAll && state.showAll;
  if (state.queueIds.length > 0) args.queueIds = [...state.queueIds].sort((a, b) => a - b);
  if (state.tags.length > 0) args.tags = [...state.tags].sort((a, b) => a - b);
  if (powers.isAdmin && state.users.length > 0) args.users = [...state.users].sort((a, b) => a - b);
  if (state.whatsapps.length > 0) args.whatsapps = [...state.whatsapps].sort((a, b) => a - b);
  if (state.unreadOnly) args.withUnreadMessages = true;
  return args;
}
