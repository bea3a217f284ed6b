import { checkFlow, type FlowProblem } from '../../shared/flow-document';
import type { FlowDocument } from './model';

export type { FlowProblem };

/**
 * What the panel before saving lists: the shared check of the whole flow (the one the server applies on
 * save). An openai node is an error here once the editor knows the company can't run it; while it doesn't
 * know yet, the server answers for it.
 */
export function flowProblems(document: FlowDocument, openaiAvailable?: boolean): FlowProblem[] {
  return checkFlow(document, openaiAvailable === undefined ? {} : { openaiAvailable });
}

/** Errors make the server refuse the flow; warnings only ask. */
export const blocksSaving = (problems: readonly FlowProblem[]) => problems.some((problem) => problem.severity === 'error');
