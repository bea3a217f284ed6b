import { api, sessionUserChanged, usePlan } from '@balcao/plugin-sdk/ui';
import type { Queue, UserListItem } from '../../../shared/types';
import { TICKETS_TAG_TYPES } from './cache';

/** A connection (channel session) as the new-ticket dialog and the filters show it (docs/product/tickets-and-inbox.md#entities). */
export interface ConnectionOption {
  id: number;
  name: string;
  channel: string;
  status: string;
}

export const queuesUsersApi = api.enhanceEndpoints({ addTagTypes: [...TICKETS_TAG_TYPES] }).injectEndpoints({
  endpoints: (build) => ({
    /** `GET /queue`: the company's queues. */
    listQueues: build.query<Queue[], void>({
      query: () => '/queue',
      providesTags: [{ type: 'Queue', id: 'LIST' }],
    }),

    /** `GET /users/list`: the company's users (transfer, users filter). */
    listUsers: build.query<UserListItem[], void>({
      query: () => '/users/list',
      providesTags: [{ type: 'UserList', id: 'LIST' }],
    }),

    /**
     * `GET /whatsapp`: the company's connections. They belong to the channels plugin, absent when the plan
     * has no channel: any refusal reads as "no connections", so the dialogs simply don't ask for one.
     */
    listConnections: build.query<ConnectionOption[], void>({
      queryFn: async (_arg, _api, _extra, baseQuery) => {
        const result = await baseQuery('/whatsapp');
        if (result.error || !Array.isArray(result.data)) return { data: [] };
        return { data: result.data as ConnectionOption[] };
      },
      providesTags: [{ type: 'Connection', id: 'LIST' }],
    }),

    /**
     * `PUT /users/toggleChangeWidht/:userId` `{ defaultTicketsManagerWidth }`: the list panel's width. The
     * session user holds the width the screen starts with (docs/product/tickets-and-inbox.md#screens-and-routes: saved on release): once saved, the
     * session's copy follows, so the next visit to the screen opens at the saved width, not at the login's.
     */
    saveTicketsPanelWidth: build.mutation<{ defaultTicketsManagerWidth: number }, { userId: number; width: number }>({
      query: ({ userId, width }) => ({
        url: `/users/toggleChangeWidht/${userId}`,
        method: 'PUT',
        body: { defaultTicketsManagerWidth: width },
      }),
      async onQueryStarted({ userId, width }, { dispatch, queryFulfilled }) {
        const saved = await queryFulfilled.then(
          () => true,
          () => false,
        );
        // the session's copy follows (ignored when another user is signed in by then)
        if (saved) dispatch(sessionUserChanged({ id: userId, changes: { defaultTicketsManagerWidth: width } }));
      },
    }),
  }),
});

export const { useListQueuesQuery, useListUsersQuery, useSaveTicketsPanelWidthMutation } = queuesUsersApi;

/**
 * The company's connections, asked for only when `enabled` and the plan has a channel (connections come
 * with the channels plugin, which a plan without WhatsApp, Facebook or Instagram doesn't load).
 */
export function useConnections(enabled = true): ConnectionOption[] {
  const plan = usePlan();
  const hasChannel = plan ? plan.useWhatsapp || plan.useFacebook || plan.useInstagram : false;
  const { data } = queuesUsersApi.useListConnectionsQuery(undefined, { skip: !enabled || !hasChannel });
  return hasChannel ? (data ?? NO_CONNECTIONS) : NO_CONNECTIONS;
}

const NO_CONNECTIONS: ConnectionOption[] = [];
