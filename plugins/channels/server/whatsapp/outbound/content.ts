import { AppError, type OutboundMessage } from '@balcao/plugin-sdk/server';
import type { AnyMessageContent, MiscMessageGenerationOptions, proto, WAMessage, WAMessageKey } from '@whiskeysockets/baileys';
import { outboundMediaKind, outboundMimetype } from './mimetype';
import { messageKey } from './target';

/** What `sock.sendMessage(jid, content, options)` takes for one inbox message. */
export interface OutboundContent {
  content: AnyMessageContent;
  options: MiscMessageGenerationOptions;
  /**
   * The message's text when the content can't carry it (a voice note has no caption): the session sends it
   * as a text message right after, so an agent's words are never dropped.
   */
  separateText?: string;
}

/**
 * What of an `OutboundMessage` the content depends on: an `OutboundMessage` is one, and so is a queued copy
 * of it whose file is read separately (the file comes as `buildOutboundContent`'s own argument).
 */
export type OutboundMessageFields = Pick<OutboundMessage, 'body' | 'mediaType'> &
  Partial<Pick<OutboundMessage, 'quoted' | 'vCard' | 'isForwarded'>> & {
    media?: { fileName: string; mimetype: string | null } | null;
  };

export interface OutboundContentOptions {
  /** The chat it goes to (`targetJid`); a quoted message is of the same chat. */
  jid: string;
  /**
   * The WhatsApp id the caller chose for the message. Deterministic (from the inbox's message id), so that a
   * retried delivery is the same message to WhatsApp and to the inbox (whose echo of it is then a no-op).
   */
  messageId: string;
  /** In a group: the author of the quoted message when it wasn't the company (see `messageKey`). */
  quotedParticipant?: string | null;
}

/**
 * An inbox message → Baileys' content and options.
 *
 * - text: `{ text }`;
 * - a file (image, video, application, audio): by `outboundMediaKind` — an image or video with the body as
 *   caption, a document with its file name and caption, an audio as a **voice note** (`ptt: true`);
 * - a contact card (`vCard`, or the body of a `contactMessage`): `contacts`, the display name from the
 *   card's FN; several cards in one text make one contacts-array message;
 * - a location (`locationMessage`, body `lat,lng` then the place's name and address): `location`;
 * - a reply: `options.quoted`, a minimal WAMessage (key and the quoted text) from which Baileys writes the
 *   quote (`contextInfo.stanzaId`, `participant`, `quotedMessage`);
 * - a forward: `contextInfo.isForwarded` with a forwarding score of 1 (the inbox doesn't know earlier hops).
 *
 * Voice notes and their mimetype: WhatsApp's own voice notes are Ogg/Opus (`audio/ogg; codecs=opus`, Baileys'
 * default for audio), while the composer's recorder makes mp3 for WhatsApp (docs/product/tickets-and-inbox.md#constants-and-limits). The mimetype always
 * names what the bytes are (`outboundMimetype`: `audio/mpeg` for mp3) — calling mp3 bytes Ogg makes every
 * receiver fail to decode them. An mp3 voice note plays on Android and WhatsApp Web; iOS plays voice notes
 * reliably only in Ogg/Opus, so a session that can transcode (ffmpeg: mono, 16 kHz, libopus) should do so
 * before calling this, and the Ogg it passes is then labelled `audio/ogg; codecs=opus` by its content.
 *
 * A stored file that can't be read (`file` null while `message.media` is set) fails the delivery with
 * `ERR_SENDING_WAPP_MSG` rather than sending the caption alone: the agent sees it and can retry.
 */
