import { api, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type { AppMessageEvent, RatingChoice, Ticket, TicketEvent, TicketLog, TicketStatus } from '../../../shared/types';
import {
  applyAppMessageEventToList,
  applyTicketEvent,
  applyTicketToList,
  removeTicketFromList,
  type TicketListArgs,
  type TicketPages,
  type TicketsPage,
  ticketListParams,
} from '../logic/ticket-list';
import { listViewerFromState, TICKETS_TAG_TYPES } from './cache';

/** `POST /tickets` body. */
export interface CreateTicketBody {
  contactId: number;
  userId?: number | null;
  status?: TicketStatus;
  queueId?: number | null;
  whatsappId?: number | null;
}

/** `PUT /tickets/:id` body: accept, return to queue, resolve, ignore, reopen, transfer, integration. */
export interface UpdateTicketBody {
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
  msgTransfer?: string;
  isTransfered?: boolean;
  sendFarewellMessage?: boolean;
  /** The rating modal's choice on a resolve. */
  ratingId?: RatingChoice;
  amountUsedBotQueues?: number;
  useIntegration?: boolean;
}

const TICKET_CHANNEL = { channel: 'ticket' } as const;
const APP_MESSAGE_CHANNEL = { channel: 'appMessage' } as const;

export const ticketsApi = api.enhanceEndpoints({ addTagTypes: [...TICKETS_TAG_TYPES] }).injectEndpoints({
  endpoints: (build) => ({
    /**
     * `GET /tickets`, page after page (40 a page) into one cache entry per list. Kept live by
     * `company-{id}-ticket` and `company-{id}-appMessage`: a ticket moves to its place, enters a tab it
     * now matches and leaves one it no longer matches.
     */
    listTickets: build.infiniteQuery<TicketsPage, TicketListArgs, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage, _pages, lastPageParam) => (lastPage.hasMore ? lastPageParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({ url: '/tickets', params: ticketListParams(queryArg, pageParam) }),
      providesTags: [{ type: 'TicketList', id: 'LIST' }],
      async onCacheEntryAdded(args, lifecycle) {
        const viewer = listViewerFromState(lifecycle.getState());
        if (!viewer) return;
        await Promise.all([
          streamSocketEvent<TicketPages, TicketEvent>(lifecycle, TICKET_CHANNEL, (draft, event) =>
            applyTicketEvent(draft, event, args, viewer),
          ),
          streamSocketEvent<TicketPages, AppMessageEvent>(lifecycle, APP_MESSAGE_CHANNEL, (draft, event) =>
            applyAppMessageEventToList(draft, event, args, viewer),
          ),
        ]);
      },
    }),

    /** `GET /tickets/u/:uuid`, kept live by the ticket's own events. */
    getTicket: build.query<Ticket, string>({
      query: (uuid) => `/tickets/u/${encodeURIComponent(uuid)}`,
      async onCacheEntryAdded(uuid, lifecycle) {
        await Promise.all([
          streamSocketEvent<Ticket, TicketEvent>(lifecycle, TICKET_CHANNEL, (draft, event) => {
            if (event.action === 'update' && event.ticket.uuid === uuid) Object.assign(draft, event.ticket);
          }),
          streamSocketEvent<Ticket, AppMessageEvent>(lifecycle, APP_MESSAGE_CHANNEL, (draft, event) => {
            if (event.action === 'create' && event.ticket.uuid === uuid) Object.assign(draft, event.ticket);
          }),
        ]);
      },
    }),

    createTicket: build.mutation<Ticket, CreateTicketBody>({
      query: (body) => ({ url: '/tickets', method: 'POST', body }),
      async onQueryStarted(_body, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) patchTicketEverywhere(dispatch, getState(), data);
      },
    }),

    updateTicket: build.mutation<Ticket, { id: number; body: UpdateTicketBody }>({
      query: ({ id, body }) => ({ url: `/tickets/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'TicketLog', id }],
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) patchTicketEverywhere(dispatch, getState(), data);
      },
    }),

    deleteTicket: build.mutation<void, number>({
      query: (id) => ({ url: `/tickets/${id}`, method: 'DELETE' }),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (!ok) return;
        for (const args of ticketsApi.util.selectCachedArgsForQuery(getState() as CacheState, 'listTickets')) {
          dispatch(ticketsApi.util.updateQueryData('listTickets', args, (draft) => removeTicketFromList(draft, id)));
        }
      },
    }),

    /** `POST /tickets/closeAll` (admins): the lists are read again afterwards. */
    closeAllTickets: build.mutation<{ closed: number }, { status: TicketStatus; selectedQueueIds?: number[] }>({
      query: (body) => ({ url: '/tickets/closeAll', method: 'POST', body }),
      invalidatesTags: [{ type: 'TicketList', id: 'LIST' }],
    }),

    /** `GET /tickets-log/:ticketId`, newest first. */
    getTicketLog: build.query<TicketLog[], number>({
      query: (ticketId) => `/tickets-log/${ticketId}`,
      providesTags: (_result, _error, ticketId) => [{ type: 'TicketLog', id: ticketId }],
    }),
  }),
});

type CacheState = Parameters<typeof ticketsApi.util.selectCachedArgsForQuery>[0];
type TicketsDispatch = (action: unknown) => unknown;

/**
 * Applies a ticket the server just answered to its read and to every cached list, by the same rules as
 * the socket events (which follow and change nothing more): the screen moves at once.
 */
export function patchTicketEverywhere(dispatch: TicketsDispatch, state: unknown, ticket: Ticket): void {
  const viewer = listViewerFromState(state);
  const cacheState = state as CacheState;
  if (viewer) {
    for (const args of ticketsApi.util.selectCachedArgsForQuery(cacheState, 'listTickets')) {
      dispatch(ticketsApi.util.updateQueryData('listTickets', args, (draft) => applyTicketToList(draft, ticket, args, viewer)));
    }
  }
  if (ticketsApi.util.selectCachedArgsForQuery(cacheState, 'getTicket').includes(ticket.uuid)) {
    dispatch(ticketsApi.util.upsertQueryData('getTicket', ticket.uuid, ticket));
  }
}

/** Changes fields of a cached ticket read (the contact's bot flag after a toggle). */
export function patchTicketRead(dispatch: TicketsDispatch, uuid: string, recipe: (draft: Ticket) => void): void {
  dispatch(ticketsApi.util.updateQueryData('getTicket', uuid, recipe));
}

export const {
  useListTicketsInfiniteQuery,
  useGetTicketQuery,
  useCreateTicketMutation,
  useUpdateTicketMutation,
  useDeleteTicketMutation,
  useCloseAllTicketsMutation,
  useGetTicketLogQuery,
} = ticketsApi;
