/** The camelCase of each snake_case column name seen (a fixed, small set), so each is computed once. */
const camelNames = new Map<string, string>();

/**
 * A raw row (or a row Postgres built as JSON, whose keys are the snake_case column names) with camelCase
 * keys — what the knex instance's mappers do for builders. Hot: every listed ticket and message passes
 * here, hence the memo instead of a regular expression per key.
 */
export function camelize<T>(row: Record<string, unknown>): T {
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
