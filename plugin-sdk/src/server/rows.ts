/** The camelCase of each snake_case column name seen (a fixed, small set), so each is computed once. */
const camelNames = new Map<string, string>();

/**
 * A raw row (or a row Postgres built as JSON, whose keys are the snake_case column names) with camelCase
 * keys — what the knex instance's mappers do for a builder's rows, which they do only at the top level (a
 * `row_to_json` column keeps its snake_case keys). Hot: every listed ticket and message passes here, hence
 * the memo instead of a regular expression per key.
 */
export function camelKeys<T>(row: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const key in row) {
    let name = camelNames.get(key);
    if (name === undefined) {
      name = key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
      camelNames.set(key, name);
    }
    out[name] = row[key];
  }
  return out as T;
}
