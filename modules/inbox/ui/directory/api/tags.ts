import { api, type CacheEntryLifecycle, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type { Tag, TagEvent, TagRef } from '../../../shared/types';
import {
  companyIdOf,
  DIRECTORY_TAG_TYPES,
  matchesSearch,
  mergePage,
  type PageArgs,
  removeRow,
  upsertRow,
  withoutPage,
} from './cache';

/** `GET /tags`: one page of the company's tags. */
export interface TagPage {
  tags: Tag[];
  hasMore: boolean;
}

/** `POST /tags`, `PUT /tags/:id` body. */
export interface TagBody {
  name: string;
  color?: string;
  kanban?: 0 | 1;
  timeLane?: number | null;
  nextLaneId?: number | null;
  greetingMessageLane?: string | null;
  rollbackLaneId?: number | null;
}

/** `GET /tags` arguments. */
export interface TagPageArgs extends PageArgs {
  kanban?: KanbanFilter;
}

/** `POST /tags/sync` body: the contact's tags become exactly these (names without id are created). */
export interface SyncContactTagsBody {
  contactId: number;
  tags: Array<{ id?: number; name: string }>;
}

/**
 * The tag event names: docs/product/automation.md#states-and-transitions and the contract write `company{id}-tag` (no hyphen after
 * "company"), docs/product/administration.md#calls-and-realtime-events writes `company-{id}-tag`. Both are followed: every patch is an
 * idempotent upsert or removal, so a server emitting either (or both) keeps the lists right.
 */
export function tagEventNames(companyId: number): [string, string] {
  return [`company${companyId}-tag`, `company-${companyId}-tag`];
}

/** The kanban filter of a list: true (lanes), false (plain tags) or undefined (every tag); 0/1 accepted. */
export type KanbanFilter = boolean | 0 | 1 | undefined;

/** Whether a tag belongs in a list filtered by kanban (undefined: every tag). */
function kanbanMatches(tag: Tag, kanban: KanbanFilter): boolean {
  return kanban === undefined || (tag.kanban === 1) === Boolean(kanban);
}

/** The draft `updateCachedData` hands to its recipe. */
type DraftOf<Data> = Parameters<Parameters<CacheEntryLifecycle<Data>['updateCachedData']>[0]>[0];

/** Follows the tag events for one cache entry. */
async function streamTags<Data>(lifecycle: CacheEntryLifecycle<Data>, apply: (draft: DraftOf<Data>, event: TagEvent) => void) {
  const companyId = companyIdOf(lifecycle.getState());
  if (companyId === undefined) return;
  await Promise.all(tagEventNames(companyId).map((event) => streamSocketEvent<Data, TagEvent>(lifecycle, { event }, apply)));
}

const kanbanParam = (kanban: KanbanFilter) => (kanban === undefined ? {} : { kanban: kanban ? 1 : 0 });

const tagsApi = api.enhanceEndpoints({ addTagTypes: [...DIRECTORY_TAG_TYPES] }).injectEndpoints({
  endpoints: (build) => ({
    /** `GET /tags/list`: every tag (or only kanban lanes / only plain tags), kept live. */
    listTags: build.query<Tag[], { kanban?: KanbanFilter } | undefined>({
      query: (args) => ({ url: '/tags/list', params: kanbanParam(args?.kanban) }),
      providesTags: [{ type: 'Tag', id: 'LIST' }],
      onCacheEntryAdded: (args, lifecycle) =>
        streamTags<Tag[]>(lifecycle, (draft, event) => {
          if (event.action === 'delete') {
            removeRow(draft, event.tagId);
            return;
          }
          if (kanbanMatches(event.tag, args?.kanban)) upsertRow(draft, event.tag, true);
          else removeRow(draft, event.tag.id);
        }),
    }),

    /** `GET /tags`: pages of one search merged into one cache entry (infinite scroll), kept live. */
    pageTags: build.query<TagPage, TagPageArgs>({
      query: ({ searchParam, pageNumber, kanban }) => ({
        url: '/tags',
        params: { searchParam, pageNumber, ...kanbanParam(kanban) },
      }),
      serializeQueryArgs: ({ endpointName, queryArgs }) => `${endpointName}(${JSON.stringify(withoutPage(queryArgs))})`,
      merge: (current, incoming, { arg }) => ({
        tags: mergePage(current.tags, incoming.tags, arg.pageNumber),
        hasMore: incoming.hasMore,
      }),
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
      providesTags: [{ type: 'Tag', id: 'LIST' }],
      onCacheEntryAdded: (args, lifecycle) =>
        streamTags<TagPage>(lifecycle, (draft, event) => {
          if (event.action === 'delete') {
            removeRow(draft.tags, event.tagId);
            return;
          }
          if (kanbanMatches(event.tag, args.kanban) && matchesSearch(args.searchParam, event.tag.name)) {
            upsertRow(draft.tags, event.tag, true);
          } else {
            removeRow(draft.tags, event.tag.id);
          }
        }),
    }),

    /** `GET /tags/:id`. */
    getTag: build.query<Tag, number>({
      query: (id) => `/tags/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Tag', id }],
    }),

    createTag: build.mutation<Tag, TagBody>({
      query: (body) => ({ url: '/tags', method: 'POST', body }),
      async onQueryStarted(_body, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) patchTagEverywhere(dispatch, getState(), data, true);
      },
    }),

    updateTag: build.mutation<Tag, TagBody & { id: number }>({
      query: ({ id, ...body }) => ({ url: `/tags/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Tag', id }],
      async onQueryStarted(_body, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) patchTagEverywhere(dispatch, getState(), data, false);
      },
    }),

    deleteTag: build.mutation<void, number>({
      query: (id) => ({ url: `/tags/${id}`, method: 'DELETE' }),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (!ok) return;
        const state = getState() as RootStateOfTags;
        for (const args of tagsApi.util.selectCachedArgsForQuery(state, 'pageTags')) {
          dispatch(tagsApi.util.updateQueryData('pageTags', args, (draft) => void removeRow(draft.tags, id)));
        }
        for (const args of tagsApi.util.selectCachedArgsForQuery(state, 'listTags')) {
          dispatch(tagsApi.util.updateQueryData('listTags', args, (draft) => void removeRow(draft, id)));
        }
      },
    }),

    /** `POST /tags/sync`: sets a contact's tags. */
    syncContactTags: build.mutation<{ tags: TagRef[] }, SyncContactTagsBody>({
      query: (body) => ({ url: '/tags/sync', method: 'POST', body }),
      // new names become new tags; counts change
      invalidatesTags: (_result, _error, { contactId }) => [
        { type: 'Tag', id: 'LIST' },
        { type: 'Contact', id: contactId },
      ],
    }),
  }),
});

