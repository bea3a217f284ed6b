import type { InboundContact } from '@balcao/plugin-sdk/server';
import {
  isJidBroadcast,
  isJidGroup,
  isJidMetaAI,
  isJidNewsletter,
  isJidStatusBroadcast,
  normalizeMessageContent,
  proto,
  toNumber,
  type WACallEvent,
  type WAMessage,
} from '@whiskeysockets/baileys';
import { toProductAck } from '../outbound/ack';
import { callBody, contentTypeOf, contextInfoOf, IGNORED_CONTENT, textOf, translateContent } from './content';
import {
  contactOf,
  type IdentityLookups,
  normaliseUserJid,
  ownJidSet,
  type PersonIdentity,
  personIdentity,
  preferredIdentifier,
} from './identity';
import { storedCallData, storedMessageData } from './stored-data';
import { type InboundTexts, inboundTexts } from './texts';
import type { IgnoredEvent, InboundEvent, InboundMessageEvent, NormaliseContext } from './types';

/**
 * Inbound WhatsApp → the inbox: one Baileys message (`messages.upsert`, or an update the session wraps as one)
 * becomes one `InboundEvent` — a message for `receive`, an edit, a delete, a reaction, or an ignore with its
 * reason. Pure: no I/O, every lookup comes in the context (see `NormaliseContext`, `lookupsFor`).
 *
 * Where a message belongs (the identity rules are on `PersonIdentity`):
 * - 1:1 chat (`remoteJid` a person): the contact is the chat's other party, from `remoteJid` and
 *   `remoteJidAlt`. A message the company's phone sent (`fromMe`) belongs there too, with `fromMe` true and no
 *   name (its push name is the company's); an alt naming the company itself is skipped.
 * - group (`…@g.us`): only with the connection's `allowGroup`. `group` is the group (its JID, and its subject
 *   when `groupName` knows it), `contact` the participant who wrote (`participant`, `participantAlt`) — for a
 *   message the company's phone wrote in the group, the company's own account, without a name.
 * - broadcast list (`…@broadcast`): the recipient sees it in the 1:1 chat with the sender, so it is the
 *   sender's (Baileys' `getChatId` does the same); one the company sent to a list has no single chat: ignored.
 * - ignored: status updates (`status@broadcast`), channels (`…@newsletter`), Meta AI, the company's chat with
 *   itself (its own notes, and where the phone sends its protocol messages).
 */
