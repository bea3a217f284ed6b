import { TenantModel } from '@balcao/plugin-sdk/server';
import type { MediaType, MessageReaction, SendStatus } from '../../shared/types';

export class Message extends TenantModel {
  static override tableName = 'messages';
  // jsonb columns objection should parse and stringify
  static override jsonAttributes = ['reactions', 'dataJson'];
  declare id: number;
  declare ticketId: number;
  declare contactId: number | null;
  declare userId: number | null;
  declare queueId: number | null;
  declare whatsappId: number | null;
  declare channelMessageId: string | null;
  declare body: string;
  declare fromMe: boolean;
  declare ack: number;
  declare read: boolean;
  declare mediaType: MediaType;
  declare mediaPath: string | null;
  declare mediaName: string | null;
  declare quotedMsgId: number | null;
  declare isPrivate: boolean;
  declare isEdited: boolean;
  declare isDeleted: boolean;
  declare isForwarded: boolean;
  declare reactions: MessageReaction[];
  declare sendStatus: SendStatus;
  /** Its delivery belongs to the `deliver-message` job (migration 0008): the pending-delivery sweep may requeue it. */
  declare deliveryByJob: boolean;
  declare sendError: string | null;
  declare dataJson: unknown;
  declare createdAt: Date;
  declare updatedAt: Date;
}
