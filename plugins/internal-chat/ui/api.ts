import { api, type SessionState, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type { Chat, ChatEvent, ChatList, ChatMessage, MessagePage, UserOption } from './types';

const sessionOf = (state: unknown) => (state as { session?: SessionState }).session?.user;

/** The user's own unread count in a chat. */
export function unreadsOf(chat: Chat | undefined, userId: number | undefined): number {
  return chat?.users.find((member) => member.userId === userId)?.unreads ?? 0;
}

/**
 * Applies a chat event to a list: the chat moves to the top on news (a read mark leaves it in place), leaves it
 * on delete, and the unread total follows the user's own count. A chat beyond the loaded pages changes the
 * total by what the event says for sure: a new chat by its count, a message of someone else by one.
 */
export function applyToList(list: ChatList, event: ChatEvent, userId: number | undefined, searchParam: string): void {
  if (event.action === 'typing' || event.action === 'reload') return;
  const id = event.action === 'delete' ? event.id : event.chat.id;
  const index = list.records.findIndex((chat) => chat.id === id);
  const before = index >= 0 ? unreadsOf(list.records[index], userId) : 0;
  if (index >= 0) list.records.splice(index, 1);
  if (event.action === 'delete') {
    list.unreads = Math.max(0, list.unreads - before);
    return;
  }
  const { chat } = event;
  const after = unreadsOf(chat, userId);
  let delta = 0;
  if (index >= 0) delta = after - before;
  else if (event.action === 'create') delta = after;
  else if (event.action === 'new-message' && event.newMessage.senderId !== userId) delta = 1;
  list.unreads = Math.max(0, list.unreads + delta);
  const search = searchParam.trim().toLowerCase();
  if (search && !chat.title.toLowerCase().includes(search)) return;
  if (event.action === 'update' && index >= 0) list.records.splice(index, 0, chat);
  else list.records.unshift(chat);
}

export interface ChatsArgs {
  searchParam: string;
  pageNumber: number;
}

/**
 * The internal chat's calls (docs/api.md "Internal chat") on the shell's one API, kept live over the company socket.
 * Endpoint names are prefixed: every feature injects into one API, where a name taken twice keeps the first.
 */
export const chatApi = api.enhanceEndpoints({ addTagTypes: ['InternalChat'] }).injectEndpoints({
  endpoints: (build) => ({
    internalChatList: build.query<ChatList, ChatsArgs>({
      query: ({ searchParam, pageNumber }) => ({
        url: '/chats',
        params: { searchParam: searchParam || undefined, pageNumber },
      }),
      // one list per search: later pages append to the first
      serializeQueryArgs: ({ queryArgs }) => queryArgs.searchParam,
      merge: (current, incoming, { arg }) => {
        if (arg.pageNumber <= 1) return incoming;
        const known = new Set(current.records.map((chat) => chat.id));
        current.records.push(...incoming.records.filter((chat) => !known.has(chat.id)));
        current.hasMore = incoming.hasMore;
        current.unreads = incoming.unreads;
        return current;
      },
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
      providesTags: ['InternalChat'],
      onCacheEntryAdded: (arg, lifecycle) =>
        streamSocketEvent<ChatList, ChatEvent>(lifecycle, { channel: 'chat' }, (draft, event) => {
          if (event.action === 'reload') {
            // the first page again, in place of every page loaded (the page resets its paging on the same event);
            // after the patch in progress, never inside it
            queueMicrotask(() => {
              const first = { searchParam: arg.searchParam, pageNumber: 1 };
              lifecycle.dispatch(chatApi.endpoints.internalChatList.initiate(first, { forceRefetch: true, subscribe: false }));
            });
            return;
          }
          applyToList(draft, event, sessionOf(lifecycle.getState())?.id, arg.searchParam);
        }),
    }),
    internalChatByUuid: build.query<Chat, string>({
      query: (uuid) => `/chats/u/${encodeURIComponent(uuid)}`,
      providesTags: ['InternalChat'],
      onCacheEntryAdded: (_uuid, lifecycle) =>
        streamSocketEvent<Chat, ChatEvent>(lifecycle, { channel: 'chat' }, (draft, event) => {
          if (event.action === 'typing') return;
          if (event.action === 'reload') {
            queueMicrotask(() => {
              lifecycle.dispatch(chatApi.endpoints.internalChatByUuid.initiate(_uuid, { forceRefetch: true, subscribe: false }));
            });
            return;
          }
          if (event.action === 'delete') {
            if (event.id === draft.id) draft.deleted = true;
          } else if (event.chat.id === draft.id) Object.assign(draft, event.chat);
        }),
    }),
    internalChatMessages: build.query<MessagePage, { chatId: number; pageNumber: number }>({
      query: ({ chatId, pageNumber }) => ({ url: `/chats/${chatId}/messages`, params: { pageNumber } }),
      // one conversation per chat: older pages go on top of what is shown
      serializeQueryArgs: ({ queryArgs }) => String(queryArgs.chatId),
      merge: (current, incoming, { arg }) => {
        if (arg.pageNumber <= 1) return incoming;
        const known = new Set(current.records.map((message) => message.id));
        current.records.unshift(...incoming.records.filter((message) => !known.has(message.id)));
        current.hasMore = incoming.hasMore;
        return current;
      },
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
      onCacheEntryAdded: (arg, lifecycle) =>
        streamSocketEvent<MessagePage, ChatEvent>(lifecycle, { channel: `chat-${arg.chatId}` }, (draft, event) => {
          if (event.action !== 'new-message') return;
          if (!draft.records.some((message) => message.id === event.newMessage.id)) draft.records.push(event.newMessage);
        }),
    }),
    internalChatUsers: build.query<UserOption[], void>({
      query: () => '/users/list',
      transformResponse: (users: UserOption[]) => users.map(({ id, name }) => ({ id, name })),
    }),
    createInternalChat: build.mutation<Chat, { title: string; users: number[] }>({
      query: (body) => ({ url: '/chats', method: 'POST', body }),
    }),
    updateInternalChat: build.mutation<Chat, { id: number; title: string; users: number[] }>({
      query: ({ id, ...body }) => ({ url: `/chats/${id}`, method: 'PUT', body }),
    }),
    deleteInternalChat: build.mutation<void, number>({
      query: (id) => ({ url: `/chats/${id}`, method: 'DELETE' }),
    }),
    sendInternalChatMessage: build.mutation<ChatMessage, { chatId: number; message: string }>({
      query: ({ chatId, message }) => ({ url: `/chats/${chatId}/messages`, method: 'POST', body: { message } }),
    }),
    sendInternalChatFile: build.mutation<ChatMessage, { chatId: number; file: File; message: string }>({
      query: ({ chatId, file, message }) => {
        const body = new FormData();
        if (message) body.append('message', message);
        body.append('file', file);
        return { url: `/chats/${chatId}/messages/media`, method: 'POST', body };
      },
    }),
    /** The inbox's `GET /tickets/:id` (ticket mentions): 404 for a ticket the user may not see. */
    internalChatTicket: build.query<{ id: number; uuid: string }, number>({
      query: (id) => `/tickets/${id}`,
      transformResponse: ({ id, uuid }: { id: number; uuid: string }) => ({ id, uuid }),
    }),
    internalChatTyping: build.mutation<void, number>({
      query: (chatId) => ({ url: `/chats/${chatId}/typing`, method: 'POST' }),
    }),
    markInternalChatRead: build.mutation<Chat, { chatId: number; userId: number }>({
      query: ({ chatId, userId }) => ({ url: `/chats/${chatId}/read`, method: 'POST', body: { userId } }),
    }),
  }),
});

export const {
  useInternalChatListQuery: useChatsQuery,
  useInternalChatByUuidQuery: useChatByUuidQuery,
  useInternalChatMessagesQuery: useMessagesQuery,
  useInternalChatUsersQuery: useChatUsersQuery,
  useCreateInternalChatMutation: useCreateChatMutation,
  useUpdateInternalChatMutation: useUpdateChatMutation,
  useDeleteInternalChatMutation: useDeleteChatMutation,
  useSendInternalChatMessageMutation: useSendMessageMutation,
  useSendInternalChatFileMutation: useSendFileMutation,
  useMarkInternalChatReadMutation: useMarkReadMutation,
  useInternalChatTypingMutation: useTypingMutation,
  useLazyInternalChatTicketQuery: useLazyTicketQuery,
} = chatApi;

/** The first page of every chat, as the popover and the menu's dot read it. */
export const LATEST_CHATS: ChatsArgs = { searchParam: '', pageNumber: 1 };
