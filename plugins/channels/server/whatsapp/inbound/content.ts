import { proto } from '@whiskeysockets/baileys';
import {
  buttonsResponseText,
  buttonsText,
  highlyStructuredText,
  interactiveResponseText,
  interactiveText,
  lines,
  listResponseText,
  listText,
  templateButtonReplyText,
  templateText,
} from './templates';
import type { InboundTexts } from './texts';
import type { InboundMediaType, MediaToFetch } from './types';

/** The key of a content field of `proto.Message` (`conversation`, `imageMessage` …). */
export type ContentType = keyof proto.IMessage;

/** What one content becomes in the inbox. */
export interface Translation {
  body: string;
  mediaType: InboundMediaType;
  media?: MediaToFetch;
  /** The content type when it isn't one this code knows. */
  unsupportedType?: string;
}

/**
 * Fields of `proto.Message` that ride along with a content but aren't one: the group's sender key (sent with
 * a member's first message, and alone when nothing else is to be said) and the message's secret and metadata.
 */
const NOT_CONTENT: ReadonlySet<string> = new Set([
  'senderKeyDistributionMessage',
  'fastRatchetKeySenderKeyDistributionMessage',
  'messageContextInfo',
]);

/**
 * The content type of an unwrapped message: Baileys' `getContentType` (the first `conversation` or `…Message`
 * field), but past the fast-ratchet sender key too (`getContentType` skips only the plain one) and past
 * fields present with a null value; then any other field, so that a content named otherwise (the call log,
 * misspelt `callLogMesssage`, or a type WhatsApp adds later) is still a message rather than nothing.
 */
export function contentTypeOf(content: proto.IMessage): ContentType | undefined {
  const fields = (Object.keys(content) as ContentType[]).filter((field) => !NOT_CONTENT.has(field) && content[field] != null);
  return fields.find((field) => field === 'conversation' || field.includes('Message')) ?? fields[0];
}

/**
 * Content types that are not messages for the inbox, with why. Votes and event answers are encrypted updates
 * of another message (the inbox has nowhere to put them); the others are the app's own bookkeeping.
 */
export const IGNORED_CONTENT: Readonly<Partial<Record<ContentType, string>>> = {
  pollUpdateMessage: 'poll vote (an encrypted update of the poll)',
  encEventResponseMessage: 'event response (an encrypted update of the event)',
  encReactionMessage: 'encrypted reaction (communities and channels)',
  encCommentMessage: 'encrypted comment (channels)',
  keepInChatMessage: 'keep-in-chat toggle',
  pinInChatMessage: 'pin toggle',
  albumMessage: 'album header (its pictures arrive as messages of their own)',
  placeholderMessage: 'placeholder (Baileys asks the phone to resend the message with the same id)',
  stickerSyncRmrMessage: 'sticker sync',
  messageHistoryBundle: 'history bundle',
  messageHistoryNotice: 'history notice',
};

/** Text of a content that has some (edits read it too). */
export function textOf(content: proto.IMessage): string {
  return (
    content.conversation ??
    content.extendedTextMessage?.text ??
    content.imageMessage?.caption ??
    content.videoMessage?.caption ??
    content.documentMessage?.caption ??
    ''
  );
}

/** The contextInfo of a content (quotes, forwards, ads ride on it), whatever its type. */
export function contextInfoOf(content: proto.IMessage, type: ContentType): proto.IContextInfo | null {
  const field: unknown = content[type];
  if (field === null || typeof field !== 'object' || !('contextInfo' in field)) return null;
  const contextInfo = (field as { contextInfo?: proto.IContextInfo | null }).contextInfo;
  return contextInfo ?? null;
}

/**
 * A coordinate as `parseLocation` (the inbox UI) reads it: always with a decimal point, at most 7 decimals
 * (about 1 cm), never in exponent notation.
 */
export function coordinate(value: number | null | undefined): string {
  const fixed = (value ?? 0).toFixed(7).replace(/0+$/, '');
  return fixed.endsWith('.') ? `${fixed}0` : fixed;
}

