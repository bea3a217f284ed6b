import { api, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type { QuickMessage, QuickMessageEvent } from '../../../shared/types';
import {
  DIRECTORY_TAG_TYPES,
  matchesSearch,
  mergePage,
  type PageArgs,
  profileOf,
  removeRow,
  upsertRow,
  userIdOf,
  withoutPage,
} from './cache';

/** `GET /quick-messages`: one page of the quick messages the user sees. */
export interface QuickMessagePage {
  records: QuickMessage[];
  hasMore: boolean;
}

/** `POST /quick-messages`, `PUT /quick-messages/:id` body. */
export interface QuickMessageBody {
  shortcode: string;
  message: string;
  geral?: boolean;
  visao?: boolean;
  status?: boolean;
}

/** `POST /quick-messages/:id/media-upload` arguments. */
export interface QuickMessageMediaUpload {
  id: number;
  file: Blob;
  /** The file's name (taken from the File when omitted). */
  fileName?: string;
}

const QUICK_MESSAGE_CHANNEL = { channel: 'quickemessage' } as const;

/** A user sees their own quick messages and the general ones (docs/product/automation.md#quick-message-visibility). */
function visibleTo(record: QuickMessage, userId: number | undefined): boolean {
  return record.geral || record.userId === userId;
}

/**
 * Whether a message belongs in the page list (`GET /quick-messages`) of the session in `state`: an admin
 * lists every message of the company (and gets every message's events), a user their own and the
 * general ones. The composer's list is the user's own and the general ones, admins included.
 */
function listedFor(record: QuickMessage, state: unknown): boolean {
  return profileOf(state) === 'admin' || visibleTo(record, userIdOf(state));
}

const quickMessagesApi = api.enhanceEndpoints({ addTagTypes: [...DIRECTORY_TAG_TYPES] }).injectEndpoints({
  endpoints: (build) => ({
    /** `GET /quick-messages`: pages of one search merged into one entry (infinite scroll), kept live. */
    pageQuickMessages: build.query<QuickMessagePage, PageArgs>({
      query: ({ searchParam, pageNumber }) => ({ url: '/quick-messages', params: { searchParam, pageNumber } }),
      serializeQueryArgs: ({ endpointName, queryArgs }) => `${endpointName}(${JSON.stringify(withoutPage(queryArgs))})`,
      merge: (current, incoming, { arg }) => ({
        records: mergePage(current.records, incoming.records, arg.pageNumber),
        hasMore: incoming.hasMore,
      }),
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
      providesTags: [{ type: 'QuickMessage', id: 'LIST' }],
      onCacheEntryAdded: (args, lifecycle) =>
        streamSocketEvent<QuickMessagePage, QuickMessageEvent>(lifecycle, QUICK_MESSAGE_CHANNEL, (draft, event) => {
          if (event.action === 'delete') {
            removeRow(draft.records, event.id);
            return;
          }
          const { record } = event;
          if (listedFor(record, lifecycle.getState()) && matchesSearch(args.searchParam, record.shortcode, record.message)) {
            upsertRow(draft.records, record, true);
          } else {
            removeRow(draft.records, record.id);
          }
        }),
    }),

    /** `GET /quick-messages/list`: active messages the user may use, by shortcode prefix ('/' in the composer). */
    listQuickMessagesForComposer: build.query<QuickMessage[], string>({
      query: (searchParam) => ({ url: '/quick-messages/list', params: { searchParam } }),
      providesTags: [{ type: 'QuickMessage', id: 'LIST' }],
      onCacheEntryAdded: (searchParam, lifecycle) =>
        streamSocketEvent<QuickMessage[], QuickMessageEvent>(lifecycle, QUICK_MESSAGE_CHANNEL, (draft, event) => {
          if (event.action === 'delete') {
            removeRow(draft, event.id);
            return;
          }
          const { record } = event;
          const userId = userIdOf(lifecycle.getState());
          const prefix = searchParam.trim().toLowerCase();
          if (record.status && visibleTo(record, userId) && record.shortcode.toLowerCase().startsWith(prefix)) {
            upsertRow(draft, record, true);
          } else {
            removeRow(draft, record.id);
          }
        }),
    }),

    /** `GET /quick-messages/:id`. */
    getQuickMessage: build.query<QuickMessage, number>({
      query: (id) => `/quick-messages/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'QuickMessage', id }],
    }),

    createQuickMessage: build.mutation<QuickMessage, QuickMessageBody>({
      query: (body) => ({ url: '/quick-messages', method: 'POST', body }),
      async onQueryStarted(_body, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) patchQuickMessageEverywhere(dispatch, getState(), data, true);
      },
    }),

    updateQuickMessage: build.mutation<QuickMessage, QuickMessageBody & { id: number }>({
      query: ({ id, ...body }) => ({ url: `/quick-messages/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'QuickMessage', id }],
      async onQueryStarted(_body, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) patchQuickMessageEverywhere(dispatch, getState(), data, false);
      },
    }),

    deleteQuickMessage: build.mutation<void, number>({
      query: (id) => ({ url: `/quick-messages/${id}`, method: 'DELETE' }),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (!ok) return;
        const state = getState() as RootStateOfQuickMessages;
        for (const args of quickMessagesApi.util.selectCachedArgsForQuery(state, 'pageQuickMessages')) {
          dispatch(
            quickMessagesApi.util.updateQueryData('pageQuickMessages', args, (draft) => void removeRow(draft.records, id)),
          );
        }
        for (const args of quickMessagesApi.util.selectCachedArgsForQuery(state, 'listQuickMessagesForComposer')) {
          dispatch(
            quickMessagesApi.util.updateQueryData('listQuickMessagesForComposer', args, (draft) => void removeRow(draft, id)),
          );
        }
      },
    }),

    /** `POST /quick-messages/:id/media-upload`, multipart `typeArch=quickMessage` and `file`. */
    uploadQuickMessageMedia: build.mutation<QuickMessage, QuickMessageMediaUpload>({
      query: ({ id, file, fileName }) => {
        const form = new FormData();
        form.append('typeArch', 'quickMessage');
        const name = fileName ?? (file instanceof File ? file.name : 'file');
        form.append('file', file, name);
        return { url: `/quick-messages/${id}/media-upload`, method: 'POST', body: form };
      },
      invalidatesTags: (_result, _error, { id }) => [{ type: 'QuickMessage', id }],
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) patchQuickMessageEverywhere(dispatch, getState(), data, false);
      },
    }),

    /** `DELETE /quick-messages/:id/media-upload`: removes the attachment. */
    deleteQuickMessageMedia: build.mutation<QuickMessage, number>({
      query: (id) => ({ url: `/quick-messages/${id}/media-upload`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [{ type: 'QuickMessage', id }],
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) patchQuickMessageEverywhere(dispatch, getState(), data, false);
      },
    }),
  }),
});