export function normaliseMessage(message: WAMessage, context: NormaliseContext): InboundEvent {
  const key = message.key;
  const chatJid = key?.remoteJid ?? '';
  const id = key?.id ?? '';
  if (!chatJid || !id) return ignore('message without a chat or an id');
  if (isJidStatusBroadcast(chatJid)) return ignore('status update (status@broadcast)');
  if (isJidNewsletter(chatJid)) return ignore('channel post (newsletter)');
  if (isJidMetaAI(chatJid)) return ignore('Meta AI chat');

  const stub = message.messageStubType ?? 0;
  const Stub = proto.WebMessageInfo.StubType;
  // Baileys asks the sender to retry and emits the decrypted copy with the same id: storing a placeholder now
  // would make the inbox take the real message for a redelivery and drop it
  if (stub === Stub.CIPHERTEXT) return ignore('not decrypted yet (Baileys retries; the copy comes with the same id)');
  const callStub = CALL_STUBS.get(stub);
  const revokeStub = stub === Stub.REVOKE || stub === Stub.ADMIN_REVOKE;
  if (stub !== 0 && !callStub && !revokeStub && !message.message) return ignore(`notice ${Stub[stub] ?? stub}`);

  const place = placeOf(message, context);
  if ('reason' in place) return ignore(place.reason);
  const { fromMe } = place;
  const texts = inboundTexts(context.texts);

  if (callStub) {
    return messageEvent(message, place, {
      body: callBody(texts, callStub.video, texts.callOutcome[callStub.outcome]),
      mediaType: 'call_log',
    });
  }
  if (revokeStub) return { kind: 'delete', channelMessageId: id, fromMe };

  const raw = message.message;
  if (!raw) {
    // a view-once message reaches the phone only: the customer wrote something, so the inbox says where it is
    if (key.isViewOnce) return messageEvent(message, place, { body: texts.viewOnceUnavailable, mediaType: 'chat' });
    return ignore('empty message');
  }
  const edited = isEditWrapper(raw);
  const content = normalizeMessageContent(raw);
  if (!content) return ignore('empty message');

  if (content.protocolMessage) return protocolEvent(content.protocolMessage, fromMe);
  // Baileys' `messages.update` for an edit carries the new content as `editedMessage` of the edited message's key
  if (edited) return { kind: 'edit', channelMessageId: id, body: textOf(content), fromMe };
  if (content.reactionMessage) {
    const target = content.reactionMessage.key?.id;
    if (!target) return ignore('reaction without its message');
    const contactIdentifier = fromMe ? undefined : preferredIdentifier(place.sender);
    return {
      kind: 'reaction',
      channelMessageId: target,
      type: content.reactionMessage.text ?? '',
      fromMe,
      ...(contactIdentifier ? { contactIdentifier } : {}),
    };
  }

  const type = contentTypeOf(content);
  if (!type) return ignore('no content (a group sender key or metadata only)');
  const ignoredBecause = IGNORED_CONTENT[type];
  if (ignoredBecause) return ignore(ignoredBecause);

  const translation = translateContent(content, type, texts);
  const quotedId = contextInfoOf(content, type)?.stanzaId || null;
  const event = messageEvent(message, place, { body: translation.body, mediaType: translation.mediaType, quotedId });
  if (translation.media) event.media = translation.media;
  if (translation.unsupportedType) event.unsupportedType = translation.unsupportedType;
  return event;
}

/**
 * An incoming call offer → a `call_log` message ("Chamada de voz recebida"). Only the offer: the other call
 * states (ringing elsewhere, accept, reject, timeout, terminate) say nothing new to the agent. The caller is
 * `from` (a LID or a phone JID) with `callerPn`; a group call goes to the group, with `allowGroup` only. The
 * message id is the call id prefixed `call:` so that it can never meet a message id. Rejecting the call and
 * answering with the company's message is the session's (acceptCallWhatsapp).
 */
export function normaliseCall(call: WACallEvent, context: NormaliseContext): InboundEvent {
  if (call.status !== 'offer') return ignore(`call ${call.status}`);
  const own = ownJidSet([context.meId, context.meLid]);
  const caller = personIdentity([call.from, call.callerPn, isJidGroup(call.chatId) ? undefined : call.chatId], context, own);
  if (!caller.phoneJid && !caller.lid) return ignore('call from an unknown caller');
  let group: InboundContact | undefined;
  if (call.isGroup || call.groupJid) {
    if (!context.allowGroup) return ignore('group call (the connection does not take groups)');
    if (call.groupJid) group = groupContact(call.groupJid, context);
  }
  const texts = inboundTexts(context.texts);
  const event: InboundMessageEvent = {
    kind: 'message',
    contact: contactOf(caller, undefined),
    message: {
      id: `call:${call.id}`,
      fromMe: false,
      body: callBody(texts, call.isVideo === true, texts.callOutcome.incoming),
      mediaType: 'call_log',
      quotedId: null,
      timestamp: call.date,
      data: storedCallData(call),
    },
  };
  if (group) event.group = group;
  return event;
}

/** The JIDs of a message's people whose other identifier the session should look up before normalising. */
export interface LookupsNeeded {
  /** LIDs without their phone JID in the key: ask `getPNForLID`. */
  lids: string[];
  /** Phone JIDs without their LID in the key: ask `getLIDForPN`. */
  phoneJids: string[];
  /** The group whose subject `groupName` should know. */
  groupJid: string | null;
}

/**
 * What the session should resolve (asynchronously, from Baileys' stores) before calling `normaliseMessage`,
 * so that the synchronous lookups of the context can answer. Give it the company's own JIDs (as in the
 * context): an alt naming the company in a chat its phone wrote in is not the other party's.
 */