/** `lat,lng` then the place's name and address (or a live location's caption), one per line. */
function locationBody(
  latitude: number | null | undefined,
  longitude: number | null | undefined,
  ...extra: Array<string | null | undefined>
) {
  return lines(`${coordinate(latitude)},${coordinate(longitude)}`, ...extra);
}

/** The ad a message came from, when it came from one (a click-to-WhatsApp ad). */
export function adPreviewOf(contextInfo: proto.IContextInfo | null): Translation | null {
  if (!contextInfo) return null;
  const ad = contextInfo.externalAdReply;
  const hasAd = Boolean(ad && (ad.title || ad.body || ad.sourceUrl || ad.thumbnail?.length || ad.thumbnailUrl));
  if (!hasAd && !contextInfo.conversionSource) return null;
  const body = lines(ad?.title, ad?.body, ad?.sourceUrl);
  const translation: Translation = { body, mediaType: 'adMetaPreview' };
  const bytes = ad?.thumbnail?.length ? ad.thumbnail : null;
  const url = ad?.thumbnailUrl?.startsWith('https://') ? ad.thumbnailUrl : null;
  if (bytes || url) {
    translation.media = { kind: 'thumbnail', mimetype: 'image/jpeg', fileName: 'anuncio.jpg', bytes, url };
    if (bytes) translation.media.fileLength = bytes.length;
  }
  return translation;
}

/** A call log's readable line: "Chamada de voz perdida". */
export function callBody(texts: InboundTexts, video: boolean, outcome: string, seconds?: number): string {
  const duration = seconds && seconds > 0 ? ` (${formatDuration(seconds)})` : '';
  return `${video ? texts.videoCall : texts.voiceCall} ${outcome}${duration}`;
}

function formatDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  return minutes > 0 ? `${minutes} min ${rest} s` : `${rest} s`;
}

function callLogOutcome(texts: InboundTexts, outcome: proto.Message.CallLogMessage.CallOutcome | null | undefined): string {
  const Outcome = proto.Message.CallLogMessage.CallOutcome;
  switch (outcome) {
    case Outcome.MISSED:
      return texts.callOutcome.missed;
    case Outcome.FAILED:
      return texts.callOutcome.failed;
    case Outcome.REJECTED:
      return texts.callOutcome.rejected;
    case Outcome.ACCEPTED_ELSEWHERE:
      return texts.callOutcome.acceptedElsewhere;
    case Outcome.ONGOING:
      return texts.callOutcome.ongoing;
    case Outcome.SILENCED_BY_DND:
    case Outcome.SILENCED_UNKNOWN_CALLER:
      return texts.callOutcome.silenced;
    default:
      return texts.callOutcome.connected;
  }
}

/** A poll as text: the question, then its options. */
function pollBody(texts: InboundTexts, poll: proto.Message.IPollCreationMessage): string {
  return lines(`${texts.poll}: ${poll.name ?? ''}`, ...(poll.options ?? []).map((option) => `• ${option.optionName ?? ''}`));
}

/** A protobuf int64 as Baileys hands it: a number or a Long. */
type Int64 = number | { toString(): string };

/** A file for the session to download with Baileys, with its declared size when WhatsApp gives one. */
function download(
  kind: 'image' | 'video' | 'audio' | 'document' | 'sticker',
  mimetype: string,
  fileLength: Int64 | null | undefined,
): Extract<MediaToFetch, { kind: 'image' | 'video' | 'audio' | 'document' | 'sticker' }> {
  const size = fileLength == null ? Number.NaN : Number(fileLength.toString());
  return Number.isFinite(size) && size > 0 ? { kind, mimetype, fileLength: size } : { kind, mimetype };
}

