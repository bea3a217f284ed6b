import type { Knex } from 'knex';
import type { ErrorCode } from '../shared/errors';
import { AppError, statusForError } from './errors';

/**
 * The entity a request field names by the API's convention: `companyId` → company, `contactId` or
 * `contact_id` → contact, `tagIds` → many tags. Null for any other name.
 */
export function idFieldEntity(name: string): { entity: string; many: boolean } | null {
  const many = /^(.+?)(Ids|_ids)$/.exec(name);
  if (many?.[1]) return { entity: many[1], many: true };
  const one = /^(.+?)(Id|_id)$/.exec(name);
  return one?.[1] ? { entity: one[1], many: false } : null;
}

/** The table an entity's rows live in by the schema's convention: `contactList` → contact_lists, `company` → companies. */
export function entityTables(entity: string): string[] {
  const snake = entity.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  return [`${snake}s`, `${snake}es`, snake.endsWith('y') ? `${snake.slice(0, -1)}ies` : snake];
}

/** Catalogue codes that don't follow `ERR_NO_<ENTITY>_FOUND` (docs/product/tickets-and-inbox.md#errors). */
const NOT_FOUND: Record<string, ErrorCode> = { whatsapp: 'ERR_NO_WAPP_FOUND' };

/**
 * The 404 an id of another company's `entity` row gets, as if the row didn't exist: the entity's own
 * registered code (`ERR_NO_CONTACT_FOUND`, `ERR_NO_QUEUE_FOUND` …), or ERR_NOT_FOUND.
 */
export function foreignIdError(entity: string): AppError {
  const own = `ERR_NO_${entity.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}_FOUND` as ErrorCode;
  const code = NOT_FOUND[entity] ?? (statusForError(own) === 404 ? own : 'ERR_NOT_FOUND');
  return new AppError(code);
}

/**
 * Throws 404 (see `foreignIdError`) when any of `ids` is a row of `table` that belongs to a company other
 * than `companyId` — the check every id a request names must pass (docs/architecture.md#tenancy: tenant isolation).
 * Ids that name no row pass: the caller decides what a missing row means. `table` must have `id` and
 * `company_id` columns. One query.
 */
export async function requireOwnIds(
  knex: Knex,
  companyId: number,
  references: Array<{ table: string; entity: string; ids: number[] }>,
): Promise<void> {
  const wanted = references.filter((reference) => reference.ids.length > 0);
  if (wanted.length === 0) return;
  const sql = wanted
    .map((_, index) => `(select ${index} as ref from ?? where id = any(?::int[]) and company_id <> ? limit 1)`)
    .join(' union all ');
  const bindings = wanted.flatMap((reference) => [reference.table, reference.ids, companyId]);
  const result = (await knex.raw(`select ref from (${sql}) foreign_ids limit 1`, bindings)) as { rows: Array<{ ref: number }> };
  const hit = result.rows[0];
  if (hit) throw foreignIdError((wanted[hit.ref] as { entity: string }).entity);
}
