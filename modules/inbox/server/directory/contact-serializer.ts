import type { Knex } from 'knex';
import type { Contact, ContactExtraInfo, ContactSummary, TagRef } from '../../shared/types';
import { maskContact } from '../tickets/serializer';

interface ContactRow {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
  active: boolean;
  disableBot: boolean;
  acceptAudioMessage: boolean;
  lgpdAcceptedAt: Date | null;
  urlPicture: string | null;
  isGroup: boolean;
  channel: Contact['channel'];
  whatsappId: number | null;
  createdAt: Date;
  updatedAt: Date;
  extraInfoJson: ContactExtraInfo[];
  tagsJson: TagRef[];
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

/**
 * Loads contacts as the API shows them (docs/product/tickets-and-inbox.md#entities Contact), in the order of `ids`, in one query: the
 * extra fields (in creation order) and the tags (by name). `mask` hides numbers (LGPD, groups excepted).
 */
export async function loadContacts(knex: Knex, companyId: number, ids: number[], mask = false): Promise<Contact[]> {
  if (ids.length === 0) return [];
  const rows = (await knex('contacts as c')
    .where('c.companyId', companyId)
    .whereIn('c.id', ids)
    .select(
      'c.id',
      'c.name',
      'c.number',
      'c.email',
      'c.active',
      'c.disableBot',
      'c.acceptAudioMessage',
      'c.lgpdAcceptedAt',
      'c.urlPicture',
      'c.isGroup',
      'c.channel',
      'c.whatsappId',
      'c.createdAt',
      'c.updatedAt',
      knex.raw(`coalesce((SELECT json_agg(json_build_object('id', f.id, 'name', f.name, 'value', f.value) ORDER BY f.id)
        FROM contact_custom_fields f WHERE f.company_id = c.company_id AND f.contact_id = c.id), '[]'::json) as extra_info_json`),
      knex.raw(`coalesce((SELECT json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) ORDER BY tg.name, tg.id)
        FROM contact_tags ct JOIN tags tg ON tg.id = ct.tag_id
        WHERE ct.company_id = c.company_id AND ct.contact_id = c.id), '[]'::json) as tags_json`),
    )) as ContactRow[];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const contact = toContact(row);
    return [mask ? maskContact(contact) : contact];
  });
}

/** One contact, or null when it doesn't exist in the company. */
export async function loadContact(knex: Knex, companyId: number, id: number, mask = false): Promise<Contact | null> {
  const [contact] = await loadContacts(knex, companyId, [id], mask);
  return contact ?? null;
}

function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    active: row.active,
    disableBot: row.disableBot,
    acceptAudioMessage: row.acceptAudioMessage,
    lgpdAcceptedAt: iso(row.lgpdAcceptedAt),
    urlPicture: row.urlPicture,
    isGroup: row.isGroup,
    channel: row.channel,
    whatsappId: row.whatsappId,
    // connections belong to the channels plugin; until a connection lookup is registered there is none
    whatsapp: null,
    extraInfo: row.extraInfoJson,
    tags: row.tagsJson,
    createdAt: iso(row.createdAt) as string,
    updatedAt: iso(row.updatedAt) as string,
  };
}

/** The columns of a ContactSummary, for builder queries on `contacts` (aliased `alias`). */
export function contactSummaryColumns(alias = 'contacts'): string[] {
  return ['id', 'name', 'number', 'email', 'urlPicture', 'isGroup', 'channel', 'disableBot', 'active'].map(
    (column) => `${alias}.${column}`,
  );
}

/** A contact summary row, masked when asked. */
export function toContactSummary(row: ContactSummary, mask: boolean): ContactSummary {
  const summary: ContactSummary = {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    urlPicture: row.urlPicture,
    isGroup: row.isGroup,
    channel: row.channel,
    disableBot: row.disableBot,
    active: row.active,
  };
  return mask ? maskContact(summary) : summary;
}