export function buildOutboundContent(
  message: OutboundMessageFields,
  file: Buffer | null,
  options: OutboundContentOptions,
): OutboundContent {
  const generation: MiscMessageGenerationOptions = { messageId: options.messageId };
  if (message.quoted) generation.quoted = quotedMessage(options.jid, message.quoted, options.quotedParticipant);
  const contextInfo: proto.IContextInfo | undefined = message.isForwarded ? { isForwarded: true, forwardingScore: 1 } : undefined;
  const forwarded = contextInfo ? { contextInfo } : {};
  const caption = message.body.trim() === '' ? undefined : message.body;

  if (message.media) {
    if (!file) throw new AppError('ERR_SENDING_WAPP_MSG', { reason: 'the stored file could not be read' });
    const { fileName } = message.media;
    const mimetype = outboundMimetype(message.mediaType, fileName, message.media.mimetype, file);
    switch (outboundMediaKind(message.mediaType, mimetype)) {
      case 'image':
        return { content: { image: file, mimetype, ...(caption ? { caption } : {}), ...forwarded }, options: generation };
      case 'video':
        return { content: { video: file, mimetype, ...(caption ? { caption } : {}), ...forwarded }, options: generation };
      case 'audio': {
        const result: OutboundContent = { content: { audio: file, ptt: true, mimetype, ...forwarded }, options: generation };
        if (caption && caption !== fileName) result.separateText = caption;
        return result;
      }
      case 'document':
        return {
          content: { document: file, mimetype, fileName, ...(caption && caption !== fileName ? { caption } : {}), ...forwarded },
          options: generation,
        };
    }
  }

  const vCard = message.vCard ?? (message.mediaType === 'contactMessage' ? message.body : null);
  const cards = vCard ? splitVCards(vCard) : [];
  if (cards.length > 0) {
    const contacts = cards.map((card) => {
      const displayName = vCardName(card);
      return displayName ? { displayName, vcard: card } : { vcard: card };
    });
    const names = contacts.map((contact) => contact.displayName).filter(Boolean);
    const displayName = names.length > 0 ? names.join(', ') : undefined;
    return {
      content: { contacts: { ...(displayName ? { displayName } : {}), contacts }, ...forwarded },
      options: generation,
    };
  }

  if (message.mediaType === 'locationMessage') {
    const location = parseLocationBody(message.body);
    if (location) return { content: { location, ...forwarded }, options: generation };
  }

  return { content: { text: message.body, ...forwarded }, options: generation };
}

/** The quoted message as Baileys needs it for `options.quoted`: its key and its text. */
function quotedMessage(jid: string, quoted: NonNullable<OutboundMessage['quoted']>, participant?: string | null): WAMessage {
  return {
    key: messageKey(jid, quoted.channelMessageId, quoted.fromMe, participant),
    message: { conversation: quoted.body },
  };
}

/** Each `BEGIN:VCARD … END:VCARD` of a text. */
export function splitVCards(text: string): string[] {
  return (text.match(/BEGIN:VCARD[\s\S]*?END:VCARD/gi) ?? []).map((card) => card.trim());
}

/** A card's display name: FN, else N (its parts in reading order), else its first phone number. */
export function vCardName(card: string): string | undefined {
  const fullName = /^FN[^:\n]*:(.*)$/im.exec(card)?.[1]?.trim();
  if (fullName) return fullName;
  const parts = /^N[^:\n]*:(.*)$/im.exec(card)?.[1]?.split(';');
  // N is family;given;additional;prefix;suffix
  const name = parts ? [parts[3], parts[1], parts[2], parts[0], parts[4]].filter((part) => part?.trim()).join(' ') : '';
  if (name) return name;
  return /^(?:item\d+\.)?TEL[^:\n]*:(.*)$/im.exec(card)?.[1]?.trim() || undefined;
}

/** `lat,lng` (first line), then the place's name and address, as the inbox writes a location's body. */
export function parseLocationBody(body: string): proto.Message.ILocationMessage | null {
  const [first = '', name, address] = body.split('\n').map((line) => line.trim());
  const match = /^(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)$/.exec(first);
  if (!match) return null;
  const degreesLatitude = Number(match[1]);
  const degreesLongitude = Number(match[2]);
  if (Math.abs(degreesLatitude) > 90 || Math.abs(degreesLongitude) > 180) return null;
  const location: proto.Message.ILocationMessage = { degreesLatitude, degreesLongitude };
  if (name) location.name = name;
  if (address) location.address = address;
  return location;
}

/** An edit of the company's text message: `sock.sendMessage(jid, editContent(key, text))`. */
export function editContent(key: WAMessageKey, text: string): AnyMessageContent {
  return { text, edit: key };
}

/** A delete for everyone (the company's message, or anyone's in a group the company administers). */
export function deleteContent(key: WAMessageKey): AnyMessageContent {
  return { delete: key };
}

/** A reaction to a message; an empty `emoji` removes the company's reaction. */
export function reactionContent(key: WAMessageKey, emoji: string): AnyMessageContent {
  return { react: { text: emoji, key } };
}
