import { AppError, type PluginContext } from '@balcao/plugin-sdk/server';
import { invalidScheduleDay, orderedSchedules, type ServiceHours } from '@balcao/plugin-sdk/shared';
import type { Knex } from 'knex';
import type { ConnectionInput } from '../../shared/connection';
import type { ConnectionRow } from './serializer';

/**
 * The rules of docs/product/administration.md#validation Connection that a schema can't say. Each rule runs on a create, and on
 * a change when the body carries one of its fields, against the connection as it would be saved: an edit
 * of one field never fails for another field's rule (a queue deleted since, a window that aged).
 */

/** `ERR_VALIDATION` for one body field, as the schema validation words it. */
export function invalidField(field: string, message: string): AppError {
  return new AppError('ERR_VALIDATION', { details: [{ field: `body.${field}`, message }] });
}

/** The connection as it would be saved: the stored row (none on create) with the body over it. */
export type MergedConnection = Pick<
  ConnectionRow,
  | 'greetingMessage'
  | 'ratingMessage'
  | 'expiresTicketNPS'
  | 'timeSendQueue'
  | 'sendIdQueue'
  | 'collectiveVacationMessage'
  | 'collectiveVacationStart'
  | 'collectiveVacationEnd'
  | 'importOldMessages'
  | 'importRecentMessages'
> & { queueIds: number[] };

const touches = (input: ConnectionInput, fields: Array<keyof ConnectionInput>) =>
  fields.some((field) => input[field] !== undefined);

/** Today and the day two years back, `YYYY-MM-DD` (UTC, as the dates are stored). */
function importWindow(now = new Date()): { earliest: string; today: string } {
  const today = now.toISOString().slice(0, 10);
  const back = new Date(now);
  back.setUTCFullYear(back.getUTCFullYear() - 2);
  return { earliest: back.toISOString().slice(0, 10), today };
}

/** The rules between fields; `creating` applies every rule. */
export async function checkConnectionRules(
  ctx: PluginContext,
  companyId: number,
  merged: MergedConnection,
  input: ConnectionInput,
  creating: boolean,
): Promise<void> {
  const applies = (fields: Array<keyof ConnectionInput>) => creating || touches(input, fields);

  // docs/product/tickets-and-inbox.md#errors: a greeting is required when there is more than one queue (the chatbot's menu needs it)
  if (applies(['queueIds', 'greetingMessage']) && merged.queueIds.length > 1 && merged.greetingMessage.trim() === '') {
    throw new AppError('ERR_WAPP_GREETING_REQUIRED');
  }

  // docs/product/administration.md#validation: when ratings are used (the company's userRating is on), a rating message and an NPS expiry
  if (applies(['ratingMessage', 'expiresTicketNPS', 'maxUseBotQueuesNPS'])) {
    const ratings = (await ctx.settings.get(companyId, 'userRating')) === 'enabled';
    if (ratings && merged.ratingMessage.trim() === '') throw new AppError('ERR_RATING_MESSAGE_REQUIRED');
    if (ratings && merged.expiresTicketNPS <= 0) throw new AppError('ERR_EXPIRES_NPS_REQUIRED');
  }

  // docs/product/administration.md#validation: a time to redirect needs a target queue, and a target queue needs its time
  if (applies(['timeSendQueue', 'sendIdQueue']) && merged.timeSendQueue > 0 !== (merged.sendIdQueue !== null)) {
    throw new AppError('ERR_SEND_QUEUE_REQUIRED');
  }

  if (applies(['collectiveVacationMessage', 'collectiveVacationStart', 'collectiveVacationEnd'])) {
    const { collectiveVacationStart: start, collectiveVacationEnd: end } = merged;
    if (merged.collectiveVacationMessage.trim() !== '' && (start === null || end === null)) {
      throw new AppError('ERR_VACATION_DATES_REQUIRED');
    }
    if (start !== null && end !== null && end < start) throw new AppError('ERR_VACATION_DATES_INVALID');
  }

  // docs/product/administration.md#validation, #constants-and-limits: the import starts within two years back and not after today; it ends between its start and today
  if (touches(input, ['importOldMessages', 'importRecentMessages'])) {
    const { importOldMessages: start, importRecentMessages: end } = merged;
    if (start !== null || end !== null) {
      const { earliest, today } = importWindow();
      if (start === null || end === null || start < earliest || start > today || end < start || end > today) {
        throw new AppError('ERR_IMPORT_DATES_INVALID');
      }
    }
  }
}

/** Throws 404 ERR_NO_QUEUE_FOUND unless every id is a queue of the company. */
export async function requireCompanyQueues(trx: Knex.Transaction, companyId: number, queueIds: number[]): Promise<void> {
  const wanted = [...new Set(queueIds)];
  if (wanted.length === 0) return;
  const found: number[] = await trx('queues').where({ companyId }).whereIn('id', wanted).pluck('id');
  if (found.length !== wanted.length) throw new AppError('ERR_NO_QUEUE_FOUND');
}

/**
 * References to other features (queue integrations, prompts, flows): a non-null id must be a
 * row of the company in that feature's table; while the feature isn't installed there is nothing to name.
 */
const REFERENCES = [
  { field: 'integrationId', table: 'queueIntegrations', error: 'ERR_NO_INTEGRATION_FOUND' },
  { field: 'promptId', table: 'prompts', error: 'ERR_NO_PROMPT_FOUND' },
  { field: 'flowIdWelcome', table: 'flowBuilders', error: 'ERR_NO_FLOW_FOUND' },
  { field: 'flowIdNotPhrase', table: 'flowBuilders', error: 'ERR_NO_FLOW_FOUND' },
] as const;

export async function requireCompanyReferences(trx: Knex.Transaction, companyId: number, input: ConnectionInput): Promise<void> {
  for (const { field, table, error } of REFERENCES) {
    const id = input[field];
    if (id === undefined || id === null) continue;
    // hasTable takes the name as Postgres has it: knex's camelCase mapping doesn't reach it
    const installed = await trx.schema.hasTable(table.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase());
    const exists = installed && (await trx(table).where({ id, companyId }).first('id'));
    if (!exists) throw new AppError(error);
  }
}

/** A valid week in weekday order (404-free: ERR_INVALID_SCHEDULE with the weekday otherwise). */
export function normalizeSchedules(schedules: ServiceHours[]): ServiceHours[] {
  const invalid = invalidScheduleDay(schedules);
  if (invalid !== null) throw new AppError('ERR_INVALID_SCHEDULE', { weekdayEn: invalid });
  return orderedSchedules(schedules);
}

/** The name trimmed, 2 to 50 characters (docs/product/administration.md#validation). */
export function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 2) throw invalidField('name', 'must NOT have fewer than 2 characters');
  return trimmed;
}
