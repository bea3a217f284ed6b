import { AppError, type OutboundTarget } from '@balcao/plugin-sdk/server';
import type { WAMessageKey } from '@whiskeysockets/baileys';
// not the package's root: that loads all of Baileys, and a send is queued in processes that run no session
import { isJidGroup } from '@whiskeysockets/baileys/lib/WABinary/jid-utils.js';
import { isLidJid, isPhoneJid, normaliseUserJid } from '../inbound/identity';

/** E.164 numbers have at most 15 digits; the inbox's contact form asks for at least 8. */
const PHONE_DIGITS = /^\d{8,15}$/;

/**
 * The JID a ticket's messages go to.
 * - a group ticket: the group's JID among the contact's identifiers (a group is addressed by nothing else);
 * - otherwise the phone JID among the identifiers, else the LID: WhatsApp takes both, and Baileys maps a
 *   phone JID to the LID session it has when the chat moved to LIDs; the phone JID comes first because it
 *   is the one every contact made before LIDs existed has, and the one an agent can read;
 * - else `<number>@s.whatsapp.net` from the contact's number (a contact created by hand or imported);
 * - else `ERR_WAPP_INVALID_CONTACT` (400).
 */
export function targetJid(target: OutboundTarget): string {
  const { identifiers, number } = target.contact;
  if (target.ticket.isGroup) {
    const group = identifiers.find((identifier) => isJidGroup(identifier));
    if (group) return group;
    throw new AppError('ERR_WAPP_INVALID_CONTACT', { reason: 'group ticket without a group JID' });
  }
  const people = identifiers.map(normaliseUserJid).filter((jid): jid is string => jid !== null);
  const phoneJid = people.find(isPhoneJid) ?? people.find(isLidJid);
  if (phoneJid) return phoneJid;
  const digits = (number ?? '').replace(/\D/g, '');
  if (PHONE_DIGITS.test(digits)) return `${digits}@s.whatsapp.net`;
  throw new AppError('ERR_WAPP_INVALID_CONTACT');
}

/**
 * The WhatsApp key of a message of the chat `jid` (for edits, deletes, reactions, read receipts). In a group,
 * a message the company didn't send is only found with its author (`participant`); the inbox doesn't keep
 * it, so the session passes it when it knows it (the stored `data.key.participant` of the inbound message).
 */
export function messageKey(jid: string, channelMessageId: string, fromMe: boolean, participant?: string | null): WAMessageKey {
  const key: WAMessageKey = { remoteJid: jid, id: channelMessageId, fromMe };
  if (participant && !fromMe) key.participant = participant;
  return key;
}
