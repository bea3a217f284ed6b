import { Typography } from 'antd';
import { splitLinks } from '../../logic/outgoing';

/** A message's text with its web addresses as links, line breaks kept. */
export function MessageText({ text, deleted = false }: { text: string; deleted?: boolean }) {
  if (!text) return null;
  return (
    <Typography.Paragraph delete={deleted} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', marginBottom: 0 }}>
      {splitLinks(text).map((part, index) =>
        part.link ? (
          <a key={index} href={part.text} target="_blank" rel="noopener noreferrer">
            {part.text}
          </a>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </Typography.Paragraph>
  );
}
