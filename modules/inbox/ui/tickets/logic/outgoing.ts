/**
 * What the composer sends (`POST /messages/:ticketId`, docs/inbox-api.md): JSON for text and contacts,
 * multipart for files.
 */

/** A contact card sent as a message (docs/product/tickets-and-inbox.md#screens-and-routes send contact). */
export interface VCardContact {
  name: string;
  number: string;
}

/** JSON body of a text (or contact) message. */
export interface TextMessageBody {
  body: string;
  quotedMsg?: number;
  isPrivate?: boolean;
  signMessage?: boolean;
  vCard?: VCardContact;
}

/** Options shared by text and media sends. */
export interface SendOptions {
  quotedMsgId?: number | null;
  isPrivate: boolean;
  signMessage: boolean;
}

/** Whether a text is worth sending (docs/product/tickets-and-inbox.md#validation: empty or whitespace-only text is not sent). */
export function isSendableText(text: string): boolean {
  return text.trim().length > 0;
}

/** The JSON body of a text message. */
export function textMessageBody(text: string, options: SendOptions): TextMessageBody {
  return {
    body: text.trim(),
    ...(options.quotedMsgId ? { quotedMsg: options.quotedMsgId } : {}),
    isPrivate: options.isPrivate,
    signMessage: options.signMessage,
  };
}

/** The JSON body of a contact card. */
export function contactMessageBody(contact: VCardContact, options: SendOptions): TextMessageBody {
  return {
    body: contact.name,
    vCard: contact,
    ...(options.quotedMsgId ? { quotedMsg: options.quotedMsgId } : {}),
    isPrivate: options.isPrivate,
    signMessage: options.signMessage,
  };
}

/** The multipart body of files with a caption: fields body, isPrivate, signMessage, quotedMsg, files `medias`. */
export function mediaMessageForm(files: readonly File[], caption: string, options: SendOptions): FormData {
  const form = new FormData();
  form.append('body', caption.trim());
  form.append('isPrivate', String(options.isPrivate));
  form.append('signMessage', String(options.signMessage));
  if (options.quotedMsgId) form.append('quotedMsg', String(options.quotedMsgId));
  for (const file of files) form.append('medias', file, file.name);
  return form;
}

/** docs/product/tickets-and-inbox.md#constants-and-limits / docs: at most 10 files a send. */
export const MAX_FILES_PER_SEND = 10;

/** A vCard 3.0 text of a contact, for reading contact messages back. */
export function parseVCard(text: string): VCardContact | null {
  if (!/BEGIN:VCARD/i.test(text)) return null;
  const name = /^FN[^:]*:(.*)$/im.exec(text)?.[1]?.trim() ?? /^N[^:]*:(.*)$/im.exec(text)?.[1]?.replaceAll(';', ' ').trim() ?? '';
  const waid = /waid=(\d+)/i.exec(text)?.[1];
  const tel = /^(?:item\d+\.)?TEL[^:]*:(.*)$/im.exec(text)?.[1]?.trim();
  const number = (waid ?? tel ?? '').replace(/[^\d+]/g, '');
  if (!name && !number) return null;
  return { name, number };
}

/** Latitude and longitude in a location message's body (a maps address or `lat,lng`), or null. */
export function parseLocation(body: string): { lat: number; lng: number } | null {
  const match = /(-?\d{1,2}\.\d+)\s*,\s*(-?\d{1,3}\.\d+)/.exec(body);
  if (!match) return null;
  const lat = Number(match[1]);
  const lng = Number(match[2]);
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng };
}

/** Where the composer's signature preference is kept on this device (docs/product/tickets-and-inbox.md#screens-and-routes). */
export const SIGN_PREFERENCE_KEY = 'signOption';
