import { api, type CacheEntryLifecycle, type SessionState, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type { Campaign, CampaignBody, Connection, ContactList, ContactListItem, ImportState, Paged, Ref } from './types';

/** Cache tags of the campaigns' reads. */
const TAGS = ['Campaign', 'ContactList', 'ContactListItem', 'CampaignSettings'] as const;

export interface PageArgs {
  searchParam: string;
  pageNumber: number;
}

export interface ItemPageArgs extends PageArgs {
  contactListId: number;
}

/** `company-{id}-campaign`: a campaign created, changed (its report too) or deleted. */
interface CampaignEvent {
  action: 'create' | 'update' | 'delete';
  record?: Campaign;
  id?: number;
}

/** `company-{id}-ContactList`: a list changed, or an import's progress. */
interface ContactListEvent {
  action: 'create' | 'update' | 'delete' | 'import';
  record?: ContactList;
  id?: number;
  import?: ImportState;
}

/** `company-{id}-ContactListItem`: an item changed, or the whole list must be read again (`reload`). */
interface ContactListItemEvent {
  action: 'create' | 'update' | 'delete' | 'reload';
  record?: ContactListItem;
  id?: number;
  contactListId?: number;
}

const companyOf = (state: unknown) => (state as { session?: SessionState }).session?.user?.companyId;

/** Puts a page into a merged list: page 1 replaces it, later pages append (rows moved meanwhile replaced). */
function mergePage<T extends { id: number }>(current: T[], incoming: T[], pageNumber: number): T[] {
  if (pageNumber <= 1) return [...incoming];
  const byId = new Map(incoming.map((row) => [row.id, row]));
  const merged = current.map((row) => byId.get(row.id) ?? row);
  const known = new Set(current.map((row) => row.id));
  for (const row of incoming) if (!known.has(row.id)) merged.push(row);
  return merged;
}

function upsert<T extends { id: number }>(rows: T[], row: T, insert: boolean): void {
  const index = rows.findIndex((item) => item.id === row.id);
  if (index >= 0) rows[index] = row;
  else if (insert) rows.unshift(row);
}

function remove<T extends { id: number }>(rows: T[], id: number | undefined): void {
  const index = rows.findIndex((item) => item.id === id);
  if (index >= 0) rows.splice(index, 1);
}

const matches = (search: string, ...texts: Array<string | null | undefined>) => {
  const needle = search.trim().toLowerCase();
  return !needle || texts.some((text) => text?.toLowerCase().includes(needle));
};

/** Follows one of the campaigns' channels for a cache entry. */
function follow<Data, Payload>(
  lifecycle: CacheEntryLifecycle<Data>,
  channel: string,
  apply: (draft: Parameters<Parameters<CacheEntryLifecycle<Data>['updateCachedData']>[0]>[0], payload: Payload) => void,
) {
  if (companyOf(lifecycle.getState()) === undefined) return Promise.resolve();
  return streamSocketEvent<Data, Payload>(lifecycle, { channel }, apply);
}

/** The campaigns' calls (docs/product/automation.md#calls-and-realtime-events) on the shell's one API, kept live over the company socket. */
export const campaignsApi = api.enhanceEndpoints({ addTagTypes: [...TAGS] }).injectEndpoints({
  endpoints: (build) => ({
    campaigns: build.query<Paged<Campaign>, PageArgs>({
      query: ({ searchParam, pageNumber }) => ({
        url: '/campaigns',
        params: { searchParam: searchParam || undefined, pageNumber },
      }),
      serializeQueryArgs: ({ queryArgs }) => `campaigns(${queryArgs.searchParam})`,
      merge: (current, incoming, { arg }) => ({
        ...incoming,
        records: mergePage(current.records, incoming.records, arg.pageNumber),
      }),
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
      providesTags: [{ type: 'Campaign', id: 'LIST' }],
      onCacheEntryAdded: (args, lifecycle) =>
        follow<Paged<Campaign>, CampaignEvent>(lifecycle, 'campaign', (draft, event) => {
          if (event.action === 'delete') remove(draft.records, event.id);
          else if (event.record && matches(args.searchParam, event.record.name)) {
            upsert(draft.records, event.record, event.action === 'create');
          }
        }),
    }),
    campaign: build.query<Campaign, number>({
      query: (id) => `/campaigns/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Campaign', id }],
      onCacheEntryAdded: (id, lifecycle) =>
        follow<Campaign, CampaignEvent>(lifecycle, 'campaign', (draft, event) => {
          if (event.action === 'update' && event.record?.id === id) Object.assign(draft, event.record);
        }),
    }),
    createCampaign: build.mutation<Campaign, CampaignBody>({
      query: (body) => ({ url: '/campaigns', method: 'POST', body }),
      invalidatesTags: [{ type: 'Campaign', id: 'LIST' }],
    }),
    updateCampaign: build.mutation<Campaign, { id: number; body: CampaignBody }>({
      query: ({ id, body }) => ({ url: `/campaigns/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Campaign', id },
        { type: 'Campaign', id: 'LIST' },
      ],
    }),
    deleteCampaign: build.mutation<void, number>({
      query: (id) => ({ url: `/campaigns/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Campaign', id: 'LIST' }],
    }),
    cancelCampaign: build.mutation<Campaign, number>({
      query: (id) => ({ url: `/campaigns/${id}/cancel`, method: 'POST' }),
      invalidatesTags: (_result, _error, id) => [{ type: 'Campaign', id }],
    }),
    restartCampaign: build.mutation<Campaign, number>({
      query: (id) => ({ url: `/campaigns/${id}/restart`, method: 'POST' }),
      invalidatesTags: (_result, _error, id) => [{ type: 'Campaign', id }],
    }),
    uploadCampaignMedia: build.mutation<Campaign, { id: number; file: File }>({
      query: ({ id, file }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: `/campaigns/${id}/media-upload`, method: 'POST', body };
      },
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Campaign', id }],
    }),
    deleteCampaignMedia: build.mutation<Campaign, number>({
      query: (id) => ({ url: `/campaigns/${id}/media-upload`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [{ type: 'Campaign', id }],
    }),

    campaignSettings: build.query<Array<{ key: string; value: string }>, void>({
      query: () => '/campaign-settings',
      providesTags: ['CampaignSettings'],
    }),
    saveCampaignSettings: build.mutation<Array<{ key: string; value: string }>, Record<string, unknown>>({
      query: (settings) => ({ url: '/campaign-settings', method: 'POST', body: { settings } }),
      invalidatesTags: ['CampaignSettings'],
    }),

    contactLists: build.query<Paged<ContactList>, PageArgs>({
      query: ({ searchParam, pageNumber }) => ({
        url: '/contact-lists',
        params: { searchParam: searchParam || undefined, pageNumber },
      }),
      serializeQueryArgs: ({ queryArgs }) => `contactLists(${queryArgs.searchParam})`,
      merge: (current, incoming, { arg }) => ({
        ...incoming,
        records: mergePage(current.records, incoming.records, arg.pageNumber),
      }),
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
      providesTags: [{ type: 'ContactList', id: 'LIST' }],
      onCacheEntryAdded: (args, lifecycle) =>
        follow<Paged<ContactList>, ContactListEvent>(lifecycle, 'ContactList', (draft, event) => {
          if (event.action === 'delete') remove(draft.records, event.id);
          else if (event.record && matches(args.searchParam, event.record.name)) {
            upsert(draft.records, event.record, event.action === 'create');
          }
        }),
    }),
    allContactLists: build.query<ContactList[], void>({
      query: () => '/contact-lists/list',
      providesTags: [{ type: 'ContactList', id: 'ALL' }],
    }),
    contactList: build.query<ContactList, number>({
      query: (id) => `/contact-lists/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'ContactList', id }],
      onCacheEntryAdded: (id, lifecycle) =>
        follow<ContactList, ContactListEvent>(lifecycle, 'ContactList', (draft, event) => {
          if (event.action === 'update' && event.record?.id === id) Object.assign(draft, event.record);
        }),
    }),
    /** The list's latest import (`current`), followed live: its progress, then its outcome. */
    latestImport: build.query<{ current: ImportState | null }, number>({
      query: (id) => `/contact-lists/${id}/import`,
      transformResponse: (current: ImportState | null) => ({ current }),
      onCacheEntryAdded: (id, lifecycle) =>
        follow<{ current: ImportState | null }, ContactListEvent>(lifecycle, 'ContactList', (draft, event) => {
          if (event.action !== 'import' || event.import?.contactListId !== id) return;
          if (draft.current === null || draft.current.id <= event.import.id) draft.current = event.import;
        }),
    }),
    createContactList: build.mutation<ContactList, { name: string }>({
      query: (body) => ({ url: '/contact-lists', method: 'POST', body }),
      invalidatesTags: [
        { type: 'ContactList', id: 'LIST' },
        { type: 'ContactList', id: 'ALL' },
      ],
    }),
    updateContactList: build.mutation<ContactList, { id: number; name: string }>({
      query: ({ id, name }) => ({ url: `/contact-lists/${id}`, method: 'PUT', body: { name } }),
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'ContactList', id },
        { type: 'ContactList', id: 'ALL' },
      ],
    }),
    deleteContactList: build.mutation<void, number>({
      query: (id) => ({ url: `/contact-lists/${id}`, method: 'DELETE' }),
      invalidatesTags: [
        { type: 'ContactList', id: 'LIST' },
        { type: 'ContactList', id: 'ALL' },
      ],
    }),
    uploadContacts: build.mutation<ImportState, { id: number; file: File }>({
      query: ({ id, file }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: `/contact-lists/${id}/upload`, method: 'POST', body };
      },
    }),

    contactListItems: build.query<{ contacts: ContactListItem[]; count: number; hasMore: boolean }, ItemPageArgs>({
      query: ({ searchParam, pageNumber, contactListId }) => ({
        url: '/contact-list-items',
        params: { searchParam: searchParam || undefined, pageNumber, contactListId },
      }),
      serializeQueryArgs: ({ queryArgs }) => `contactListItems(${queryArgs.contactListId},${queryArgs.searchParam})`,
      merge: (current, incoming, { arg }) => ({
        ...incoming,
        contacts: mergePage(current.contacts, incoming.contacts, arg.pageNumber),
      }),
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
      providesTags: (_result, _error, args) => [{ type: 'ContactListItem', id: `LIST-${args.contactListId}` }],
      onCacheEntryAdded: (args, lifecycle) =>
        follow<{ contacts: ContactListItem[]; count: number; hasMore: boolean }, ContactListItemEvent>(
          lifecycle,
          'ContactListItem',
          (draft, event) => {
            if (event.action === 'delete') remove(draft.contacts, event.id);
            else if (
              event.record?.contactListId === args.contactListId &&
              matches(args.searchParam, event.record.name, event.record.number)
            ) {
              upsert(draft.contacts, event.record, event.action === 'create');
            }
          },
        ),
    }),
    saveContactListItem: build.mutation<
      ContactListItem,
      { id?: number; body: { name: string; number: string; email: string; contactListId: number } }
    >({
      query: ({ id, body }) => ({
        url: id ? `/contact-list-items/${id}` : '/contact-list-items',
        method: id ? 'PUT' : 'POST',
        body,
      }),
    }),
    deleteContactListItem: build.mutation<void, number>({
      query: (id) => ({ url: `/contact-list-items/${id}`, method: 'DELETE' }),
    }),

    connections: build.query<Connection[], void>({
      query: () => '/whatsapp',
    }),
    tagChoices: build.query<Ref[], void>({
      query: () => '/tags/list',
    }),
    queueChoices: build.query<Ref[], void>({
      query: () => '/queue',
    }),
    userChoices: build.query<Ref[], string>({
      query: (searchParam) => ({ url: '/users', params: { searchParam, pageNumber: 1 } }),
      transformResponse: (response: { users: Ref[] }) => response.users,
    }),
  }),
});

export const {
  useCampaignsQuery,
  useCampaignQuery,
  useCreateCampaignMutation,
  useUpdateCampaignMutation,
  useDeleteCampaignMutation,
  useCancelCampaignMutation,
  useRestartCampaignMutation,
  useUploadCampaignMediaMutation,
  useDeleteCampaignMediaMutation,
  useCampaignSettingsQuery,
  useSaveCampaignSettingsMutation,
  useContactListsQuery,
  useAllContactListsQuery,
  useContactListQuery,
  useLatestImportQuery,
  useCreateContactListMutation,
  useUpdateContactListMutation,
  useDeleteContactListMutation,
  useUploadContactsMutation,
  useContactListItemsQuery,
  useSaveContactListItemMutation,
  useDeleteContactListItemMutation,
  useConnectionsQuery,
  useTagChoicesQuery,
  useQueueChoicesQuery,
  useUserChoicesQuery,
} = campaignsApi;
