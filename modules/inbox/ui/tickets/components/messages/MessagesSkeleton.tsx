import { Flex, Skeleton } from 'antd';

/** Placeholder bubbles while the first page of a conversation loads. */
export function MessagesSkeleton() {
  return (
    <Flex vertical gap={16} style={{ padding: 16 }} data-testid="messages-skeleton">
      {[60, 40, 70, 35, 55].map((width, index) => (
        <Flex key={width} justify={index % 2 ? 'flex-end' : 'flex-start'}>
          <Skeleton.Node active style={{ width: `${width}%`, minWidth: 140, height: 44, borderRadius: 10 }} />
        </Flex>
      ))}
    </Flex>
  );
}
