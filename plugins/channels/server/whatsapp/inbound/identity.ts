import type { InboundContact } from '@balcao/plugin-sdk/server';
// Baileys' own JID functions, from their module: the package's root loads all of Baileys (~60 MB), which a
// process must not pay until it runs a session (the driver's outbox uses these on every send)
import { jidDecode, jidEncode } from '@whiskeysockets/baileys/lib/WABinary/jid-utils.js';

/**
 * Who a person is on WhatsApp, as far as one message tells.
 *
 * WhatsApp addresses a person by phone JID (`5511988887777@s.whatsapp.net`) or by LID (`123456789012345@lid`,
 * an opaque id that hides the number), and switches between them per chat and over time. Baileys 7 puts the
 * one the stanza was addressed with in the key (`remoteJid`, or `participant` in a group) and the other one,
 * when the server sent it, in `remoteJidAlt` / `participantAlt`; its LID mapping store knows more pairs.
 *
 * The rules, so that one person stays one contact whichever identifier a message uses:
 * - every identifier is normalised (`jidNormalizedUser`: no device or agent suffix; `c.us` and hosted servers
 *   become `s.whatsapp.net` / `lid`), and only person JIDs count (`@s.whatsapp.net`, `@lid`);
 * - a contact's `identifiers` are every one seen for the person: the phone JID and the LID, each from the key
 *   or, when missing, from the session's mapping lookup (`lidToPn`, `pnToLid`);
 * - a contact is **never keyed on the number alone**: `number` (digits of the phone JID's user) is set only
 *   when the phone JID is known, never from a LID's digits, and identifiers are always JIDs;
 * - `name` is the sender's `pushName` (the profile name they chose), never for messages the company's own
 *   phone sent (`fromMe`: the push name is then the company's).
 */
export interface PersonIdentity {
  phoneJid: string | null;
  lid: string | null;
}

/** The lookups `personIdentity` may use (the session's view of Baileys' LID mapping store). */
export interface IdentityLookups {
  lidToPn(lid: string): string | null | undefined;
  pnToLid?(phoneJid: string): string | null | undefined;
}

/**
 * A person JID in its stored form (`<user>@s.whatsapp.net` or `<user>@lid`), or null for anything that isn't
 * a person (groups, broadcasts, newsletters, bots, garbage). Baileys' `cleanMessage` does the same to keys;
 * the alt fields and the mapping store's answers get it here.
 */
export function normaliseUserJid(jid: string | null | undefined): string | null {
  const decoded = jid ? jidDecode(jid) : undefined;
  if (!decoded?.user) return null;
  switch (decoded.server) {
    case 's.whatsapp.net':
    case 'c.us':
    case 'hosted':
      return jidEncode(decoded.user, 's.whatsapp.net');
    case 'lid':
    case 'hosted.lid':
      return jidEncode(decoded.user, 'lid');
    default:
      return null;
  }
}

/** True for a normalised phone JID. */
export function isPhoneJid(jid: string): boolean {
  return jid.endsWith('@s.whatsapp.net');
}

/** True for a normalised LID. */
export function isLidJid(jid: string): boolean {
  return jid.endsWith('@lid');
}

/**
 * The identity of one person from the JIDs a message names for them (primary and alt, in any order),
 * completed through the lookups. JIDs in `exclude` (the company's own account) are skipped: in a chat the
 * company's phone wrote in, an alt field may name the company rather than the other party.
 */
export function personIdentity(
  jids: ReadonlyArray<string | null | undefined>,
  lookups: IdentityLookups,
  exclude: ReadonlySet<string> = new Set(),
): PersonIdentity {
  let phoneJid: string | null = null;
  let lid: string | null = null;
  for (const raw of jids) {
    const jid = normaliseUserJid(raw);
    if (!jid || exclude.has(jid)) continue;
    if (isPhoneJid(jid)) phoneJid ??= jid;
    else lid ??= jid;
  }
  if (lid && !phoneJid) {
    const mapped = normaliseUserJid(lookups.lidToPn(lid));
    if (mapped && isPhoneJid(mapped) && !exclude.has(mapped)) phoneJid = mapped;
  }
  if (phoneJid && !lid) {
    const mapped = normaliseUserJid(lookups.pnToLid?.(phoneJid));
    if (mapped && isLidJid(mapped) && !exclude.has(mapped)) lid = mapped;
  }
  return { phoneJid, lid };
}

/** The identifiers of an identity, phone JID first. */
export function identifiersOf(identity: PersonIdentity): string[] {
  return [identity.phoneJid, identity.lid].filter((jid): jid is string => jid !== null);
}

/** The identifier a single-identifier API (a reaction's author) gets: the phone JID when known, else the LID. */
export function preferredIdentifier(identity: PersonIdentity): string | undefined {
  return identity.phoneJid ?? identity.lid ?? undefined;
}

/** The inbox contact of an identity: identifiers, the number only from a phone JID, the name when given. */
export function contactOf(identity: PersonIdentity, name: string | null | undefined): InboundContact {
  const contact: InboundContact = { identifiers: identifiersOf(identity) };
  const number = identity.phoneJid ? jidDecode(identity.phoneJid)?.user : undefined;
  if (number && /^\d+$/.test(number)) contact.number = number;
  const trimmed = name?.trim();
  if (trimmed) contact.name = trimmed;
  return contact;
}

/** The normalised set of the company's own JIDs (phone JID and LID of the connected account). */
export function ownJidSet(ownJids: ReadonlyArray<string | null | undefined>): Set<string> {
  const own = new Set<string>();
  for (const jid of ownJids) {
    const normalised = normaliseUserJid(jid);
    if (normalised) own.add(normalised);
  }
  return own;
}
