import { api } from '@balcao/plugin-sdk/ui';
import type { TicketNote } from '../../../shared/types';
import { TICKETS_TAG_TYPES } from './cache';

/** Whose notes: a ticket and its contact (`GET /ticket-notes/list`). */
export interface NotesArgs {
  ticketId: number;
  contactId: number;
}

export const notesApi = api.enhanceEndpoints({ addTagTypes: [...TICKETS_TAG_TYPES] }).injectEndpoints({
  endpoints: (build) => ({
    listNotes: build.query<TicketNote[], NotesArgs>({
      query: ({ ticketId, contactId }) => ({
        url: '/ticket-notes/list',
        params: { ticketId: String(ticketId), contactId: String(contactId) },
      }),
      providesTags: (_result, _error, { ticketId }) => [{ type: 'TicketNotes', id: ticketId }],
    }),

    addNote: build.mutation<TicketNote, NotesArgs & { note: string }>({
      query: (body) => ({ url: '/ticket-notes', method: 'POST', body }),
      async onQueryStarted({ ticketId, contactId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        dispatch(
          notesApi.util.updateQueryData('listNotes', { ticketId, contactId }, (draft) => {
            if (!draft.some((note) => note.id === data.id)) draft.unshift(data);
          }),
        );
      },
    }),

    deleteNote: build.mutation<void, NotesArgs & { id: number }>({
      query: ({ id }) => ({ url: `/ticket-notes/${id}`, method: 'DELETE' }),
      async onQueryStarted({ id, ticketId, contactId }, { dispatch, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (!ok) return;
        dispatch(
          notesApi.util.updateQueryData('listNotes', { ticketId, contactId }, (draft) => draft.filter((note) => note.id !== id)),
        );
      },
    }),
  }),
});

export const { useListNotesQuery, useAddNoteMutation, useDeleteNoteMutation } = notesApi;
