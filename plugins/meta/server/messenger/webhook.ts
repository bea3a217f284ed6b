import type { ConnectionEvents, InboundEvent } from '../inbound/events';
import { sentAsOf } from '../whatsappapi/webhook';

/** One `messaging` item of a Messenger or Instagram delivery, the parts we read. */
interface Attachment {
  type?: string;
  payload?: { url?: string; title?: string; coordinates?: { lat?: number; long?: number } };
}

interface Referral {
  ref?: string;
  source?: string;
  type?: string;
  ad_id?: string;
  ads_context_data?: { ad_title?: string; photo_url?: string };
}

interface Messaging {
  sender?: { id?: string };
  recipient?: { id?: string };
  timestamp?: number;
  message?: {
    mid?: string;
    text?: string;
    is_echo?: boolean;
    /** What our send put in `metadata` (`balcao:<id>`), on its echo. */
    metadata?: string;
    /** The app that sent an echoed message. */
    app_id?: string | number;
    is_deleted?: boolean;
    attachments?: Attachment[];
    reply_to?: { mid?: string; story?: { url?: string; id?: string } };
    quick_reply?: { payload?: string };
    referral?: Referral;
  };
  reaction?: { mid?: string; action?: string; emoji?: string; reaction?: string };
  read?: { mid?: string; watermark?: number };
  delivery?: { mids?: string[]; watermark?: number };
  referral?: Referral;
  postback?: { title?: string; payload?: string; mid?: string };
}

const lines = (...parts: Array<string | null | undefined>) => parts.filter((part) => part?.trim()).join('\n');

const MEDIA: Record<string, string> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  file: 'application',
  story_mention: 'image',
};

/** The text that tells the agent where a conversation came from (an ad, an m.me link, a shop). */
function referralText(referral: Referral | undefined): string {
  if (!referral) return '';
  return lines(
    `↪ ${referral.source ?? 'referral'}${referral.type ? ` (${referral.type})` : ''}`,
    referral.ads_context_data?.ad_title,
    referral.ref,
  );
}

function messagingEvents(
  platform: 'facebook' | 'instagram',
  ownId: string,
  item: Messaging,
  appId: string | null,
): { events: InboundEvent[]; skipped: number } {
  const sender = item.sender?.id ?? '';
  const recipient = item.recipient?.id ?? '';
  const timestamp = item.timestamp ?? Date.now();
  const message = item.message;
  // an echo is a message the page itself sent (from its own inbox or another tool): ours, to the recipient
  const fromMe = message?.is_echo === true || sender === ownId;
  // our own sends are stored when sent: their echoes would store them twice (a text after an attachment
  // has no id of ours at all). An echo naming our message (`metadata`) tells its Graph id to a send cut
  // off by a crash before the id was recorded (send-attempts.ts)
  if (message?.is_echo === true && appId && String(message.app_id ?? '') === appId) {
    const sentAs = sentAsOf(message.metadata);
    return sentAs && message.mid
      ? { events: [{ kind: 'echo', id: message.mid, sentAs }], skipped: 0 }
      : { events: [], skipped: 1 };
  }
  const person = { id: fromMe ? recipient : sender };
  if (!person.id) return { events: [], skipped: 1 };

  if (message?.mid) {
    if (message.is_deleted) return { events: [{ kind: 'delete', id: message.mid }], skipped: 0 };
    const story = message.reply_to?.story;
    const base = {
      kind: 'message' as const,
      person,
      fromMe,
      timestamp,
      quotedId: message.reply_to?.mid ?? null,
      data: { platform, ...item },
    };
    const extra = lines(story ? `↩ story ${story.url ?? ''}` : null, referralText(message.referral));
    const attachments = message.attachments ?? [];
    if (attachments.length === 0)
      return { events: [{ ...base, id: message.mid, body: lines(message.text, extra), mediaType: 'chat' }], skipped: 0 };
    // a message with several files is stored as one message per file (the first keeps the id Meta gave)
    const events: InboundEvent[] = attachments.map((attachment, index) => {
      const id = index === 0 ? (message.mid as string) : `${message.mid}#${index}`;
      const caption = lines(
        index === 0 ? message.text : null,
        attachment.type === 'story_mention' ? '@ story mention' : null,
        extra,
      );
      const url = attachment.payload?.url;
      const mediaType = attachment.type ? MEDIA[attachment.type] : undefined;
      if (mediaType && url) return { ...base, id, body: caption, mediaType, media: { url } };
      if (attachment.type === 'location') {
        const at = attachment.payload?.coordinates;
        return { ...base, id, body: lines(`${at?.lat},${at?.long}`, attachment.payload?.title), mediaType: 'locationMessage' };
      }
      return { ...base, id, body: lines(caption, attachment.payload?.title, url), mediaType: 'chat' };
    });
    return { events, skipped: 0 };
  }
  if (item.reaction?.mid) {
    const emoji = item.reaction.action === 'unreact' ? '' : (item.reaction.emoji ?? '');
    return { events: [{ kind: 'reaction', person, targetId: item.reaction.mid, emoji, fromMe }], skipped: 0 };
  }
  if (item.delivery?.mids?.length)
    return { events: item.delivery.mids.map((id) => ({ kind: 'ack' as const, id, ack: 2 as const })), skipped: 0 };
  if (item.read?.mid) return { events: [{ kind: 'ack', id: item.read.mid, ack: 3 }], skipped: 0 };
  if (item.postback?.title || item.referral) {
    // a button pressed or a conversation opened from an ad / link: the agent sees where it came from
    const id = item.postback?.mid ?? `ref-${sender}-${timestamp}`;
    const body = lines(item.postback?.title, referralText(item.referral));
    return {
      events: [
        {
          kind: 'message',
          id,
          person,
          fromMe: false,
          timestamp,
          body,
          mediaType: item.referral ? 'adMetaPreview' : 'chat',
          data: { platform, ...item },
        },
      ],
      skipped: 0,
    };
  }
  // Messenger's read watermarks name no message: the agent's screen learns reads from the messages' own acks
  return { events: [], skipped: 1 };
}

/**
 * The events of a Messenger (`page`) or Instagram (`instagram`) delivery, per page or account id; echoes
 * of messages `appId` (this server's Meta app) sent are left out.
 */
export function messengerEvents(
  platform: 'facebook' | 'instagram',
  payload: unknown,
  appId: string | null = null,
): { connections: ConnectionEvents[]; skipped: number } {
  const connections = new Map<string, InboundEvent[]>();
  let skipped = 0;
  const entries = (payload as { entry?: Array<{ id?: string; messaging?: Messaging[] }> }).entry ?? [];
  for (const entry of entries) {
    const ownId = entry.id;
    if (!ownId || !Array.isArray(entry.messaging)) {
      skipped += 1;
      continue;
    }
    const events = connections.get(ownId) ?? [];
    connections.set(ownId, events);
    for (const item of entry.messaging) {
      const found = messagingEvents(platform, ownId, item, appId);
      events.push(...found.events);
      skipped += found.skipped;
    }
  }
  return { connections: [...connections].map(([externalId, events]) => ({ externalId, events })), skipped };
}
