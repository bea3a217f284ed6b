import { api, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type { AppMessageEvent, Message } from '../../../shared/types';
import { applyAppMessageEventToConversation, type MessagePages, type MessagesPage, upsertMessage } from '../logic/message-list';
import type { TextMessageBody } from '../logic/outgoing';
import { TICKETS_TAG_TYPES } from './cache';

/** A send: JSON (text, contact card) or multipart (files with a caption). */
export interface SendMessageArgs {
  ticketId: number;
  /** The conversation's cache key. */
  ticketUuid: string;
  body: TextMessageBody | FormData;
}

/** A message call that answers the changed message, with the conversation it lives in. */
export interface MessageRef {
  id: number;
  ticketUuid: string;
}

export const messagesApi = api.enhanceEndpoints({ addTagTypes: [...TICKETS_TAG_TYPES] }).injectEndpoints({
  endpoints: (build) => ({
    /**
     * `GET /messages/:ticketUuid`: 30 a page, page 1 the latest; older pages as the user scrolls up. Kept
     * live by `company-{id}-appMessage` (create, update, delete) for this ticket.
     */
    listMessages: build.infiniteQuery<MessagesPage, string, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage, _pages, lastPageParam) => (lastPage.hasMore ? lastPageParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: `/messages/${encodeURIComponent(queryArg)}`,
        params: { pageNumber: String(pageParam) },
      }),
      // a conversation is read fresh each time it is opened: marks read and catches up what was missed
      keepUnusedDataFor: 0,
      onCacheEntryAdded: (ticketUuid, lifecycle) =>
        streamSocketEvent<MessagePages, AppMessageEvent>(lifecycle, { channel: 'appMessage' }, (draft, event) =>
          applyAppMessageEventToConversation(draft, event, ticketUuid),
        ),
    }),

    sendMessage: build.mutation<{ messages: Message[] }, SendMessageArgs>({
      query: ({ ticketId, body }) => ({ url: `/messages/${ticketId}`, method: 'POST', body }),
      async onQueryStarted({ ticketUuid }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        dispatch(
          messagesApi.util.updateQueryData('listMessages', ticketUuid, (draft) => {
            for (const message of data.messages) upsertMessage(draft, message);
          }),
        );
      },
    }),

    editMessage: build.mutation<Message, MessageRef & { body: string }>({
      query: ({ id, body }) => ({ url: `/messages/edit/${id}`, method: 'POST', body: { body } }),
      onQueryStarted: (arg, lifecycle) => patchConversation(arg.ticketUuid, lifecycle),
    }),

    deleteMessage: build.mutation<Message, MessageRef>({
      query: ({ id }) => ({ url: `/messages/${id}`, method: 'DELETE' }),
      onQueryStarted: (arg, lifecycle) => patchConversation(arg.ticketUuid, lifecycle),
    }),

    reactToMessage: build.mutation<Message, MessageRef & { type: string }>({
      query: ({ id, type }) => ({ url: `/messages/${id}/reactions`, method: 'POST', body: { type } }),
      onQueryStarted: (arg, lifecycle) => patchConversation(arg.ticketUuid, lifecycle),
    }),

    /** `POST /messages/:id/retry`: delivers a failed message again. */
    retryMessage: build.mutation<Message, MessageRef>({
      query: ({ id }) => ({ url: `/messages/${id}/retry`, method: 'POST' }),
      onQueryStarted: (arg, lifecycle) => patchConversation(arg.ticketUuid, lifecycle),
    }),

    /** `POST /message/forward`: one message to one contact (the dialog pauses 900 ms between them). */
    forwardMessage: build.mutation<Message, { messageId: number; contactId: number; signMessage?: boolean }>({
      query: (body) => ({ url: '/message/forward', method: 'POST', body }),
    }),
  }),
});

/** Puts the message a call answered into its conversation. */
async function patchConversation(
  ticketUuid: string,
  { dispatch, queryFulfilled }: { dispatch: (action: unknown) => unknown; queryFulfilled: Promise<{ data: Message }> },
): Promise<void> {
  const { data } = await queryFulfilled.catch(() => ({ data: null }));
  if (!data) return;
  dispatch(messagesApi.util.updateQueryData('listMessages', ticketUuid, (draft) => upsertMessage(draft, data)));
}

export const {
  useListMessagesInfiniteQuery,
  useSendMessageMutation,
  useEditMessageMutation,
  useDeleteMessageMutation,
  useReactToMessageMutation,
  useRetryMessageMutation,
  useForwardMessageMutation,
} = messagesApi;
