/** A member of a chat as the server answers it. */
export interface ChatMember {
  userId: number;
  unreads: number;
  lastReadAt: string | null;
  user: { id: number; name: string };
}

/** A chat (docs/product/automation.md "Internal chat" entities). */
export interface Chat {
  id: number;
  uuid: string;
  title: string;
  ownerId: number | null;
  lastMessage: string;
  createdAt: string;
  updatedAt: string;
  users: ChatMember[];
  /** Set on the screen when a delete event arrives for the chat on show (never sent by the server). */
  deleted?: boolean;
}

/** A message of a chat; `mediaUrl` is a signed link to its file. */
export interface ChatMessage {
  id: number;
  chatId: number;
  senderId: number | null;
  sender: { id: number; name: string } | null;
  message: string;
  mediaName: string | null;
  mediaType: string | null;
  mediaUrl: string | null;
  createdAt: string;
}

/** `GET /chats`: a page of the user's chats and their unread messages over all chats. */
export interface ChatList {
  records: Chat[];
  hasMore: boolean;
  unreads: number;
}

/** `GET /chats/:id/messages`: a page, oldest first. */
export interface MessagePage {
  records: ChatMessage[];
  hasMore: boolean;
}

/** The events of `company-{id}-chat`, `-chat-{chatId}` and `-chat-user-{userId}`. */
export type ChatEvent =
  | { action: 'create' | 'update'; chat: Chat }
  | { action: 'new-message'; chat: Chat; newMessage: ChatMessage }
  | { action: 'delete'; id: number }
  /** Only on `company-{id}-chat`: member lists changed (a user renamed or deleted): read the list again. */
  | { action: 'reload' }
  /** Only on `company-{id}-chat-{chatId}`: a member is writing (shown for a few seconds). */
  | { action: 'typing'; chatId: number; userId: number; name: string };

/** A user to choose as a member (`GET /users/list`). */
export interface UserOption {
  id: number;
  name: string;
}
