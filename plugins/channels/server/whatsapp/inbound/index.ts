/** Inbound WhatsApp → the inbox's calls: pure translation of Baileys messages and calls into events. */
export { type ContentType, contentTypeOf, coordinate, type Translation, translateContent } from './content';
export { contactOf, normaliseUserJid, type PersonIdentity, personIdentity } from './identity';
export { type LookupsNeeded, lookupsFor, lookupsForCall, normaliseCall, normaliseMessage } from './normalise';
export {
  messageFromStoredData,
  type StoredWhatsAppCall,
  type StoredWhatsAppMessage,
  storedCallData,
  storedMessageData,
} from './stored-data';
export { DEFAULT_INBOUND_TEXTS, type InboundTexts } from './texts';
export type {
  IgnoredEvent,
  InboundDeleteEvent,
  InboundEditEvent,
  InboundEvent,
  InboundMediaType,
  InboundMessageEvent,
  InboundReactionEvent,
  MediaToFetch,
  NormaliseContext,
} from './types';
