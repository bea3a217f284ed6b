import type { FlowDocument, NodeKind } from './model';
import { nodeDataProblems } from './validate';

/** One thing wrong in a flow, tied to the node to show (translation key under `flowbuilder:`). */
export interface FlowProblem {
  nodeId: string;
  code: string;
  messageKey: string;
}

/**
 * What the check before saving lists: each node's data against its dialog's rules. The server refuses the
 * same on save, so the panel shows it first with a way to reach the node.
 */
export function flowProblems(document: FlowDocument): FlowProblem[] {
  const problems: FlowProblem[] = [];
  for (const node of document.nodes) {
    for (const messageKey of nodeDataProblems(node.type as NodeKind, node.data)) {
      problems.push({ nodeId: node.id, code: messageKey.replace('validation.', ''), messageKey });
    }
  }
  return problems;
}
