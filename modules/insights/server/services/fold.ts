import type { Knex } from 'knex';

/**
 * How old a change must be before the fold moves it into the days. Readers sum the days and the changes not
 * yet folded, so any age is exact; a few minutes keeps the changes table small while leaving rows that were
 * just written alone (tests that fingerprint a company's rows around a request see them still).
 */
export const FOLD_MIN_AGE_MS = 10 * 60_000;
/** How often the fold runs. */
export const FOLD_EVERY_MS = 60_000;

/** Moves the changes at least `minAgeMs` old into the days; answers how many it moved. */
export async function foldDeltas(knex: Knex, minAgeMs = FOLD_MIN_AGE_MS): Promise<number> {
  const result = await knex.raw('SELECT insights_fold(make_interval(secs => ?)) AS moved', [minAgeMs / 1000]);
  return Number((result.rows as Array<{ moved: string }>)[0]?.moved ?? 0);
}
