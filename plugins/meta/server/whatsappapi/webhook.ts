import type { MessageAck } from '@balcao/plugin-sdk/server';
import { GraphError } from '../graph/client';
import { mapGraphError } from '../graph/errors';
import type { ConnectionEvents, InboundEvent, InboundPerson } from '../inbound/events';

/** Our message id in a status's `biz_opaque_callback_data` (`balcao:<id>`, set by the driver's send). */
export function sentAsOf(data: string | undefined): number | null {
  const match = /^balcao:(\d{1,15})$/.exec(data ?? '');
  return match ? Number(match[1]) : null;
}

/** The WhatsApp Cloud API's webhook payload, the parts we read. */
interface CloudValue {
  metadata?: { phone_number_id?: string };
  contacts?: Array<{ wa_id?: string; profile?: { name?: string } }>;
  messages?: CloudMessage[];
  statuses?: Array<{
    id?: string;
    status?: string;
    /** What our send put in `biz_opaque_callback_data`: our message id (`balcao:<id>`). */
    biz_opaque_callback_data?: string;
    errors?: Array<{ code?: number; title?: string }>;
  }>;
}

interface CloudMedia {
  id?: string;
  mime_type?: string;
  caption?: string;
  filename?: string;
}

interface CloudMessage {
  id?: string;
  from?: string;
  timestamp?: string;
  type?: string;
  text?: { body?: string };
  image?: CloudMedia;
  video?: CloudMedia;
  audio?: CloudMedia;
  document?: CloudMedia;
  sticker?: CloudMedia;
  reaction?: { message_id?: string; emoji?: string };
  location?: { latitude?: number; longitude?: number; name?: string; address?: string };
  contacts?: Array<{ name?: { formatted_name?: string }; phones?: Array<{ phone?: string }> }>;
  button?: { text?: string };
  interactive?: { button_reply?: { title?: string }; list_reply?: { title?: string; description?: string } };
  context?: { id?: string };
  referral?: { headline?: string; body?: string; source_url?: string };
}

const ACKS: Record<string, MessageAck> = { sent: 1, delivered: 2, read: 3 };
const MEDIA: Record<string, string> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  document: 'application',
  sticker: 'image',
};

const lines = (...parts: Array<string | null | undefined>) => parts.filter((part) => part?.trim()).join('\n');

function messageEvent(message: CloudMessage, person: InboundPerson): InboundEvent | null {
  if (!message.id || !message.from) return null;
  const base = {
    kind: 'message' as const,
    id: message.id,
    person,
    fromMe: false,
    timestamp: Number(message.timestamp ?? 0) * 1000 || Date.now(),
    quotedId: message.context?.id ?? null,
    data: message,
  };
  const type = message.type ?? '';
  if (type === 'reaction')
    return message.reaction?.message_id
      ? { kind: 'reaction', person, targetId: message.reaction.message_id, emoji: message.reaction.emoji ?? '', fromMe: false }
      : null;
  const ad = message.referral ? lines(message.referral.headline, message.referral.body, message.referral.source_url) : '';
  if (type === 'text') return { ...base, body: lines(message.text?.body, ad), mediaType: 'chat' };
  const media = MEDIA[type] ? (message[type as keyof CloudMessage] as CloudMedia | undefined) : undefined;
  if (media?.id)
    return {
      ...base,
      body: media.caption ?? (type === 'document' ? (media.filename ?? '') : ''),
      mediaType: MEDIA[type] as string,
      media: { mediaId: media.id, mimetype: media.mime_type, fileName: media.filename ?? null },
    };
  if (type === 'location' && message.location)
    return {
      ...base,
      body: lines(`${message.location.latitude},${message.location.longitude}`, message.location.name, message.location.address),
      mediaType: 'locationMessage',
    };
  if (type === 'contacts' && message.contacts)
    return {
      ...base,
      body: message.contacts
        .map((card) => lines(card.name?.formatted_name, ...(card.phones ?? []).map((phone) => phone.phone)))
        .join('\n'),
      mediaType: 'contactMessage',
    };
  if (type === 'button') return { ...base, body: message.button?.text ?? '', mediaType: 'chat' };
  if (type === 'interactive') {
    const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
    return { ...base, body: reply?.title ?? '', mediaType: 'chat' };
  }
  return null;
}

/**
 * The events of a WhatsApp Cloud webhook delivery, per phone number id: messages of every type we store,
 * reactions, receipts (`sent`/`delivered`/`read` → acks, `failed` → a failed message with why). Types we
 * don't store are counted in `skipped`, for the log.
 */
export function whatsappEvents(payload: unknown): { connections: ConnectionEvents[]; skipped: number } {
  const connections = new Map<string, InboundEvent[]>();
  let skipped = 0;
  const entries = (payload as { entry?: Array<{ changes?: Array<{ field?: string; value?: CloudValue }> }> }).entry ?? [];
  for (const entry of entries) {
    for (const change of entry.changes ?? []) {
      const value = change.value;
      const phoneNumberId = value?.metadata?.phone_number_id;
      if (change.field !== 'messages' || !value || !phoneNumberId) {
        skipped += 1;
        continue;
      }
      const events = connections.get(phoneNumberId) ?? [];
      connections.set(phoneNumberId, events);
      const names = new Map((value.contacts ?? []).map((contact) => [contact.wa_id, contact.profile?.name ?? null]));
      for (const message of value.messages ?? []) {
        const from = message.from ?? '';
        const event = messageEvent(message, { id: from, number: from, name: names.get(from) ?? null });
        if (event) events.push(event);
        else skipped += 1;
      }
      for (const status of value.statuses ?? []) {
        if (!status.id || !status.status) continue;
        const ack = ACKS[status.status];
        const sentAs = sentAsOf(status.biz_opaque_callback_data);
        if (ack) events.push({ kind: 'ack', id: status.id, ack, ...(sentAs ? { sentAs } : {}) });
        else if (status.status === 'failed') {
          const first = status.errors?.[0];
          const error = mapGraphError(new GraphError(400, Number(first?.code ?? -1), first?.title ?? 'failed')).code;
          events.push({ kind: 'failed', id: status.id, error, ...(sentAs ? { sentAs } : {}) });
        }
      }
    }
  }
  return { connections: [...connections].map(([externalId, events]) => ({ externalId, events })), skipped };
}