export function lookupsFor(message: WAMessage, self: Pick<NormaliseContext, 'meId' | 'meLid'> = {}): LookupsNeeded {
  const key = message.key;
  const chatJid = key?.remoteJid ?? '';
  if (isJidGroup(chatJid)) {
    return { ...missingPairs([key.participant, key.participantAlt, message.participant]), groupJid: chatJid };
  }
  const own = ownJidSet([self.meId, self.meLid]);
  const jids = isJidBroadcast(chatJid)
    ? [key.participant, key.participantAlt, key.remoteJidAlt, message.participant]
    : [chatJid, key.remoteJidAlt];
  return { ...missingPairs(jids, own), groupJid: null };
}

/** `lookupsFor` for a call offer. */
export function lookupsForCall(call: WACallEvent): LookupsNeeded {
  return {
    ...missingPairs([call.from, call.callerPn, isJidGroup(call.chatId) ? undefined : call.chatId]),
    groupJid: call.groupJid ?? null,
  };
}

function missingPairs(
  jids: ReadonlyArray<string | null | undefined>,
  own: ReadonlySet<string> = new Set(),
): Pick<LookupsNeeded, 'lids' | 'phoneJids'> {
  const known = personIdentity(jids, NO_LOOKUPS, own);
  return {
    lids: known.lid && !known.phoneJid ? [known.lid] : [],
    phoneJids: known.phoneJid && !known.lid ? [known.phoneJid] : [],
  };
}

const NO_LOOKUPS: IdentityLookups = { lidToPn: () => null };

/** Missed-call notices (message stubs) → the call's kind and how it ended. */
const CALL_STUBS: ReadonlyMap<number, { video: boolean; outcome: keyof InboundTexts['callOutcome'] }> = new Map([
  [proto.WebMessageInfo.StubType.CALL_MISSED_VOICE, { video: false, outcome: 'missed' }],
  [proto.WebMessageInfo.StubType.CALL_MISSED_VIDEO, { video: true, outcome: 'missed' }],
  [proto.WebMessageInfo.StubType.CALL_MISSED_GROUP_VOICE, { video: false, outcome: 'missed' }],
  [proto.WebMessageInfo.StubType.CALL_MISSED_GROUP_VIDEO, { video: true, outcome: 'missed' }],
  [proto.WebMessageInfo.StubType.SILENCED_UNKNOWN_CALLER_AUDIO, { video: false, outcome: 'silenced' }],
  [proto.WebMessageInfo.StubType.SILENCED_UNKNOWN_CALLER_VIDEO, { video: true, outcome: 'silenced' }],
]);

/**
 * The wrappers Baileys' `normalizeMessageContent` opens, in its order: walked here only to tell whether one of
 * them was `editedMessage` (normalising drops that fact).
 */
const WRAPPERS = [
  'ephemeralMessage',
  'viewOnceMessage',
  'documentWithCaptionMessage',
  'viewOnceMessageV2',
  'viewOnceMessageV2Extension',
  'editedMessage',
  'associatedChildMessage',
  'groupStatusMessage',
  'groupStatusMessageV2',
] as const satisfies ReadonlyArray<keyof proto.IMessage>;

function isEditWrapper(content: proto.IMessage): boolean {
  let layer: proto.IMessage | null | undefined = content;
  // five levels, as Baileys' own loop
  for (let depth = 0; depth < 5 && layer; depth++) {
    const current: proto.IMessage = layer;
    const wrapper = WRAPPERS.find((name) => current[name] != null);
    if (!wrapper) return false;
    if (wrapper === 'editedMessage') return true;
    layer = current[wrapper]?.message;
  }
  return false;
}

