import { api } from '@balcao/plugin-sdk/ui';
import type { EmbedKey, EmbedKeyBody, KanbanTicket, Lane, LaneBody } from './types';

/** Cache tags of the kanban's reads. */
const TAGS = ['KanbanLanes', 'KanbanTickets', 'KanbanEmbedKeys'] as const;

export interface BoardArgs {
  queueIds?: number[];
  startDate?: string;
  endDate?: string;
}

export interface LanePageArgs {
  searchParam: string;
  pageNumber: number;
}

/**
 * The kanban's calls on the shell's one API. The board's moves use the inbox's ticket-tag calls exactly
 * as 2-administration §4 says (DELETE the old lane, then PUT the new one); lanes are written through the
 * inbox's `/tags` with kanban 1.
 */
export const kanbanApi = api.enhanceEndpoints({ addTagTypes: [...TAGS] }).injectEndpoints({
  endpoints: (build) => ({
    kanbanLanes: build.query<Lane[], void>({
      query: () => '/tag/kanban',
      transformResponse: (response: { lista: Lane[] }) => response.lista,
      providesTags: ['KanbanLanes'],
    }),
    kanbanTickets: build.query<KanbanTicket[], BoardArgs>({
      query: ({ queueIds, startDate, endDate }) => ({
        url: '/ticket/kanban',
        params: {
          ...(queueIds ? { queueIds: JSON.stringify(queueIds) } : {}),
          ...(startDate ? { startDate } : {}),
          ...(endDate ? { endDate } : {}),
        },
      }),
      transformResponse: (response: { tickets: KanbanTicket[] }) => response.tickets,
      providesTags: ['KanbanTickets'],
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
