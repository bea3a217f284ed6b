import { ErrorResponse, Id, PageNumber, StrictObject, Type } from '@balcao/plugin-sdk/server';

/** Error answers of the given statuses, for a route's response schema. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as Record<number, typeof ErrorResponse>;

/** A 204's empty answer. */
export const Empty = Type.Null();

/** A member of a chat: the user, their unread count and when they last read it. */
export const ChatUserSchema = Type.Object({
  userId: Type.Integer(),
  unreads: Type.Integer(),
  lastReadAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  user: Type.Object({ id: Type.Integer(), name: Type.String() }),
});

/** A chat as the API answers it (docs/product/automation.md "Internal chat" entities). */
export const ChatSchema = Type.Object(
  {
    id: Type.Integer(),
    uuid: Type.String({ format: 'uuid' }),
    title: Type.String(),
    ownerId: Type.Union([Type.Integer(), Type.Null()]),
    lastMessage: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    users: Type.Array(ChatUserSchema),
  },
  { title: 'Chat' },
);

/** A message of a chat. `mediaUrl` is a signed link to its file (a day long), null without one. */
export const ChatMessageSchema = Type.Object(
  {
    id: Type.Integer(),
    chatId: Type.Integer(),
    senderId: Type.Union([Type.Integer(), Type.Null()]),
    sender: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
    message: Type.String(),
    mediaName: Type.Union([Type.String(), Type.Null()]),
    mediaType: Type.Union([Type.String(), Type.Null()]),
    mediaUrl: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'ChatMessage' },
);

/** Text that isn't only spaces. */
const Title = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
/** A chat's members besides its owner: users of the caller's company. */
const Members = Type.Array(Id, { minItems: 1, maxItems: 500, uniqueItems: true });

export const ChatListQuery = StrictObject({
  searchParam: Type.Optional(Type.String({ maxLength: 100 })),
  pageNumber: Type.Optional(PageNumber),
});
export const CreateChatBody = StrictObject({ title: Title, users: Members });
export const UpdateChatBody = StrictObject({ title: Type.Optional(Title), users: Type.Optional(Members) });
export const MessagesQuery = StrictObject({ pageNumber: Type.Optional(PageNumber) });
export const MESSAGE_MAX_LENGTH = 4000;
export const SendMessageBody = StrictObject({ message: Type.String({ minLength: 1, maxLength: MESSAGE_MAX_LENGTH }) });
export const ReadBody = StrictObject({ userId: Id });

export const ChatListSchema = Type.Object({
  records: Type.Array(ChatSchema),
  hasMore: Type.Boolean(),
  /** The caller's unread messages over all their chats (the menu's dot). */
  unreads: Type.Integer(),
});
export const MessagePageSchema = Type.Object({ records: Type.Array(ChatMessageSchema), hasMore: Type.Boolean() });
