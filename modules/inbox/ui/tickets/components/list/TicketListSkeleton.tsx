import { Flex, Skeleton } from 'antd';

/** What the list shows while its first page loads (docs/product/tickets-and-inbox.md#screens-and-routes). */
export function TicketListSkeleton({ rows = 6 }: { rows?: number }) {
  return (
    <Flex vertical gap={16} style={{ padding: 12 }} data-testid="tickets-skeleton">
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} active avatar={{ size: 44 }} title={{ width: '60%' }} paragraph={{ rows: 1, width: '90%' }} />
      ))}
    </Flex>
  );
}
