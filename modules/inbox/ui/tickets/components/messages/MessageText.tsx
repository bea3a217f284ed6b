import { ChatText } from '@balcao/plugin-sdk/ui/chat-text';
import { Typography } from 'antd';

/** A message's text with its chat markup and web addresses rendered (the SDK's one renderer), line breaks kept. */
export function MessageText({ text, deleted = false }: { text: string; deleted?: boolean }) {
  if (!text) return null;
  return (
    <Typography.Paragraph delete={deleted} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', marginBottom: 0 }}>
      <ChatText text={text} />
    </Typography.Paragraph>
  );
}