/** Deletes and edits are protocol messages; every other protocol message is the app's own traffic. */
function protocolEvent(protocol: proto.Message.IProtocolMessage, fromMe: boolean): InboundEvent {
  const Type = proto.Message.ProtocolMessage.Type;
  const type = protocol.type ?? Type.REVOKE;
  const target = protocol.key?.id;
  if (type === Type.REVOKE) {
    return target ? { kind: 'delete', channelMessageId: target, fromMe } : ignore('delete without its message');
  }
  if (type === Type.MESSAGE_EDIT) {
    if (!target) return ignore('edit without its message');
    const edited = normalizeMessageContent(protocol.editedMessage) ?? {};
    const editedAt = protocol.timestampMs == null ? undefined : new Date(toNumber(protocol.timestampMs));
    return { kind: 'edit', channelMessageId: target, body: textOf(edited), fromMe, ...(editedAt ? { editedAt } : {}) };
  }
  return ignore(`protocol message ${Type[type] ?? type}`);
}

/** Where a message belongs: its contact (and group), who wrote it, whether the company's phone did. */
interface Place {
  contact: InboundContact;
  group?: InboundContact;
  /** The person who wrote it (the company's account for its own group messages). */
  sender: PersonIdentity;
  fromMe: boolean;
}

function placeOf(message: WAMessage, context: NormaliseContext): Place | { reason: string } {
  const key = message.key;
  const chatJid = key.remoteJid ?? '';
  const fromMe = key.fromMe === true;
  const name = fromMe ? undefined : (message.pushName ?? message.verifiedBizName);
  const own = ownJidSet([context.meId, context.meLid]);

  if (isJidGroup(chatJid)) {
    if (!context.allowGroup) return { reason: 'group message (the connection does not take groups)' };
    const sender = personIdentity([key.participant, key.participantAlt, message.participant], context);
    if (!sender.phoneJid && !sender.lid) return { reason: 'group message without its participant' };
    return { contact: contactOf(sender, name), group: groupContact(chatJid, context), sender, fromMe };
  }
  if (isJidBroadcast(chatJid)) {
    if (fromMe) return { reason: 'broadcast list message the company sent' };
    const sender = personIdentity([key.participant, key.participantAlt, key.remoteJidAlt, message.participant], context, own);
    if (!sender.phoneJid && !sender.lid) return { reason: 'broadcast list message without its sender' };
    return { contact: contactOf(sender, name), sender, fromMe };
  }
  const chatUser = normaliseUserJid(chatJid);
  if (!chatUser) return { reason: `chat of an unknown kind (${chatJid})` };
  if (isOwn(chatUser, own, context)) return { reason: "the company's chat with itself" };
  const party = personIdentity([chatJid, key.remoteJidAlt], context, own);
  if (!party.phoneJid && !party.lid) return { reason: 'chat without its other party' };
  return { contact: contactOf(party, name), sender: party, fromMe };
}

/** Whether a chat is the company's own, directly or through the mapping (a session may know one of its JIDs only). */
function isOwn(jid: string, own: ReadonlySet<string>, lookups: IdentityLookups): boolean {
  if (own.has(jid)) return true;
  const other = normaliseUserJid(jid.endsWith('@lid') ? lookups.lidToPn(jid) : lookups.pnToLid?.(jid));
  return other !== null && own.has(other);
}

function groupContact(groupJid: string, context: NormaliseContext): InboundContact {
  const name = context.groupName(groupJid)?.trim();
  return name ? { identifiers: [groupJid], name } : { identifiers: [groupJid] };
}

function messageEvent(
  message: WAMessage,
  place: Place,
  content: Pick<InboundMessageEvent['message'], 'body' | 'mediaType'> & { quotedId?: string | null },
): InboundMessageEvent {
  const seconds = message.messageTimestamp == null ? 0 : toNumber(message.messageTimestamp);
  const event: InboundMessageEvent = {
    kind: 'message',
    contact: place.contact,
    message: {
      id: message.key.id ?? '',
      fromMe: place.fromMe,
      body: content.body,
      mediaType: content.mediaType,
      quotedId: content.quotedId ?? null,
      data: storedMessageData(message),
    },
  };
  if (place.group) event.group = place.group;
  if (seconds > 0) event.message.timestamp = new Date(seconds * 1000);
  if (place.fromMe && message.status != null) {
    const ack = toProductAck(message.status);
    if (ack !== null) event.message.ack = ack;
  }
  return event;
}

function ignore(reason: string): IgnoredEvent {
  return { kind: 'ignore', reason };
}
