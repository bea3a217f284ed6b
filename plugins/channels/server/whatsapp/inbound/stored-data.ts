import { proto, toNumber, type WACallEvent, type WAMessage, type WAMessageKey } from '@whiskeysockets/baileys';

/**
 * The raw WhatsApp message as kept with the inbox's message (`message.data`, a jsonb column), so that a
 * driver can act on it later: download its media again (`messageFromStoredData` + Baileys'
 * `downloadMediaMessage`), find a quoted message's author, and so on.
 *
 * Why not the WAMessage itself: it holds Longs and byte arrays, which `JSON.stringify` turns into objects of
 * numbered keys that can't be read back. Here the content is protobuf's JSON form (int64 as strings, bytes as
 * base64), and the key keeps Baileys' alt fields (`remoteJidAlt`, `participantAlt`), which the protobuf key
 * doesn't know. Inline previews (`jpegThumbnail`, an ad's `thumbnail`) and quoted copies (`quotedMessage`,
 * stored as their own message) are left out: they are most of a message's bytes and nothing needs them again.
 */
export interface StoredWhatsAppMessage {
  key: {
    remoteJid: string | null;
    remoteJidAlt?: string;
    participant?: string | null;
    participantAlt?: string;
    fromMe: boolean;
    id: string | null;
    addressingMode?: string;
  };
  /** `proto.Message` as JSON (`proto.Message.toObject` with int64 and bytes as strings). */
  message: Record<string, unknown> | null;
  /** Seconds since the epoch. */
  messageTimestamp: number | null;
  pushName: string | null;
  /** The sender in a group when the key doesn't say (history sync). */
  participant?: string;
}

/** A call offer as kept with its `call_log` message. */
export interface StoredWhatsAppCall {
  call: {
    id: string;
    from: string;
    callerPn: string | null;
    chatId: string;
    groupJid: string | null;
    isVideo: boolean;
    isGroup: boolean;
    offline: boolean;
    /** ISO 8601. */
    date: string;
  };
}

/** Fields dropped from the stored content (see `StoredWhatsAppMessage`). */
const DROPPED_FIELDS = new Set(['jpegThumbnail', 'thumbnail', 'pngThumbnail', 'quotedMessage']);

function withoutDroppedFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDroppedFields);
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [field, inner] of Object.entries(value)) {
    if (!DROPPED_FIELDS.has(field)) result[field] = withoutDroppedFields(inner);
  }
  return result;
}

/** The JSON-safe stored form of a WhatsApp message. */
export function storedMessageData(message: WAMessage): StoredWhatsAppMessage {
  const key: WAMessageKey = message.key;
  const stored: StoredWhatsAppMessage = {
    key: {
      remoteJid: key.remoteJid ?? null,
      fromMe: key.fromMe === true,
      id: key.id ?? null,
    },
    message: message.message
      ? (withoutDroppedFields(
          proto.Message.toObject(proto.Message.fromObject(message.message), { longs: String, bytes: String }),
        ) as Record<string, unknown>)
      : null,
    messageTimestamp: message.messageTimestamp == null ? null : toNumber(message.messageTimestamp),
    pushName: message.pushName ?? null,
  };
  if (key.remoteJidAlt) stored.key.remoteJidAlt = key.remoteJidAlt;
  if (key.participant) stored.key.participant = key.participant;
  if (key.participantAlt) stored.key.participantAlt = key.participantAlt;
  if (key.addressingMode) stored.key.addressingMode = key.addressingMode;
  if (message.participant) stored.participant = message.participant;
  return stored;
}

/** The WAMessage of a stored form, for Baileys' functions (media download, quoting). */
export function messageFromStoredData(data: StoredWhatsAppMessage): WAMessage {
  const key: WAMessageKey = {
    remoteJid: data.key.remoteJid,
    fromMe: data.key.fromMe,
    id: data.key.id,
  };
  if (data.key.remoteJidAlt) key.remoteJidAlt = data.key.remoteJidAlt;
  if (data.key.participant) key.participant = data.key.participant;
  if (data.key.participantAlt) key.participantAlt = data.key.participantAlt;
  if (data.key.addressingMode) key.addressingMode = data.key.addressingMode;
  return {
    key,
    message: data.message ? proto.Message.fromObject(data.message) : null,
    messageTimestamp: data.messageTimestamp,
    pushName: data.pushName,
    ...(data.participant ? { participant: data.participant } : {}),
  };
}

/** The JSON-safe stored form of a call offer. */
export function storedCallData(call: WACallEvent): StoredWhatsAppCall {
  return {
    call: {
      id: call.id,
      from: call.from,
      callerPn: call.callerPn ?? null,
      chatId: call.chatId,
      groupJid: call.groupJid ?? null,
      isVideo: call.isVideo === true,
      isGroup: call.isGroup === true,
      offline: call.offline,
      date: call.date.toISOString(),
    },
  };
}
