import type { Edge } from '@xyflow/react';
import type { FlowDocument, FlowDocumentConnection, FlowDocumentNode, NodeKind } from './model';
import type { CanvasNode } from './nodes';

/** Stored nodes as the canvas holds them. */
export function nodesOf(stored: readonly FlowDocumentNode[]): CanvasNode[] {
  return stored.map((node) => ({
    id: node.id,
    type: node.type,
    position: { x: node.position?.x ?? 0, y: node.position?.y ?? 0 },
    data: node.data as CanvasNode['data'],
  }));
}

/** Stored connections as the canvas's edges. */
export function edgesOf(stored: readonly FlowDocumentConnection[]): Edge[] {
  return stored.map((connection) => ({
    id: connection.id,
    source: connection.source,
    target: connection.target,
    sourceHandle: connection.sourceHandle ?? null,
    targetHandle: connection.targetHandle ?? null,
  }));
}

/** The document saved: only what the flow is made of (no selection, sizes or drag state). */
export function documentOf(nodes: readonly CanvasNode[], edges: readonly Edge[]): FlowDocument {
  return {
    nodes: nodes.map((node) => ({
      id: node.id,
      type: node.type as NodeKind,
      position: { x: Math.round(node.position.x), y: Math.round(node.position.y) },
      data: node.data,
    })),
    connections: edges.map((edge) => ({
      id: edge.id,
      source: edge.source,
      target: edge.target,
      sourceHandle: edge.sourceHandle ?? null,
      targetHandle: edge.targetHandle ?? null,
    })),
  };
}
