import { FLOW_LIMITS, MEDIA_RULES, type MediaKind, type NodeDataByKind, type NodeKind } from './model';

/**
 * The documented rules of each node's dialog (docs/product/automation.md#validation-rules), as translation
 * keys of `flowbuilder:validation.*`: the dialogs refuse to close on them, and the check before saving lists
 * them for nodes stored before (or imported with) bad data.
 */
export function nodeDataProblems(kind: NodeKind, data: unknown): string[] {
  const problems: string[] = [];
  switch (kind) {
    case 'message': {
      if (!(data as NodeDataByKind['message']).label?.trim()) problems.push('validation.emptyMessage');
      break;
    }
    case 'interval': {
      const problem = intervalProblem((data as NodeDataByKind['interval']).sec);
      if (problem) problems.push(problem);
      break;
    }
    case 'menu': {
      const menu = data as NodeDataByKind['menu'];
      if (!menu.message?.trim()) problems.push('validation.menuMessage');
      if (!menu.arrayOption?.length || menu.arrayOption.some((option) => !option.value.trim())) {
        problems.push('validation.menuOptions');
      }
      break;
    }
    case 'img':
    case 'audio':
    case 'video': {
      if (!(data as { url?: string }).url) problems.push('validation.emptyMedia');
      break;
    }
    case 'randomizer': {
      const percent = (data as NodeDataByKind['randomizer']).percent;
      if (!(percent >= 0 && percent <= 100 && percent % FLOW_LIMITS.randomizerStep === 0)) {
        problems.push('validation.randomizer');
      }
      break;
    }
    case 'singleBlock': {
      problems.push(...contentProblems(data as NodeDataByKind['singleBlock']));
      break;
    }
    case 'ticket': {
      if (!(data as NodeDataByKind['ticket']).queue?.id) problems.push('validation.queueRequired');
      break;
    }
    case 'question': {
      const question = (data as NodeDataByKind['question']).typebotIntegration;
      if (!question?.message?.trim()) problems.push('validation.questionMessage');
      if (!question?.answerKey?.trim()) problems.push('validation.answerKey');
      break;
    }
    case 'typebot': {
      const typebot = (data as NodeDataByKind['typebot']).typebotIntegration;
      const nameProblem = lengthProblem(typebot?.name ?? '');
      if (nameProblem) problems.push(nameProblem);
      if (!typebot?.urlN8N?.trim() || !typebot?.typebotSlug?.trim()) problems.push('validation.typebotUrlSlug');
      break;
    }
    case 'openai': {
      const openai = (data as NodeDataByKind['openai']).typebotIntegration;
      if (!openai?.name?.trim() || !openai?.apiKey?.trim() || !openai?.prompt?.trim()) {
        problems.push('validation.openaiRequired');
      }
      break;
    }
    case 'condition': {
      const condition = data as NodeDataByKind['condition'];
      if (!condition.key?.trim() || !condition.condition?.trim()) problems.push('validation.condition');
      break;
    }
    case 'start':
      break;
  }
  return problems;
}

/** An interval's seconds: 1 to 120 (the two documented texts), or nothing wrong. */
export function intervalProblem(sec: number | null | undefined): string | undefined {
  if (sec === null || sec === undefined || Number.isNaN(sec) || sec < FLOW_LIMITS.intervalMinSeconds) {
    return 'validation.intervalRequired';
  }
  if (sec > FLOW_LIMITS.intervalMaxSeconds) return 'validation.intervalMax';
  return undefined;
}

/** The typebot's name rules: required, 2 to 50. */
export function lengthProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'validation.required';
  if (trimmed.length < FLOW_LIMITS.nameMin) return 'validation.tooShort';
  if (trimmed.length > FLOW_LIMITS.nameMax) return 'validation.tooLong';
  return undefined;
}

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