type RootStateOfTags = Parameters<typeof tagsApi.util.selectCachedArgsForQuery>[0];

/** Puts a saved tag into every cached list it belongs in. */
function patchTagEverywhere(dispatch: (action: unknown) => unknown, rawState: unknown, tag: Tag, insert: boolean): void {
  const state = rawState as RootStateOfTags;
  for (const args of tagsApi.util.selectCachedArgsForQuery(state, 'pageTags')) {
    const belongs = kanbanMatches(tag, args.kanban) && matchesSearch(args.searchParam, tag.name);
    dispatch(
      tagsApi.util.updateQueryData('pageTags', args, (draft) => {
        if (belongs) upsertRow(draft.tags, tag, insert);
        else removeRow(draft.tags, tag.id);
      }),
    );
  }
  for (const args of tagsApi.util.selectCachedArgsForQuery(state, 'listTags')) {
    const belongs = kanbanMatches(tag, args?.kanban);
    dispatch(
      tagsApi.util.updateQueryData('listTags', args, (draft) => {
        if (belongs) upsertRow(draft, tag, insert);
        else removeRow(draft, tag.id);
      }),
    );
  }
}

export { tagsApi };

export const {
  useListTagsQuery,
  usePageTagsQuery,
  useGetTagQuery,
  useCreateTagMutation,
  useUpdateTagMutation,
  useDeleteTagMutation,
  useSyncContactTagsMutation,
} = tagsApi;