/** An amount in thousandths (WhatsApp's commerce unit) with its currency. */
function amount(thousandths: Int64 | null | undefined, currency: string | null | undefined): string | undefined {
  if (thousandths == null) return undefined;
  const value = Number(thousandths.toString()) / 1000;
  return `${currency ?? ''} ${value.toFixed(2)}`.trim();
}

/**
 * What an unwrapped content becomes: body, media type and the file to fetch. `type` is `contentTypeOf`'s
 * answer; contents the inbox must not see (`IGNORED_CONTENT`, protocol messages, reactions) are decided
 * before this. An unknown type still becomes a message (a customer's message is never dropped silently).
 */
export function translateContent(content: proto.IMessage, type: ContentType, texts: InboundTexts): Translation {
  switch (type) {
    case 'conversation':
      return withAd(content.conversation ?? '', null);
    case 'extendedTextMessage':
      return withAd(content.extendedTextMessage?.text ?? '', content.extendedTextMessage?.contextInfo ?? null);

    case 'imageMessage': {
      const image = content.imageMessage ?? {};
      return {
        body: image.caption ?? '',
        mediaType: 'image',
        media: download('image', image.mimetype || 'image/jpeg', image.fileLength),
      };
    }
    case 'videoMessage':
    case 'ptvMessage': {
      // a GIF is a looping mp4 (gifPlayback) and a video note a round one (ptv): both play as videos
      const video = content[type] ?? {};
      return {
        body: video.caption ?? '',
        mediaType: 'video',
        media: download('video', video.mimetype || 'video/mp4', video.fileLength),
      };
    }
    case 'audioMessage': {
      const audio = content.audioMessage ?? {};
      const media = download('audio', audio.mimetype || 'audio/ogg; codecs=opus', audio.fileLength);
      return { body: '', mediaType: 'audio', media: { ...media, ptt: audio.ptt === true } };
    }
    case 'documentMessage': {
      const document = content.documentMessage ?? {};
      const fileName = document.fileName?.trim() || document.title?.trim() || undefined;
      const media = download('document', document.mimetype || 'application/octet-stream', document.fileLength);
      if (fileName) media.fileName = fileName;
      // without a caption the file's name is the body: the ticket list and the search show something
      return { body: document.caption?.trim() ? document.caption : (fileName ?? ''), mediaType: 'application', media };
    }
    case 'stickerMessage': {
      const sticker = content.stickerMessage ?? {};
      return { body: '', mediaType: 'image', media: download('sticker', sticker.mimetype || 'image/webp', sticker.fileLength) };
    }
    case 'lottieStickerMessage':
      // an animated (Lottie) sticker is no picture the inbox can show
      return { body: texts.sticker, mediaType: 'chat' };
    case 'stickerPackMessage':
      return { body: lines(texts.stickerPack, content.stickerPackMessage?.name), mediaType: 'chat' };

    case 'locationMessage': {
      const location = content.locationMessage ?? {};
      return {
        body: locationBody(location.degreesLatitude, location.degreesLongitude, location.name, location.address),
        mediaType: 'locationMessage',
      };
    }
    case 'liveLocationMessage': {
      const live = content.liveLocationMessage ?? {};
      return { body: locationBody(live.degreesLatitude, live.degreesLongitude, live.caption), mediaType: 'locationMessage' };
    }

    case 'contactMessage': {
      const contact = content.contactMessage ?? {};
      return { body: contact.vcard?.trim() || contact.displayName?.trim() || '', mediaType: 'contactMessage' };
    }
    case 'contactsArrayMessage': {
      // every card, one after another: the inbox UI shows the first, the text keeps them all
      const cards = (content.contactsArrayMessage?.contacts ?? []).map((contact) => contact.vcard?.trim()).filter(Boolean);
      return { body: cards.join('\n'), mediaType: 'contactMessage' };
    }

    case 'templateMessage':
      return { body: templateText(content.templateMessage ?? {}), mediaType: 'template' };
    case 'buttonsMessage':
      return { body: buttonsText(content.buttonsMessage ?? {}), mediaType: 'template' };
    case 'listMessage':
      return { body: listText(content.listMessage ?? {}), mediaType: 'template' };
    case 'interactiveMessage':
      return { body: interactiveText(content.interactiveMessage ?? {}), mediaType: 'template' };
    case 'highlyStructuredMessage':
      return { body: highlyStructuredText(content.highlyStructuredMessage), mediaType: 'template' };

    case 'buttonsResponseMessage':
      return { body: buttonsResponseText(content.buttonsResponseMessage ?? {}), mediaType: 'chat' };
    case 'listResponseMessage':
      return { body: listResponseText(content.listResponseMessage ?? {}), mediaType: 'chat' };
    case 'templateButtonReplyMessage':
      return { body: templateButtonReplyText(content.templateButtonReplyMessage ?? {}), mediaType: 'chat' };
    case 'interactiveResponseMessage':
      return { body: interactiveResponseText(content.interactiveResponseMessage ?? {}), mediaType: 'chat' };

    case 'pollCreationMessage':
    case 'pollCreationMessageV2':
    case 'pollCreationMessageV3':
    case 'pollCreationMessageV5':
      return { body: pollBody(texts, content[type] ?? {}), mediaType: 'chat' };
    case 'pollCreationMessageV4': {
      // V4 wraps a poll (with pictures) that Baileys' normalisation doesn't unwrap
      const inner = content.pollCreationMessageV4?.message;
      const innerType = inner ? contentTypeOf(inner) : undefined;
      if (inner && innerType) return translateContent(inner, innerType, texts);
      return unsupported(type, texts);
    }

    case 'callLogMesssage': {
      const log = content.callLogMesssage ?? {};
      const seconds = log.durationSecs == null ? undefined : Number(log.durationSecs.toString());
      return {
        body: callBody(texts, log.isVideo === true, callLogOutcome(texts, log.callOutcome), seconds),
        mediaType: 'call_log',
      };
    }

    case 'eventMessage': {
      const event = content.eventMessage ?? {};
      const start = event.startTime == null ? undefined : new Date(Number(event.startTime.toString()) * 1000).toISOString();
      return {
        body: lines(`${texts.event}: ${event.name ?? ''}`, event.description, start, event.location?.name, event.joinLink),
        mediaType: 'chat',
      };
    }
    case 'groupInviteMessage': {
      const invite = content.groupInviteMessage ?? {};
      return { body: lines(`${texts.groupInvite}: ${invite.groupName ?? ''}`, invite.caption), mediaType: 'chat' };
    }
    case 'productMessage': {
      const product = content.productMessage?.product ?? {};
      return {
        body: lines(
          `${texts.product}: ${product.title ?? ''}`,
          product.description,
          amount(product.priceAmount1000, product.currencyCode),
          product.url,
          content.productMessage?.body,
        ),
        mediaType: 'chat',
      };
    }
    case 'orderMessage': {
      const order = content.orderMessage ?? {};
      const count = order.itemCount ? `${order.itemCount} ${texts.items}` : undefined;
      const total = amount(order.totalAmount1000, order.totalCurrencyCode);
      return {
        body: lines(
          `${texts.order}: ${order.orderTitle ?? order.orderId ?? ''}`,
          [count, total].filter(Boolean).join(' — '),
          order.message,
        ),
        mediaType: 'chat',
      };
    }

    default:
      return unsupported(type, texts);
  }
}

/** A text, or an ad preview when it came from an ad: the ad's lines, then what the contact wrote. */
function withAd(text: string, contextInfo: proto.IContextInfo | null): Translation {
  const ad = adPreviewOf(contextInfo);
  if (!ad) return { body: text, mediaType: 'chat' };
  return { ...ad, body: [ad.body, text.trim()].filter(Boolean).join('\n\n') };
}

function unsupported(type: string, texts: InboundTexts): Translation {
  return { body: `${texts.unsupported} (${type})`, mediaType: 'chat', unsupportedType: type };
}
