import { checkFlow, type FlowProblem } from '../../shared/flow-document';
import type { FlowDocument } from './model';

export type { FlowProblem };

/**
 * What the panel before saving lists: the shared check of the whole flow (the one the server applies on
 * save). The editor assumes the AI service is there; the server answers for it.
 */
export function flowProblems(document: FlowDocument): FlowProblem[] {
  return checkFlow(document);
}

/** Errors make the server refuse the flow; warnings only ask. */
export const blocksSaving = (problems: readonly FlowProblem[]) => problems.some((problem) => problem.severity === 'error');
