import { api, type SessionState, streamSocketEvent } from '@balcao/plugin-sdk/ui';

/** The users and settings calls (docs/product/administration.md#calls-and-realtime-events Users, Settings), in the shell's one RTK Query cache. */

export type Toggle = 'enabled' | 'disabled';

/** A user as `GET /users` and `GET /users/:userId` answer it. */
export interface AdminUser {
  id: number;
  name: string;
  email: string;
  profile: 'admin' | 'user';
  super: boolean;
  companyId: number;
  profileImage: string | null;
  queues: Array<{ id: number; name: string; color: string }>;
  whatsappId: number | null;
  startWork: string;
  endWork: string;
  farewellMessage: string | null;
  allTicket: 'enable' | 'disable';
  allowGroup: boolean;
  defaultTheme: 'light' | 'dark';
  defaultMenu: 'open' | 'closed';
  allHistoric: Toggle;
  allUserChat: Toggle;
  userClosePendingTicket: Toggle;
  showDashboard: Toggle;
  allowRealTime: Toggle;
  allowConnections: Toggle;
  defaultTicketsManagerWidth: number;
  online: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The body of `POST /users` and `PUT /users/:userId`. */
export type UserBody = Partial<
  Omit<AdminUser, 'id' | 'super' | 'companyId' | 'profileImage' | 'queues' | 'online' | 'createdAt' | 'updatedAt'>
> & {
  password?: string;
  queueIds?: number[];
};

export interface UsersPage {
  users: AdminUser[];
  count: number;
  hasMore: boolean;
}

export interface UsersPageArgs {
  searchParam: string;
  pageNumber: number;
}

/** `company-{id}-user`: ours carry the whole user; the core's online pings carry `{ id, online }` only. */
export type UserEvent =
  | { action: 'create' | 'update'; user: Partial<AdminUser> & { id: number } }
  | { action: 'delete'; userId: number };

export interface SettingPair {
  key: string;
  value: string;
}

export interface QueueOption {
  id: number;
  name: string;
  color: string;
}

const companyIdOf = (state: unknown) => (state as { session?: SessionState }).session?.user?.companyId;

/** Whether a user belongs in a list searched for `search` (name or e-mail, case-insensitive). */
export function matchesUserSearch(search: string, user: Pick<AdminUser, 'name' | 'email'>): boolean {
  const needle = search.trim().toLowerCase();
  return !needle || user.name.toLowerCase().includes(needle) || user.email.toLowerCase().includes(needle);
}

/**
 * Applies a user event to a loaded page list: updates patch the row (an online ping only its status), a
 * created user joins the list when it matches the search, a deleted one leaves it.
 */
export function applyUserEvent(draft: UsersPage, event: UserEvent, search: string): void {
  if (event.action === 'delete') {
    const before = draft.users.length;
    draft.users = draft.users.filter((user) => user.id !== event.userId);
    draft.count -= before - draft.users.length;
    return;
  }
  const index = draft.users.findIndex((user) => user.id === event.user.id);
  if (index >= 0) {
    draft.users[index] = { ...draft.users[index], ...event.user } as AdminUser;
    return;
  }
  const full = event.user as AdminUser;
  if (event.action === 'create' && full.email !== undefined && matchesUserSearch(search, full)) {
    draft.users.unshift(full);
    draft.count += 1;
  }
}

/** Puts a page into the merged list: page 1 replaces it; later pages append rows not already there. */
export function mergeUsersPage(current: AdminUser[], incoming: AdminUser[], pageNumber: number): AdminUser[] {
  if (pageNumber <= 1) return [...incoming];
  const known = new Set(current.map((user) => user.id));
  return [...current, ...incoming.filter((user) => !known.has(user.id))];
}

const teamApi = api.enhanceEndpoints({ addTagTypes: ['AdminUser', 'AdminSettings'] }).injectEndpoints({
  endpoints: (build) => ({
    /** `GET /users`: pages of one search merged into one cache entry (infinite scroll), kept live. */
    pageAdminUsers: build.query<UsersPage, UsersPageArgs>({
      query: ({ searchParam, pageNumber }) => ({ url: '/users', params: { searchParam: searchParam || undefined, pageNumber } }),
      serializeQueryArgs: ({ endpointName, queryArgs }) => `${endpointName}(${JSON.stringify(queryArgs.searchParam)})`,
      merge: (current, incoming, { arg }) => ({
        users: mergeUsersPage(current.users, incoming.users, arg.pageNumber),
        count: incoming.count,
        hasMore: incoming.hasMore,
      }),
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
      providesTags: [{ type: 'AdminUser', id: 'LIST' }],
      async onCacheEntryAdded(args, lifecycle) {
        if (companyIdOf(lifecycle.getState()) === undefined) return;
        await streamSocketEvent<UsersPage, UserEvent>(lifecycle, { channel: 'user' }, (draft, event) =>
          applyUserEvent(draft, event, args.searchParam),
        );
      },
    }),

    getAdminUser: build.query<AdminUser, number>({
      query: (id) => `/users/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'AdminUser', id }],
    }),

    createAdminUser: build.mutation<AdminUser, UserBody>({
      query: (body) => ({ url: '/users', method: 'POST', body }),
      onQueryStarted: (_body, { dispatch, getState, queryFulfilled }) =>
        queryFulfilled.then(
          ({ data }) => patchUserLists(dispatch, getState(), { action: 'create', user: data }),
          () => undefined,
        ),
    }),

    updateAdminUser: build.mutation<AdminUser, UserBody & { id: number }>({
      query: ({ id, ...body }) => ({ url: `/users/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'AdminUser', id }],
      onQueryStarted: (_body, { dispatch, getState, queryFulfilled }) =>
        queryFulfilled.then(
          ({ data }) => patchUserLists(dispatch, getState(), { action: 'update', user: data }),
          () => undefined,
        ),
    }),

    deleteAdminUser: build.mutation<void, number>({
      query: (id) => ({ url: `/users/${id}`, method: 'DELETE' }),
      onQueryStarted: (id, { dispatch, getState, queryFulfilled }) =>
        queryFulfilled.then(
          () => patchUserLists(dispatch, getState(), { action: 'delete', userId: id }),
          () => undefined,
        ),
    }),

    uploadUserAvatar: build.mutation<AdminUser, { id: number; file: File }>({
      query: ({ id, file }) => {
        const form = new FormData();
        form.append('userId', String(id));
        form.append('typeArch', 'user');
        form.append('profileImage', file);
        return { url: `/users/${id}/media-upload`, method: 'POST', body: form };
      },
      invalidatesTags: (_result, _error, { id }) => [{ type: 'AdminUser', id }],
      onQueryStarted: (_args, { dispatch, getState, queryFulfilled }) =>
        queryFulfilled.then(
          ({ data }) => patchUserLists(dispatch, getState(), { action: 'update', user: data }),
          () => undefined,
        ),
    }),

    /** `GET /queue`: the company's queues, for the user dialog's queue choice. */
    listUserQueueOptions: build.query<QueueOption[], void>({
      query: () => '/queue',
    }),

    /** `GET /settings`: the company's settings by key. */
    listCompanySettings: build.query<Record<string, string>, void>({
      query: () => '/settings',
      transformResponse: (pairs: SettingPair[]) => Object.fromEntries(pairs.map((pair) => [pair.key, pair.value])),
      providesTags: ['AdminSettings'],
    }),

    /** `PUT /settings/:key`: saves one setting; the cached list takes the stored value. */
    updateCompanySetting: build.mutation<SettingPair, SettingPair>({
      query: ({ key, value }) => ({ url: `/settings/${encodeURIComponent(key)}`, method: 'PUT', body: { value } }),
      async onQueryStarted(_pair, { dispatch, queryFulfilled }) {
        const saved = await queryFulfilled.then(
          (result) => result.data,
          () => null,
        );
        if (saved) {
          dispatch(
            teamApi.util.updateQueryData('listCompanySettings', undefined, (draft) => {
              draft[saved.key] = saved.value;
            }),
          );
        }
      },
    }),
  }),
});

type TeamState = Parameters<typeof teamApi.util.selectCachedArgsForQuery>[0];

/** Applies a saved change to every loaded users list at once (the socket event, when it comes, changes nothing more). */
function patchUserLists(dispatch: (action: unknown) => unknown, state: unknown, event: UserEvent): void {
  for (const args of teamApi.util.selectCachedArgsForQuery(state as TeamState, 'pageAdminUsers')) {
    dispatch(teamApi.util.updateQueryData('pageAdminUsers', args, (draft) => applyUserEvent(draft, event, args.searchParam)));
  }
}

export { teamApi };

export const {
  usePageAdminUsersQuery,
  useGetAdminUserQuery,
  useCreateAdminUserMutation,
  useUpdateAdminUserMutation,
  useDeleteAdminUserMutation,
  useUploadUserAvatarMutation,
  useListUserQueueOptionsQuery,
  useListCompanySettingsQuery,
  useUpdateCompanySettingMutation,
} = teamApi;
