import { type TSchema, Type } from '@balcao/plugin-sdk/server';

/**
 * Response schema of `Message` (shared/types.ts), for the routes that answer messages. Every field is
 * listed, so nothing is dropped on serialisation.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const MessageReactionSchema = Type.Object(
  {
    type: Type.String(),
    fromMe: Type.Boolean(),
    userId: Nullable(Type.Integer()),
    contactId: Nullable(Type.Integer()),
  },
  { title: 'MessageReaction' },
);

const messageFields = {
  id: Type.Integer(),
  body: Type.String(),
  fromMe: Type.Boolean(),
  ack: Type.Integer({ minimum: 0, maximum: 5 }),
  mediaType: Type.String(),
  mediaUrl: Nullable(Type.String()),
  mediaName: Nullable(Type.String()),
  isDeleted: Type.Boolean(),
  isEdited: Type.Boolean(),
  isForwarded: Type.Boolean(),
  isPrivate: Type.Boolean(),
  quotedMsgId: Nullable(Type.Integer()),
  reactions: Type.Array(MessageReactionSchema),
  sendStatus: Type.Union([Type.Literal('pending'), Type.Literal('sent'), Type.Literal('failed')]),
  sendError: Nullable(Type.String()),
  ticketId: Type.Integer(),
  contactId: Nullable(Type.Integer()),
  contact: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), urlPicture: Nullable(Type.String()) })),
  userId: Nullable(Type.Integer()),
  queueId: Nullable(Type.Integer()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
};

/** `Message` without its quoted message (what `quotedMsg` carries: one level). */
export const QuotedMessageSchema = Type.Object(messageFields, { title: 'QuotedMessage' });

export const MessageSchema = Type.Object({ ...messageFields, quotedMsg: Nullable(QuotedMessageSchema) }, { title: 'Message' });
