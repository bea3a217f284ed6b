import { createHash } from 'node:crypto';

/**
 * A name for a prepared statement of a fixed SQL text: the same text, the same name (node-pg prepares a
 * named statement once per database connection, so Postgres parses and plans it once instead of at every
 * call — worth it on a hot path whose text repeats). Names are remembered per text, so a hot path doesn't
 * hash its statement each time; an unexpected variety of texts clears the memory rather than growing it.
 */
export function preparedStatementName(prefix: string, sql: string): string {
  const key = `${prefix}\u0000${sql}`;
  let name = preparedNames.get(key);
  if (name === undefined) {
    name = `${prefix}_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    if (preparedNames.size >= 10_000) preparedNames.clear();
    preparedNames.set(key, name);
  }
  return name;
}
const preparedNames = new Map<string, string>();