type RootStateOfQuickMessages = Parameters<typeof quickMessagesApi.util.selectCachedArgsForQuery>[0];

/** Puts a saved quick message into every cached list it belongs in. */
function patchQuickMessageEverywhere(
  dispatch: (action: unknown) => unknown,
  rawState: unknown,
  record: QuickMessage,
  insert: boolean,
) {
  const state = rawState as RootStateOfQuickMessages;
  const userId = userIdOf(state);
  for (const args of quickMessagesApi.util.selectCachedArgsForQuery(state, 'pageQuickMessages')) {
    const belongs = listedFor(record, state) && matchesSearch(args.searchParam, record.shortcode, record.message);
    dispatch(
      quickMessagesApi.util.updateQueryData('pageQuickMessages', args, (draft) => {
        if (belongs) upsertRow(draft.records, record, insert);
        else removeRow(draft.records, record.id);
      }),
    );
  }
  for (const args of quickMessagesApi.util.selectCachedArgsForQuery(state, 'listQuickMessagesForComposer')) {
    const belongs =
      record.status && visibleTo(record, userId) && record.shortcode.toLowerCase().startsWith(args.trim().toLowerCase());
    dispatch(
      quickMessagesApi.util.updateQueryData('listQuickMessagesForComposer', args, (draft) => {
        if (belongs) upsertRow(draft, record, insert);
        else removeRow(draft, record.id);
      }),
    );
  }
}

export { quickMessagesApi };

export const {
  usePageQuickMessagesQuery,
  useListQuickMessagesForComposerQuery,
  useGetQuickMessageQuery,
  useCreateQuickMessageMutation,
  useUpdateQuickMessageMutation,
  useDeleteQuickMessageMutation,
  useUploadQuickMessageMediaMutation,
  useDeleteQuickMessageMediaMutation,
} = quickMessagesApi;
