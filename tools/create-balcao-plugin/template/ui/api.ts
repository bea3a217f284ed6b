import { api, streamSocketEvent } from '@balcao/plugin-sdk/ui';

/** A note as the API answers it. */
export interface Note {
  id: number;
  text: string;
  reviewed: boolean;
}

/** The plugin's calls, added to the shell's one API; reviews arrive live through `company-{id}-__ID__`. */
export const __CAMEL__Api = api.injectEndpoints({
  endpoints: (build) => ({
    list__PASCAL__Notes: build.query<{ notes: Note[] }, void>({
      query: () => '/__ID__/notes',
      onCacheEntryAdded: (_arg, lifecycle) =>
        streamSocketEvent<{ notes: Note[] }, { action: string; note: Note }>(
          lifecycle,
          { channel: '__ID__' },
          (draft, { action, note }) => {
            const index = draft.notes.findIndex((existing) => existing.id === note.id);
            if (action === 'update' && index >= 0) draft.notes[index] = note;
          },
        ),
    }),
    create__PASCAL__Note: build.mutation<Note, { text: string }>({
      query: (body) => ({ url: '/__ID__/notes', method: 'POST', body }),
      onQueryStarted: async (_arg, { dispatch, queryFulfilled }) => {
        const { data } = await queryFulfilled;
        dispatch(
          __CAMEL__Api.util.updateQueryData('list__PASCAL__Notes', undefined, (draft) => {
            if (!draft.notes.some((existing) => existing.id === data.id)) draft.notes.push(data);
          }),
        );
      },
    }),
  }),
});

export const { useList__PASCAL__NotesQuery, useCreate__PASCAL__NoteMutation } = __CAMEL__Api;
