import { api } from '@balcao/plugin-sdk/ui';
import { TICKETS_TAG_TYPES } from './cache';

/**
 * A ticket's kanban lane (docs/product/tickets-and-inbox.md#calls-and-realtime-events): `DELETE /ticket-tags/:ticketId` takes the ticket out of its lanes,
 * `PUT /ticket-tags/:ticketId/:tagId` puts it in one. The ticket's event brings its new tags.
 */
export const ticketTagsApi = api.enhanceEndpoints({ addTagTypes: [...TICKETS_TAG_TYPES] }).injectEndpoints({
  endpoints: (build) => ({
    clearTicketLanes: build.mutation<void, number>({
      query: (ticketId) => ({ url: `/ticket-tags/${ticketId}`, method: 'DELETE' }),
    }),
    addTicketTag: build.mutation<void, { ticketId: number; tagId: number }>({
      query: ({ ticketId, tagId }) => ({ url: `/ticket-tags/${ticketId}/${tagId}`, method: 'PUT' }),
    }),
  }),
});

export const { useClearTicketLanesMutation, useAddTicketTagMutation } = ticketTagsApi;
