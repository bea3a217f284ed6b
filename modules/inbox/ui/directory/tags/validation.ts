/** docs/product/administration.md#constants-and-limits: tag default colour. */
export const DEFAULT_TAG_COLOR = '#7C7C7C';
/** docs/product/administration.md#validation: a tag name has at least 3 characters. */
export const TAG_NAME_MIN_LENGTH = 3;

/** What is wrong with a tag name: missing ('Obrigatório') or shorter than 3 ('Mensagem muito curta'). */
export type TagNameIssue = 'required' | 'tooShort';

/** Checks a tag name (surrounding spaces do not count). */
export function validateTagName(name: string | null | undefined): TagNameIssue | null {
  const trimmed = (name ?? '').trim();
  if (!trimmed) return 'required';
  if (trimmed.length < TAG_NAME_MIN_LENGTH) return 'tooShort';
  return null;
}

/** A colour as the API stores it, `#RRGGBB` in capitals; anything else becomes the default colour. */
export function normalizeTagColor(color: string | null | undefined): string {
  const value = (color ?? '').trim();
  const short = /^#?([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toUpperCase();
  const long = /^#?([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(value);
  return long ? `#${long[1]}`.toUpperCase() : DEFAULT_TAG_COLOR;
}

/** The lanes a kanban lane may point to (next or rollback): the other kanban tags. */
export function laneChoices<T extends { id: number; kanban: 0 | 1 }>(tags: readonly T[], selfId: number | undefined): T[] {
  return tags.filter((tag) => tag.kanban === 1 && tag.id !== selfId);
}
