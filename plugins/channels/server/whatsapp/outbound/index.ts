/** Outbound WhatsApp: the inbox's messages and actions → Baileys' content, the target JID, acks. */
export { toProductAck } from './ack';
export {
  buildOutboundContent,
  deleteContent,
  editContent,
  type OutboundContent,
  type OutboundContentOptions,
  type OutboundMessageFields,
  parseLocationBody,
  reactionContent,
  splitVCards,
  vCardName,
} from './content';
export { type OutboundMediaKind, outboundMediaKind, outboundMimetype } from './mimetype';
export { messageKey, targetJid } from './target';
