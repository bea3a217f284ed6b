import { api, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type { Contact, ContactEvent, ContactExtraInfo } from '../../../shared/types';
import { DIRECTORY_TAG_TYPES, matchesSearch, mergePage, type PageArgs, removeRow, upsertRow, withoutPage } from './cache';

/** `GET /contacts`: one page (40 rows) of the company's contacts. */
export interface ContactPage {
  contacts: Contact[];
  hasMore: boolean;
  count: number;
}

/** `POST /contacts`, `PUT /contacts/:id` body. */
export interface ContactBody {
  name: string;
  /** Required by the API: null keeps a contact without a number; a masked number sent back is unchanged. */
  number: string | null;
  email?: string;
  extraInfo?: ContactExtraInfo[];
  disableBot?: boolean;
}

/** One row of `POST /contacts/import`. */
export interface ImportContactRow {
  name: string;
  number: string;
  email?: string;
}

/** `POST /contacts/import` answer. */
export interface ImportContactsResult {
  created: number;
  skipped: number;
  errors: Array<{ row: number; error: string }>;
}

/** Most rows one `POST /contacts/import` takes. */
export const IMPORT_CHUNK_SIZE = 5_000;

const CONTACT_CHANNEL = { channel: 'contact' } as const;

/** A contact created within the last minute of its last change: a creation rather than an update. */
export function isNewContact(contact: Pick<Contact, 'createdAt' | 'updatedAt'>): boolean {
  const created = Date.parse(contact.createdAt);
  const updated = Date.parse(contact.updatedAt);
  return Number.isFinite(created) && Number.isFinite(updated) && updated - created < 60_000;
}

/** Whether a contact belongs in a list searched with `search` (name, number or e-mail, as the server matches). */
function contactMatches(contact: Contact, search: string): boolean {
  return matchesSearch(search, contact.name, contact.number, contact.email);
}

const contactsApi = api.enhanceEndpoints({ addTagTypes: [...DIRECTORY_TAG_TYPES] }).injectEndpoints({
  endpoints: (build) => ({
    /** `GET /contacts/:id`, kept live by `company-{id}-contact`. */
    getContact: build.query<Contact, number>({
      query: (id) => `/contacts/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Contact', id }],
      onCacheEntryAdded: (id, lifecycle) =>
        streamSocketEvent<Contact, ContactEvent>(lifecycle, CONTACT_CHANNEL, (draft, event) => {
          if (event.action === 'update' && event.contact.id === id) Object.assign(draft, event.contact);
        }),
    }),

    /**
     * `GET /contacts`: pages of one search merged into one cache entry (infinite scroll); page 1 starts
     * it again. Kept live by `company-{id}-contact`.
     */
    listContacts: build.query<ContactPage, PageArgs>({
      query: ({ searchParam, pageNumber }) => ({ url: '/contacts', params: { searchParam, pageNumber } }),
      serializeQueryArgs: ({ endpointName, queryArgs }) => `${endpointName}(${JSON.stringify(withoutPage(queryArgs))})`,
      merge: (current, incoming, { arg }) => ({
        contacts: mergePage(current.contacts, incoming.contacts, arg.pageNumber),
        hasMore: incoming.hasMore,
        count: incoming.count,
      }),
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
      providesTags: [{ type: 'Contact', id: 'LIST' }],
      onCacheEntryAdded: (args, lifecycle) =>
        streamSocketEvent<ContactPage, ContactEvent>(lifecycle, CONTACT_CHANNEL, (draft, event) => {
          if (event.action === 'delete') {
            if (removeRow(draft.contacts, event.contactId)) draft.count = Math.max(0, draft.count - 1);
            return;
          }
          const matches = contactMatches(event.contact, args.searchParam);
          if (!matches) {
            if (removeRow(draft.contacts, event.contact.id)) draft.count = Math.max(0, draft.count - 1);
            return;
          }
          // a contact not loaded yet is added only when it is new, or when the whole list is loaded: an old
          // contact updated elsewhere (a message, a new picture) belongs to a page not fetched yet
          const insert = !draft.hasMore || isNewContact(event.contact);
          if (upsertRow(draft.contacts, event.contact, insert) === 'added') draft.count += 1;
        }),
    }),

    createContact: build.mutation<Contact, ContactBody>({
      query: (body) => ({ url: '/contacts', method: 'POST', body }),
      async onQueryStarted(_body, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        for (const args of contactsApi.util.selectCachedArgsForQuery(getState(), 'listContacts')) {
          if (!contactMatches(data, args.searchParam)) continue;
          dispatch(
            contactsApi.util.updateQueryData('listContacts', args, (draft) => {
              if (upsertRow(draft.contacts, data, true) === 'added') draft.count += 1;
            }),
          );
        }
      },
    }),

    updateContact: build.mutation<Contact, Partial<ContactBody> & { id: number }>({
      query: ({ id, ...body }) => ({ url: `/contacts/${id}`, method: 'PUT', body }),
      async onQueryStarted(_body, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) patchContactEverywhere(dispatch, getState(), data);
      },
    }),

    deleteContact: build.mutation<void, number>({
      query: (id) => ({ url: `/contacts/${id}`, method: 'DELETE' }),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (!ok) return;
        for (const args of contactsApi.util.selectCachedArgsForQuery(getState(), 'listContacts')) {
          dispatch(
            contactsApi.util.updateQueryData('listContacts', args, (draft) => {
              if (removeRow(draft.contacts, id)) draft.count = Math.max(0, draft.count - 1);
            }),
          );
        }
      },
    }),

    /** `PUT /contacts/toggleDisableBot/:id`. */
    toggleDisableBot: build.mutation<{ disableBot: boolean }, number>({
      query: (id) => ({ url: `/contacts/toggleDisableBot/${id}`, method: 'PUT' }),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) patchContactFields(dispatch, getState(), id, { disableBot: data.disableBot });
      },
    }),

    /** `PUT /contacts/toggleAcceptAudio/:contactId`. */
    toggleAcceptAudio: build.mutation<{ acceptAudioMessage: boolean }, number>({
      query: (id) => ({ url: `/contacts/toggleAcceptAudio/${id}`, method: 'PUT' }),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) patchContactFields(dispatch, getState(), id, { acceptAudioMessage: data.acceptAudioMessage });
      },
    }),

    /** `PUT /contacts/block/:id` `{ active }`: `active: false` blocks, `true` unblocks. */
    blockContact: build.mutation<Contact, { id: number; active: boolean }>({
      query: ({ id, active }) => ({ url: `/contacts/block/${id}`, method: 'PUT', body: { active } }),
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) patchContactEverywhere(dispatch, getState(), data);
      },
    }),

    /** `POST /contacts/import` (≤ 5,000 rows a call). */
    importContacts: build.mutation<ImportContactsResult, { contacts: ImportContactRow[] }>({
      query: (body) => ({ url: '/contacts/import', method: 'POST', body }),
      invalidatesTags: [{ type: 'Contact', id: 'LIST' }],
    }),
  }),
});

type ContactsDispatch = (action: unknown) => unknown;

/** Applies a saved contact to its read and to every cached page that holds it. */
function patchContactEverywhere(dispatch: ContactsDispatch, state: unknown, contact: Contact): void {
  const rootState = state as Parameters<typeof contactsApi.util.selectCachedArgsForQuery>[0];
  for (const args of contactsApi.util.selectCachedArgsForQuery(rootState, 'listContacts')) {
    dispatch(
      contactsApi.util.updateQueryData('listContacts', args, (draft) => {
        upsertRow(draft.contacts, contact, false);
      }),
    );
  }
  if (contactsApi.util.selectCachedArgsForQuery(rootState, 'getContact').includes(contact.id)) {
    dispatch(contactsApi.util.upsertQueryData('getContact', contact.id, contact));
  }
}

/** Changes some fields of one contact in every cached read and page. */
function patchContactFields(dispatch: ContactsDispatch, state: unknown, id: number, fields: Partial<Contact>): void {
  const rootState = state as Parameters<typeof contactsApi.util.selectCachedArgsForQuery>[0];
  for (const args of contactsApi.util.selectCachedArgsForQuery(rootState, 'listContacts')) {
    dispatch(
      contactsApi.util.updateQueryData('listContacts', args, (draft) => {
        const row = draft.contacts.find((item) => item.id === id);
        if (row) Object.assign(row, fields);
      }),
    );
  }
  dispatch(
    contactsApi.util.updateQueryData('getContact', id, (draft) => {
      Object.assign(draft, fields);
    }),
  );
}

export { contactsApi };

export const {
  useGetContactQuery,
  useListContactsQuery,
  useCreateContactMutation,
  useUpdateContactMutation,
  useDeleteContactMutation,
  useToggleDisableBotMutation,
  useToggleAcceptAudioMutation,
  useBlockContactMutation,
  useImportContactsMutation,
} = contactsApi;
