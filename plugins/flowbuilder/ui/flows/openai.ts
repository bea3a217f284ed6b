/** Characters that say a key is already the server's masked form (it never sends a stored key back). */
const MASK = /[•*…]/;

/**
 * How an api key shows once it is in the node: the server's masked form as it comes, a key typed in this
 * session (not saved yet) cut to its last four characters — the dialog never shows a key in full again.
 */
export function maskedKey(key: string): string {
  const trimmed = key.trim();
  if (!trimmed || MASK.test(trimmed)) return trimmed;
  return `••••${trimmed.slice(-4)}`;
}
