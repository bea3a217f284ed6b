import type { InboundContact, MessageAck } from '@balcao/plugin-sdk/server';
import type { StoredWhatsAppCall, StoredWhatsAppMessage } from './stored-data';
import type { InboundTexts } from './texts';

/**
 * The media types of docs/product/tickets-and-inbox.md#entities an inbound WhatsApp message becomes. `reactionMessage` is not among them: a
 * reaction is an `InboundReactionEvent` (the inbox's `applyReaction`), never a message of its own.
 */
export type InboundMediaType =
  | 'chat'
  | 'image'
  | 'audio'
  | 'video'
  | 'application'
  | 'locationMessage'
  | 'contactMessage'
  | 'adMetaPreview'
  | 'call_log'
  | 'template';

/**
 * A file the WhatsApp message carries and the session downloads before calling `receive` (this code never
 * does I/O). For the downloadable kinds the session calls Baileys' `downloadMediaMessage(message, 'stream', …)`
 * on the very message it normalised (it unwraps ephemeral / view-once / document-with-caption itself).
 */
export type MediaToFetch =
  | {
      kind: 'image' | 'video' | 'audio' | 'document' | 'sticker';
      /** As WhatsApp declares it, or Baileys' default for the kind when it declares none. */
      mimetype: string;
      /** A document's own name; the other kinds have none (the inbox names them by type). */
      fileName?: string;
      /** An audio recorded as a voice note (push to talk). */
      ptt?: boolean;
      /** The size WhatsApp declares, in bytes, so the session can skip files over the company's download limit. */
      fileLength?: number;
    }
  | {
      /**
       * An ad preview's picture: not a WhatsApp media download. `bytes` when the preview carries the JPEG
       * inline (the usual case), else `url` (a Meta CDN address the session may fetch, https only).
       */
      kind: 'thumbnail';
      mimetype: 'image/jpeg';
      fileName: string;
      bytes: Uint8Array | null;
      url: string | null;
      /** The inline picture's size, when it is inline. */
      fileLength?: number;
    };

/** A message for `inbox.receive` (the session adds companyId, whatsappId, channel and the downloaded media). */
export interface InboundMessageEvent {
  kind: 'message';
  /** Who wrote it; for a message the company's phone sent in a 1:1 chat, the other party. */
  contact: InboundContact;
  /** The group it was written in: the ticket's contact. */
  group?: InboundContact;
  message: {
    /** WhatsApp's message id (the call id prefixed `call:` for a call offer). */
    id: string;
    fromMe: boolean;
    body: string;
    mediaType: InboundMediaType;
    /** The WhatsApp id of the message it replies to. */
    quotedId: string | null;
    timestamp?: Date;
    /** For a message the company's phone sent: how far it got (Baileys' status mapped, `toProductAck`). */
    ack?: MessageAck;
    /** The JSON-safe raw payload, kept with the message (`messageFromStoredData` turns it back into a WAMessage). */
    data: StoredWhatsAppMessage | StoredWhatsAppCall;
  };
  media?: MediaToFetch;
  /**
   * Set when the content is of a type this code doesn't translate (the body says so, the customer's message
   * is still stored): the session logs it so the type can be supported.
   */
  unsupportedType?: string;
}

/** The contact (or the company's phone) edited a message: `inbox.applyEdit`. */
export interface InboundEditEvent {
  kind: 'edit';
  channelMessageId: string;
  body: string;
  fromMe: boolean;
  editedAt?: Date;
}

/** A message was deleted for everyone: `inbox.applyDelete`. */
export interface InboundDeleteEvent {
  kind: 'delete';
  channelMessageId: string;
  fromMe: boolean;
}

/** A reaction was set or (empty `type`) removed: `inbox.applyReaction`. */
export interface InboundReactionEvent {
  kind: 'reaction';
  channelMessageId: string;
  /** The emoji; '' removes the sender's reaction. */
  type: string;
  fromMe: boolean;
  /** The reacting contact's identifier (phone JID when known, else LID); absent for the company's own. */
  contactIdentifier?: string;
}

/** Something that must not reach the inbox; `reason` is for the session's debug log. */
export interface IgnoredEvent {
  kind: 'ignore';
  reason: string;
}

export type InboundEvent = InboundMessageEvent | InboundEditEvent | InboundDeleteEvent | InboundReactionEvent | IgnoredEvent;

/**
 * What `normaliseMessage` and `normaliseCall` need from the session. Every lookup is synchronous so that the
 * translation stays pure: the session resolves what `lookupsFor(message)` lists first (Baileys'
 * `signalRepository.lidMapping.getPNForLID` / `getLIDForPN`, its group metadata cache) and answers from that.
 */
export interface NormaliseContext {
  /** The connection's own phone JID (`sock.user.id`; a device suffix is fine). */
  meId?: string | null;
  /** The connection's own LID (`sock.user.lid`), when Baileys knows it. */
  meLid?: string | null;
  /** The connection's `allowGroup`: without it group messages and calls are ignored. */
  allowGroup: boolean;
  /** The phone JID of a LID (`…@lid` → `…@s.whatsapp.net`), when Baileys' mapping store knows it. */
  lidToPn(lid: string): string | null | undefined;
  /** The LID of a phone JID, when Baileys' mapping store knows it (optional: the phone JID alone is an identifier). */
  pnToLid?(phoneJid: string): string | null | undefined;
  /** A group's subject, when known. */
  groupName(groupJid: string): string | null | undefined;
  /** Overrides of the texts written into bodies (default Portuguese, the product's default language). */
  texts?: Partial<InboundTexts>;
}
