import type { MessageAck } from '@balcao/plugin-sdk/server';

/**
 * What a webhook delivery says, in our terms, whatever the platform: the webhook routes turn Meta's
 * payloads into these (cheaply, before answering), and the `inbound` / `inbound-media` jobs apply them.
 */
export interface InboundPerson {
  /** The platform's id of the person: a WhatsApp wa_id, a page-scoped id, an Instagram-scoped id. */
  id: string;
  name?: string | null;
  /** Digits of the phone number (WhatsApp). */
  number?: string | null;
}

export type InboundEvent =
  | {
      kind: 'message';
      id: string;
      /** The other party of the conversation (for an echo: the recipient). */
      person: InboundPerson;
      fromMe: boolean;
      timestamp: number;
      body: string;
      mediaType: string;
      quotedId?: string | null;
      /** A file to fetch from the Graph before storing: a WhatsApp media id or a Messenger / Instagram URL. */
      media?: { mediaId?: string; url?: string; mimetype?: string; fileName?: string | null } | null;
      /** The platform's payload (referrals, story mentions, the original of a file). */
      data: unknown;
    }
  | { kind: 'reaction'; person: InboundPerson; targetId: string; emoji: string; fromMe: boolean }
  /** `sentAs`: our message id, when the platform carries it back (WhatsApp Cloud's `biz_opaque_callback_data`). */
  | { kind: 'ack'; id: string; ack: MessageAck; sentAs?: number }
  | { kind: 'failed'; id: string; error: string; sentAs?: number }
  | { kind: 'delete'; id: string }
  /** The page's echo of a message this server sent (Messenger, Instagram): its Graph id and our id (`metadata`). */
  | { kind: 'echo'; id: string; sentAs: number };

/** The events of one delivery for one connection. */
export interface ConnectionEvents {
  externalId: string;
  events: InboundEvent[];
}
