import { AppError, companyEvent, type PluginContext, ROOMS, requireOwnIds } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';

/**
 * The internal chat's rules (docs/product/automation.md "Internal chat"): only members read a chat and its
 * messages, only the owner edits or deletes it, each member's unread count is the server's, and every change
 * reaches the members' screens — and only theirs — over the documented channels.
 */

export const CHATS_PAGE_SIZE = 20;
export const MESSAGES_PAGE_SIZE = 30;

export interface ChatUserJson {
  userId: number;
  unreads: number;
  lastReadAt: string | null;
  user: { id: number; name: string };
}

export interface ChatJson {
  id: number;
  uuid: string;
  title: string;
  ownerId: number | null;
  lastMessage: string;
  createdAt: string;
  updatedAt: string;
  users: ChatUserJson[];
}

export interface ChatMessageJson {
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

interface ChatRow {
  id: number;
  uuid: string;
  title: string;
  ownerId: number | null;
  lastMessage: string;
  createdAt: Date;
  updatedAt: Date;
}

interface MessageRow {
  id: number;
  chatId: number;
  senderId: number | null;
  senderName: string | null;
  message: string;
  mediaPath: string | null;
  mediaName: string | null;
  mediaType: string | null;
  createdAt: Date;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** The members of these chats, by chat, in the order they joined. */
async function membersOf(knex: Knex, companyId: number, chatIds: number[]): Promise<Map<number, ChatUserJson[]>> {
  const byChat = new Map<number, ChatUserJson[]>(chatIds.map((id) => [id, []]));
  if (chatIds.length === 0) return byChat;
  const rows = (await knex('chatUsers as cu')
    .join('users as u', 'u.id', 'cu.userId')
    .where('cu.companyId', companyId)
    .whereIn('cu.chatId', chatIds)
    .orderBy('cu.id')
    .select('cu.chatId', 'cu.userId', 'cu.unreads', 'cu.lastReadAt', 'u.name')) as Array<{
    chatId: number;
    userId: number;
    unreads: number;
    lastReadAt: Date | null;
    name: string;
  }>;
  for (const row of rows) {
    byChat.get(row.chatId)?.push({
      userId: row.userId,
      unreads: row.unreads,
      lastReadAt: iso(row.lastReadAt),
      user: { id: row.userId, name: row.name },
    });
  }
  return byChat;
}

function chatJson(row: ChatRow, users: ChatUserJson[]): ChatJson {
  return {
    id: row.id,
    uuid: row.uuid,
    title: row.title,
    ownerId: row.ownerId,
    lastMessage: row.lastMessage,
    createdAt: iso(row.createdAt) as string,
    updatedAt: iso(row.updatedAt) as string,
    users,
  };
}

/** A chat with its members, or null when the company has none of that id. */
export async function loadChat(knex: Knex, companyId: number, chatId: number): Promise<ChatJson | null> {
  const row = (await knex('chats').where({ companyId, id: chatId }).first()) as ChatRow | undefined;
  if (!row) return null;
  const members = await membersOf(knex, companyId, [row.id]);
  return chatJson(row, members.get(row.id) ?? []);
}

/**
 * The chat if `userId` is one of its members; ERR_NO_CHAT_FOUND otherwise, for a chat of another company, one
 * that doesn't exist and one the user isn't in alike.
 */
export async function memberChat(knex: Knex, companyId: number, chatId: number, userId: number): Promise<ChatJson> {
  const chat = await loadChat(knex, companyId, chatId);
  if (!chat?.users.some((member) => member.userId === userId)) throw new AppError('ERR_NO_CHAT_FOUND');
  return chat as ChatJson;
}

/** As `memberChat`, by the chat's uuid (the page's address, /chats/:uuid). */
export async function memberChatByUuid(knex: Knex, companyId: number, uuid: string, userId: number): Promise<ChatJson> {
  const row = (await knex('chats').where({ companyId, uuid: uuid.toLowerCase() }).first('id')) as { id: number } | undefined;
  if (!row) throw new AppError('ERR_NO_CHAT_FOUND');
  return memberChat(knex, companyId, row.id, userId);
}

/** `GET /chats`: the user's chats, latest activity first, 20 a page, with their unread total over all chats. */
export async function listChats(
  knex: Knex,
  companyId: number,
  userId: number,
  query: { searchParam?: string; pageNumber?: number },
): Promise<{ records: ChatJson[]; hasMore: boolean; unreads: number }> {
  const page = query.pageNumber ?? 1;
  const search = query.searchParam?.trim();
  const rows = (await knex('chats as c')
    .join('chatUsers as mine', function joinMine() {
      this.on('mine.chatId', 'c.id').andOn('mine.userId', knex.raw('?', [userId]));
    })
    .where('c.companyId', companyId)
    .modify((builder) => {
      if (search) builder.whereILike('c.title', `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    })
    .orderBy([
      { column: 'c.updatedAt', order: 'desc' },
      { column: 'c.id', order: 'desc' },
    ])
    .limit(CHATS_PAGE_SIZE + 1)
    .offset((page - 1) * CHATS_PAGE_SIZE)
    .select('c.*')) as ChatRow[];
  const hasMore = rows.length > CHATS_PAGE_SIZE;
  const pageRows = rows.slice(0, CHATS_PAGE_SIZE);
  const members = await membersOf(
    knex,
    companyId,
    pageRows.map((row) => row.id),
  );
  const total = (await knex('chatUsers').where({ companyId, userId }).sum({ unreads: 'unreads' }).first()) as
    | { unreads: string | number | null }
    | undefined;
  return {
    records: pageRows.map((row) => chatJson(row, members.get(row.id) ?? [])),
    hasMore,
    unreads: Number(total?.unreads ?? 0),
  };
}

/** Refuses members of another company (404 ERR_NO_USER_FOUND) and ids of no user (the same). */
async function requireCompanyUsers(knex: Knex, companyId: number, userIds: number[]): Promise<void> {
  await requireOwnIds(knex, companyId, [{ table: 'users', entity: 'user', ids: userIds }]);
  const found = (await knex('users').where({ companyId }).whereIn('id', userIds).count({ count: '*' }).first()) as {
    count: string | number;
  };
  if (Number(found.count) !== userIds.length) throw new AppError('ERR_NO_USER_FOUND');
}

/** Tells these members' screens, on the three channels, what happened to a chat. */
function announce(
  ctx: PluginContext,
  companyId: number,
  chatId: number,
  memberIds: number[],
  payload: Record<string, unknown>,
  channels: { list?: boolean; chat?: boolean; user?: boolean },
): void {
  if (memberIds.length === 0) return;
  // chat events go to the members' own rooms: a non-member's socket never receives them, and a member taken
  // out of a chat stops receiving them with the next event, with no room to leave
  const rooms = memberIds.map((id) => ROOMS.user(id));
  if (channels.list) ctx.realtime.emit(companyId, companyEvent(companyId, 'chat'), payload, { rooms });
  if (channels.chat) ctx.realtime.emit(companyId, companyEvent(companyId, `chat-${chatId}`), payload, { rooms });
  if (channels.user) {
    for (const id of memberIds) {
      ctx.realtime.emit(companyId, companyEvent(companyId, `chat-user-${id}`), payload, { rooms: ROOMS.user(id) });
    }
  }
}

/** `POST /chats`: a chat owned by the caller, whose members are the caller and `users`. */
export async function createChat(
  ctx: PluginContext,
  companyId: number,
  ownerId: number,
  body: { title: string; users: number[] },
): Promise<ChatJson> {
  const knex = ctx.db.knex;
  const others = body.users.filter((id) => id !== ownerId);
  await requireCompanyUsers(knex, companyId, others);
  const chatId = await knex.transaction(async (trx) => {
    const [row] = (await trx('chats').insert({ companyId, title: body.title.trim(), ownerId }).returning('id')) as Array<{
      id: number;
    }>;
    const id = (row as { id: number }).id;
    await trx('chatUsers').insert([ownerId, ...others].map((userId) => ({ companyId, chatId: id, userId })));
    return id;
  });
  const chat = (await loadChat(knex, companyId, chatId)) as ChatJson;
  const memberIds = chat.users.map((member) => member.userId);
  announce(ctx, companyId, chatId, memberIds, { action: 'create', chat }, { list: true, user: true });
  return chat;
}

/** `PUT /chats/:id`: the owner renames the chat or changes its members (the owner always stays in). */
export async function updateChat(
  ctx: PluginContext,
  companyId: number,
  userId: number,
  chatId: number,
  body: { title?: string; users?: number[] },
): Promise<ChatJson> {
  const knex = ctx.db.knex;
  const before = await memberChat(knex, companyId, chatId, userId);
  if (before.ownerId !== userId) throw new AppError('ERR_CHAT_OWNER_ONLY');
  const wanted = body.users ? [userId, ...body.users.filter((id) => id !== userId)] : null;
  if (wanted) await requireCompanyUsers(knex, companyId, wanted.slice(1));
  const previousIds = before.users.map((member) => member.userId);
  await knex.transaction(async (trx) => {
    const patch: Record<string, unknown> = { updatedAt: knex.fn.now() };
    if (body.title !== undefined) patch.title = body.title.trim();
    await trx('chats').where({ companyId, id: chatId }).update(patch);
    if (wanted) {
      await trx('chatUsers').where({ companyId, chatId }).whereNotIn('userId', wanted).delete();
      const added = wanted.filter((id) => !previousIds.includes(id));
      if (added.length > 0) await trx('chatUsers').insert(added.map((id) => ({ companyId, chatId, userId: id })));
    }
  });
  const chat = (await loadChat(knex, companyId, chatId)) as ChatJson;
  const memberIds = chat.users.map((member) => member.userId);
  const removed = previousIds.filter((id) => !memberIds.includes(id));
  announce(ctx, companyId, chatId, memberIds, { action: 'update', chat }, { list: true, chat: true, user: true });
  announce(ctx, companyId, chatId, removed, { action: 'delete', id: chatId }, { list: true, chat: true, user: true });
  return chat;
}

/** `DELETE /chats/:id`: the owner deletes the chat, its members and messages, and its files. */
export async function deleteChat(ctx: PluginContext, companyId: number, userId: number, chatId: number): Promise<void> {
  const knex = ctx.db.knex;
  const chat = await memberChat(knex, companyId, chatId, userId);
  if (chat.ownerId !== userId) throw new AppError('ERR_CHAT_OWNER_ONLY');
  const files = (await knex('chatMessages')
    .where({ companyId, chatId })
    .whereNotNull('mediaPath')
    .pluck('mediaPath')) as string[];
  await knex('chats').where({ companyId, id: chatId }).delete();
  for (const key of files) await ctx.storage.delete(companyId, key);
  announce(
    ctx,
    companyId,
    chatId,
    chat.users.map((member) => member.userId),
    { action: 'delete', id: chatId },
    { list: true, chat: true, user: true },
  );
}

function messageJson(ctx: PluginContext, companyId: number, row: MessageRow): ChatMessageJson {
  return {
    id: row.id,
    chatId: row.chatId,
    senderId: row.senderId,
    sender: row.senderId !== null && row.senderName !== null ? { id: row.senderId, name: row.senderName } : null,
    message: row.message,
    mediaName: row.mediaName,
    mediaType: row.mediaType,
    mediaUrl: row.mediaPath ? ctx.storage.signedUrl(companyId, row.mediaPath, { fileName: row.mediaName ?? undefined }) : null,
    createdAt: iso(row.createdAt) as string,
  };
}

const messageColumns = [
  'm.id',
  'm.chatId',
  'm.senderId',
  'u.name as senderName',
  'm.message',
  'm.mediaPath',
  'm.mediaName',
  'm.mediaType',
  'm.createdAt',
];

/**
 * `GET /chats/:id/messages`: a member reads the chat's messages, 30 a page from the latest; each page's
 * messages come oldest first, so the screen puts them above what it already shows.
 */
export async function listMessages(
  ctx: PluginContext,
  companyId: number,
  userId: number,
  chatId: number,
  pageNumber = 1,
): Promise<{ records: ChatMessageJson[]; hasMore: boolean }> {
  const knex = ctx.db.knex;
  await memberChat(knex, companyId, chatId, userId);
  const rows = (await knex('chatMessages as m')
    .leftJoin('users as u', 'u.id', 'm.senderId')
    .where({ 'm.companyId': companyId, 'm.chatId': chatId })
    .orderBy('m.id', 'desc')
    .limit(MESSAGES_PAGE_SIZE + 1)
    .offset((pageNumber - 1) * MESSAGES_PAGE_SIZE)
    .select(messageColumns)) as MessageRow[];
  const hasMore = rows.length > MESSAGES_PAGE_SIZE;
  return {
    records: rows
      .slice(0, MESSAGES_PAGE_SIZE)
      .reverse()
      .map((row) => messageJson(ctx, companyId, row)),
    hasMore,
  };
}

/** A file sent with a message: already stored under the company's folder. */
export interface StoredChatFile {
  key: string;
  name: string;
  type: string;
}

/**
 * `POST /chats/:id/messages` (and its file form): a member writes; every other member's unread count grows by
 * one, the sender's goes back to 0, and the chat's last message and time change. The writes are one statement:
 * the chat's row and its members' rows stay locked only for it, so the members of a busy chat writing at once
 * queue behind one statement each, not behind a transaction's round trips.
 */
export async function sendMessage(
  ctx: PluginContext,
  companyId: number,
  senderId: number,
  chatId: number,
  text: string,
  file?: StoredChatFile,
): Promise<ChatMessageJson> {
  const knex = ctx.db.knex;
  const before = await memberChat(knex, companyId, chatId, senderId);
  const message = text.trim();
  if (message === '' && !file) throw new AppError('ERR_CHAT_MESSAGE_EMPTY');
  const lastMessage = message || (file?.name ?? '');
  const written = (await knex
    .raw(
      `WITH m AS (
       INSERT INTO chat_messages (company_id, chat_id, sender_id, message, media_path, media_name, media_type)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id, created_at
     ), c AS (
       UPDATE chats SET last_message = ?, updated_at = now() WHERE company_id = ? AND id = ? RETURNING updated_at
     ), u AS (
       UPDATE chat_users
       SET unreads = CASE WHEN user_id = ? THEN 0 ELSE unreads + 1 END,
           last_read_at = CASE WHEN user_id = ? THEN now() ELSE last_read_at END
       WHERE company_id = ? AND chat_id = ?
       RETURNING user_id, unreads, last_read_at
     )
     SELECT m.id, m.created_at AS "createdAt", c.updated_at AS "updatedAt",
       (SELECT json_agg(json_build_object('userId', u.user_id, 'unreads', u.unreads, 'lastReadAt', u.last_read_at)) FROM u)
         AS members
     FROM m, c`,
      [
        companyId,
        chatId,
        senderId,
        message,
        file?.key ?? null,
        file?.name ?? null,
        file?.type ?? null,
        lastMessage,
        companyId,
        chatId,
        senderId,
        senderId,
        companyId,
        chatId,
      ],
    )
    .catch((error: { code?: string }) => {
      // the chat was deleted after the membership check: its messages' foreign key refuses the insert
      if (error.code === '23503') throw new AppError('ERR_NO_CHAT_FOUND');
      throw error;
    })) as {
    rows: Array<{
      id: number;
      createdAt: Date;
      updatedAt: Date;
      members: Array<{ userId: number; unreads: number; lastReadAt: string | null }>;
    }>;
  };
  const row = written.rows[0];
  // the chat went between the membership check and the write (nothing updated): as if it never existed
  if (!row) throw new AppError('ERR_NO_CHAT_FOUND');
  const sender = before.users.find((member) => member.userId === senderId);
  const newMessage = messageJson(ctx, companyId, {
    id: row.id,
    chatId,
    senderId,
    senderName: sender?.user.name ?? null,
    message,
    mediaPath: file?.key ?? null,
    mediaName: file?.name ?? null,
    mediaType: file?.type ?? null,
    createdAt: row.createdAt,
  });
  // the members as written; one who joined since the check (a name not known here) reads the chat again
  const counted = new Map(row.members.map((member) => [member.userId, member]));
  const known = before.users.every((member) => counted.has(member.userId)) && counted.size === before.users.length;
  const chat: ChatJson = known
    ? {
        ...before,
        lastMessage,
        updatedAt: iso(row.updatedAt) as string,
        users: before.users.map((member) => {
          const now = counted.get(member.userId) as { unreads: number; lastReadAt: string | null };
          return { ...member, unreads: now.unreads, lastReadAt: iso(now.lastReadAt) };
        }),
      }
    : ((await loadChat(knex, companyId, chatId)) as ChatJson);
  announce(
    ctx,
    companyId,
    chatId,
    chat.users.map((member) => member.userId),
    { action: 'new-message', newMessage, chat },
    { list: true, chat: true },
  );
  return newMessage;
}

/** `POST /chats/:id/read`: the caller's read mark — their unread count back to 0, "seen" now. */
export async function markRead(
  ctx: PluginContext,
  companyId: number,
  callerId: number,
  chatId: number,
  userId: number,
): Promise<ChatJson> {
  const knex = ctx.db.knex;
  await memberChat(knex, companyId, chatId, callerId);
  // a read mark is the reader's own: nobody marks a chat read for someone else
  if (userId !== callerId) throw new AppError('ERR_CHAT_READ_OWN_ONLY');
  await knex('chatUsers').where({ companyId, chatId, userId }).update({ unreads: 0, lastReadAt: knex.fn.now() });
  const chat = (await loadChat(knex, companyId, chatId)) as ChatJson;
  announce(
    ctx,
    companyId,
    chatId,
    chat.users.map((member) => member.userId),
    { action: 'update', chat },
    { list: true, chat: true },
  );
  return chat;
}

/**
 * A user changed (renamed, moved, deleted: `user.updated`): the member lists other screens show of the chats
 * the user is in are stale, so those chats' members get `action: 'reload'` on `company-{id}-chat` and read
 * their list again. A deleted user's chats are no longer known (the memberships went with the user), so then
 * every screen of the company reloads; deletions are rare.
 */
export async function announceMemberChange(ctx: PluginContext, companyId: number, userId: number): Promise<void> {
  const knex = ctx.db.knex;
  const user = await knex('users').where({ companyId, id: userId }).first('id');
  if (!user) {
    ctx.realtime.emit(companyId, companyEvent(companyId, 'chat'), { action: 'reload' });
    return;
  }
  const members: Array<{ userId: number }> = await knex('chatUsers as mine')
    .join('chatUsers as theirs', 'theirs.chatId', 'mine.chatId')
    .where({ 'mine.companyId': companyId, 'mine.userId': userId })
    .distinct('theirs.userId as userId');
  if (members.length === 0) return;
  ctx.realtime.emit(
    companyId,
    companyEvent(companyId, 'chat'),
    { action: 'reload' },
    {
      rooms: members.map((member) => ROOMS.user(member.userId)),
    },
  );
}

/**
 * `POST /chats/:id/typing`: tells the chat's other members that the caller is writing (an `action: 'typing'`
 * on `company-{id}-chat-{chatId}`). Nothing is stored; screens show it for a few seconds.
 */
export async function announceTyping(ctx: PluginContext, companyId: number, userId: number, chatId: number): Promise<void> {
  const chat = await memberChat(ctx.db.knex, companyId, chatId, userId);
  const me = chat.users.find((member) => member.userId === userId);
  const others = chat.users.filter((member) => member.userId !== userId).map((member) => member.userId);
  announce(ctx, companyId, chatId, others, { action: 'typing', chatId, userId, name: me?.user.name ?? '' }, { chat: true });
}
