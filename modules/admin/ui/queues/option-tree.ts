import type { ChatbotOption, ChatbotQueueType, OptionDraft, QueueBody } from './api';

/**
 * The option tree as the queue dialog edits it: pure functions over drafts, addressed by a path of
 * indexes (`[0, 2]`: the third option under the first root option).
 */

let nextKey = 0;
/** A key for a new option (stable while it is edited; never sent). */
export function newKey(): string {
  nextKey += 1;
  return `new-${nextKey}`;
}

/** docs/product/administration.md#validation: each chatbot option name is required, at least 4 characters. */
export const OPTION_NAME_MIN = 4;

export function emptyOption(): OptionDraft {
  return {
    key: newKey(),
    name: '',
    greetingMessage: '',
    queueType: 'text',
    optQueueId: null,
    optUserId: null,
    optIntegrationId: null,
    optFileId: null,
    closeTicket: false,
    options: [],
  };
}

/** Drafts of a stored tree. */
export function draftsOf(options: ChatbotOption[]): OptionDraft[] {
  return options.map((option) => ({
    id: option.id,
    key: `id-${option.id}`,
    name: option.name,
    greetingMessage: option.greetingMessage,
    queueType: option.queueType,
    optQueueId: option.optQueueId,
    optUserId: option.optUserId,
    optIntegrationId: option.optIntegrationId,
    optFileId: option.optFileId,
    closeTicket: option.closeTicket,
    options: draftsOf(option.options),
  }));
}

/** The tree as `chatbots` of PUT /queue takes it (the target a type doesn't use is dropped). */
export function treeBody(drafts: OptionDraft[]): QueueBody['chatbots'] {
  return drafts.map(({ key: _key, options, ...option }) => ({
    ...option,
    optQueueId: option.queueType === 'queue' ? option.optQueueId : null,
    optUserId: option.queueType === 'attendent' ? option.optUserId : null,
    optIntegrationId: option.queueType === 'integration' ? option.optIntegrationId : null,
    optFileId: option.queueType === 'file' ? option.optFileId : null,
    options: treeBody(options),
  }));
}

/** Applies `change` to the list holding the option at `path` (its parent's options). */
function atParent(
  drafts: OptionDraft[],
  path: number[],
  change: (siblings: OptionDraft[], index: number) => OptionDraft[],
): OptionDraft[] {
  const [head, ...rest] = path as [number, ...number[]];
  if (rest.length === 0) return change(drafts, head);
  return drafts.map((draft, index) => (index === head ? { ...draft, options: atParent(draft.options, rest, change) } : draft));
}

/** The tree with the option at `path` changed. */
export function updateOption(drafts: OptionDraft[], path: number[], patch: Partial<OptionDraft>): OptionDraft[] {
  return atParent(drafts, path, (siblings, index) => siblings.map((draft, i) => (i === index ? { ...draft, ...patch } : draft)));
}

/** The tree without the option at `path` (and what it holds). */
export function removeOption(drafts: OptionDraft[], path: number[]): OptionDraft[] {
  return atParent(drafts, path, (siblings, index) => siblings.filter((_draft, i) => i !== index));
}

/** The tree with a new empty option under the one at `path` (at the root for `[]`). */
export function addOption(drafts: OptionDraft[], path: number[]): OptionDraft[] {
  if (path.length === 0) return [...drafts, emptyOption()];
  return atParent(drafts, path, (siblings, index) =>
    siblings.map((draft, i) => (i === index ? { ...draft, options: [...draft.options, emptyOption()] } : draft)),
  );
}

/**
 * docs/product/administration.md#states-and-transitions (the chatbot): an option takes nested
 * options only once it has a message (what the contact reads before the next menu), and only text
 * options lead to a next level.
 */
export function canNest(draft: OptionDraft): boolean {
  return draft.queueType === 'text' && draft.greetingMessage.trim() !== '';
}

/** What is wrong with an option, as i18n keys of `queues.option.errors` (none: it can be saved). */
export function optionProblems(draft: OptionDraft): string[] {
  const problems: string[] = [];
  if (draft.name.trim().length < OPTION_NAME_MIN) problems.push('nameShort');
  if (draft.queueType === 'queue' && !draft.optQueueId) problems.push('queueRequired');
  if (draft.queueType === 'attendent' && !draft.optUserId) problems.push('userRequired');
  if (draft.options.length > 0 && !canNest(draft)) problems.push('messageRequired');
  return problems;
}

/** Whether every option of the tree can be saved. */
export function treeValid(drafts: OptionDraft[]): boolean {
  return drafts.every((draft) => optionProblems(draft).length === 0 && treeValid(draft.options));
}

export const QUEUE_TYPES: ChatbotQueueType[] = ['text', 'attendent', 'queue', 'integration', 'file'];
