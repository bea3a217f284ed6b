/*
 * Its own entry (`@balcao/plugin-sdk/ui/chat-text`), outside the shared `@balcao/plugin-sdk/ui`: the host
 * loads that one whole before the login page paints, and only conversations need the markup parser; each
 * remote that shows messages bundles its own copy.
 */
import { type ReactNode, useMemo } from 'react';
import { type MarkupSegment, parseChatMarkup } from '../shared/chat-markup';

/** One segment as React elements: text children only, never HTML. */
function segmentNode(segment: MarkupSegment, key: number): ReactNode {
  let node: ReactNode = segment.text;
  if (segment.link) {
    node = (
      <a href={segment.link} target="_blank" rel="noopener noreferrer">
        {node}
      </a>
    );
  }
  if (segment.mono) node = <code style={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap' }}>{node}</code>;
  if (segment.strike) node = <s>{node}</s>;
  if (segment.italic) node = <em>{node}</em>;
  if (segment.bold) node = <strong>{node}</strong>;
  return <span key={key}>{node}</span>;
}

/**
 * A message's text with its chat markup (`*bold*`, `_italic_`, `~strike~`, ```` ```mono``` ````) and web
 * addresses rendered — the one renderer of the inbox, the kanban and the widgets (`parseChatMarkup`). Line
 * breaks are the container's to keep (`white-space: pre-wrap`).
 */
export function ChatText({ text }: { text: string }): ReactNode {
  const segments = useMemo(() => parseChatMarkup(text), [text]);
  return <>{segments.map(segmentNode)}</>;
}
