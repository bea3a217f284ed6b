/** docs/product/tickets-and-inbox.md#validation: a freely created tag needs at least 3 characters ('Tag muito curta!'). */
export const MIN_NEW_TAG_LENGTH = 3;

interface NamedTag {
  id: number;
  name: string;
}

function findTag(name: string, known: readonly NamedTag[]): NamedTag | undefined {
  const needle = name.trim().toLowerCase();
  return known.find((tag) => tag.name.toLowerCase() === needle);
}

/** Whether a name picked in the tags editor may be used: an existing tag, or a new one of 3+ characters. */
export function isNewTagNameValid(name: string, known: readonly NamedTag[]): boolean {
  return findTag(name, known) !== undefined || name.trim().length >= MIN_NEW_TAG_LENGTH;
}

/** The `POST /tags/sync` list: existing tags by id, new names without one, each once. */
export function tagsToSync(names: readonly string[], known: readonly NamedTag[]): Array<{ id?: number; name: string }> {
  const seen = new Set<string>();
  const result: Array<{ id?: number; name: string }> = [];
  for (const raw of names) {
    const name = raw.trim();
    const key = name.toLowerCase();
    if (!name || seen.has(key)) continue;
    seen.add(key);
    const tag = findTag(name, known);
    result.push(tag ? { id: tag.id, name: tag.name } : { name });
  }
  return result;
}
