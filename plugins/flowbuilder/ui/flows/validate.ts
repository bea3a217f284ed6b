import { FLOW_LIMITS, MEDIA_RULES, type MediaKind, type NodeDataByKind } from './model';

/**
 * The checks a dialog makes before it closes, with the documented texts (translation keys under
 * `flowbuilder:`); the whole flow is checked by the shared `checkFlow` before saving.
 */

/** A content block: no empty text, intervals inside 1..120, no media card without its file. */
export function contentProblems(block: NodeDataByKind['singleBlock']): string[] {
  const problems = new Set<string>();
  if (!block.elements?.length) problems.add('validation.emptyContent');
  for (const element of block.elements ?? []) {
    if (element.type === 'message' && !element.value.trim()) problems.add('validation.emptyMessages');
    if (element.type === 'interval') {
      const sec = Number(element.value);
      if (!(sec >= FLOW_LIMITS.intervalMinSeconds && sec <= FLOW_LIMITS.intervalMaxSeconds)) {
        problems.add('validation.contentInterval');
      }
    }
    if ((element.type === 'img' || element.type === 'audio' || element.type === 'video') && !element.value) {
      problems.add('validation.emptyCards');
    }
  }
  return [...problems];
}

/** A chosen file against its kind's size and type limits: the message key of what is wrong, or nothing. */
export function mediaProblem(kind: MediaKind, file: { name: string; size: number }): string | undefined {
  const rule = MEDIA_RULES[kind];
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(rule.extensions as readonly string[]).includes(extension)) return `validation.${kind}Type`;
  if (file.size > rule.maxBytes) return `validation.${kind}Size`;
  return undefined;
}
