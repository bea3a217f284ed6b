import { api } from '@balcao/plugin-sdk/ui';
import type { BoardAnswer, EmbedKey, EmbedKeyBody, KanbanTicket, Lane, LaneBody, LaneCount } from './types';

/** Cache tags of the kanban's reads. */
const TAGS = ['KanbanLanes', 'KanbanTickets', 'KanbanEmbedKeys'] as const;

export interface BoardArgs {
  queueIds?: number[];
  startDate?: string;
  endDate?: string;
}

/** The board's first load: the first `perLane` cards of every lane, with every lane's count. */
export interface BoardHeadArgs extends BoardArgs {
  perLane: number;
}

/** More cards of one lane (null: the default lane), as the lane scrolls. */
export interface CardPageArgs extends BoardArgs {
  lane: number | null;
  offset: number;
  limit: number;
}

/** The board's filters as query parameters (the documented `queueIds=[1,2]`, the creation days). */
const boardParams = ({ queueIds, startDate, endDate }: BoardArgs) => ({
  ...(queueIds ? { queueIds: JSON.stringify(queueIds) } : {}),
  ...(startDate ? { startDate } : {}),
  ...(endDate ? { endDate } : {}),
});

export interface LanePageArgs {
  searchParam: string;
  pageNumber: number;
}

/**
 * The kanban's calls on the shell's one API. The board's moves use the inbox's ticket-tag calls exactly
 * as docs/product/administration.md#states-and-transitions says (DELETE the old lane, then PUT the new one); lanes are written through the
 * inbox's `/tags` with kanban 1.
 */
export const kanbanApi = api.enhanceEndpoints({ addTagTypes: [...TAGS] }).injectEndpoints({
  endpoints: (build) => ({
    kanbanLanes: build.query<Lane[], void>({
      query: () => '/tag/kanban',
      transformResponse: (response: { lista: Lane[] }) => response.lista,
      providesTags: ['KanbanLanes'],
    }),
    // the board loads page by page (docs/kanban.md "Pages"): the first cards of every lane, then more of
    // a lane as it scrolls; a server answering the whole board (no laneCounts) is taken as it is
    kanbanTickets: build.query<BoardAnswer, BoardHeadArgs>({
      query: ({ perLane, ...args }) => ({ url: '/ticket/kanban', params: { ...boardParams(args), perLane } }),
      transformResponse: (response: { tickets: KanbanTicket[]; laneCounts?: LaneCount[] }) => ({
        tickets: response.tickets,
        laneCounts: response.laneCounts ?? null,
      }),
      providesTags: ['KanbanTickets'],
    }),
    kanbanCardPage: build.query<{ tickets: KanbanTicket[]; count: number | null }, CardPageArgs>({
      query: ({ lane, offset, limit, ...args }) => ({
        url: '/ticket/kanban',
        params: { ...boardParams(args), lane: lane ?? 'default', offset, limit },
      }),
      transformResponse: (response: { tickets: KanbanTicket[]; laneCounts?: LaneCount[] }) => ({
        tickets: response.tickets,
        count: response.laneCounts?.[0]?.count ?? null,
      }),
      providesTags: ['KanbanTickets'],
      // pages scrolled past are dropped soon: a board reload refetches the ones in view
      keepUnusedDataFor: 30,
    }),
    kanbanRemoveLane: build.mutation<void, number>({
      query: (ticketId) => ({ url: `/ticket-tags/${ticketId}`, method: 'DELETE' }),
    }),
    kanbanAddLane: build.mutation<void, { ticketId: number; laneId: number }>({
      query: ({ ticketId, laneId }) => ({ url: `/ticket-tags/${ticketId}/${laneId}`, method: 'PUT' }),
    }),
    kanbanLanePage: build.query<{ tags: Lane[]; hasMore: boolean }, LanePageArgs>({
      query: ({ searchParam, pageNumber }) => ({
        url: '/tags',
        params: { kanban: 1, pageNumber, ...(searchParam ? { searchParam } : {}) },
      }),
      // pages of one search accumulate (infinite scroll); a new search starts over
      serializeQueryArgs: ({ queryArgs }) => queryArgs.searchParam,
      merge: (current, incoming, { arg }) => {
        if (arg.pageNumber === 1) return incoming;
        const known = new Set(current.tags.map((tag) => tag.id));
        return { tags: [...current.tags, ...incoming.tags.filter((tag) => !known.has(tag.id))], hasMore: incoming.hasMore };
      },
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
      providesTags: ['KanbanLanes'],
    }),
    kanbanCreateLane: build.mutation<Lane, LaneBody>({
      query: (body) => ({ url: '/tags', method: 'POST', body }),
      invalidatesTags: ['KanbanLanes', 'KanbanTickets'],
    }),
    kanbanUpdateLane: build.mutation<Lane, { id: number; body: LaneBody }>({
      query: ({ id, body }) => ({ url: `/tags/${id}`, method: 'PUT', body }),
      invalidatesTags: ['KanbanLanes', 'KanbanTickets'],
    }),
    kanbanDeleteLane: build.mutation<void, number>({
      query: (id) => ({ url: `/tags/${id}`, method: 'DELETE' }),
      invalidatesTags: ['KanbanLanes', 'KanbanTickets'],
    }),
    embedKeys: build.query<EmbedKey[], void>({
      query: () => '/kanban-embed-keys',
      providesTags: ['KanbanEmbedKeys'],
    }),
    createEmbedKey: build.mutation<EmbedKey, EmbedKeyBody>({
      query: (body) => ({ url: '/kanban-embed-keys', method: 'POST', body }),
      invalidatesTags: ['KanbanEmbedKeys'],
    }),
    updateEmbedKey: build.mutation<EmbedKey, { id: number; body: EmbedKeyBody }>({
      query: ({ id, body }) => ({ url: `/kanban-embed-keys/${id}`, method: 'PUT', body }),
      invalidatesTags: ['KanbanEmbedKeys'],
    }),
    revokeEmbedKey: build.mutation<EmbedKey, number>({
      query: (id) => ({ url: `/kanban-embed-keys/${id}/revoke`, method: 'POST' }),
      invalidatesTags: ['KanbanEmbedKeys'],
    }),
    rotateEmbedSecret: build.mutation<EmbedKey, number>({
      query: (id) => ({ url: `/kanban-embed-keys/${id}/secret`, method: 'POST' }),
      invalidatesTags: ['KanbanEmbedKeys'],
    }),
    deleteEmbedKey: build.mutation<void, number>({
      query: (id) => ({ url: `/kanban-embed-keys/${id}`, method: 'DELETE' }),
      invalidatesTags: ['KanbanEmbedKeys'],
    }),
  }),
});

export const {
  useKanbanLanesQuery,
  useKanbanTicketsQuery,
  useKanbanCardPageQuery,
  useKanbanRemoveLaneMutation,
  useKanbanAddLaneMutation,
  useKanbanLanePageQuery,
  useKanbanCreateLaneMutation,
  useKanbanUpdateLaneMutation,
  useKanbanDeleteLaneMutation,
  useEmbedKeysQuery,
  useCreateEmbedKeyMutation,
  useUpdateEmbedKeyMutation,
  useRevokeEmbedKeyMutation,
  useRotateEmbedSecretMutation,
  useDeleteEmbedKeyMutation,
} = kanbanApi;
