import { CLIENT_EVENTS, joinSocketRoom, useLoadMoreOnScroll, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Empty, Flex, Spin } from 'antd';
import { useEffect, useMemo } from 'react';
import { useListTicketsInfiniteQuery } from '../../api/tickets';
import { useViewer } from '../../hooks/useViewer';
import { flattenTickets, type TicketListArgs } from '../../logic/ticket-list';
import { TicketListItem } from './TicketListItem';
import { TicketListSkeleton } from './TicketListSkeleton';

/** Props of one list. */
export interface TicketsListProps {
  args: TicketListArgs;
  selectedUuid: string | null;
  /** Whether this list is the one on screen (hidden lists keep their cache for the tab badges). */
  active: boolean;
}

/**
 * One ticket list (a tab or a view): a skeleton while the first page loads, an empty state, infinite
 * scroll, and the `joinTickets` room of its status while on screen. Only the list's own answer is shown:
 * when its question changes (a filter, a search, the closed view turned into the search view) the skeleton
 * shows until the new answer comes, never the previous question's tickets (docs/product/tickets-and-inbox.md#screens-and-routes).
 */
export function TicketsList({ args, selectedUuid, active }: TicketsListProps) {
  const { t } = useTranslation('inbox');
  const viewer = useViewer();
  // `data` would keep the previous arguments' pages while new ones load: `currentData` is this question's
  const { currentData, isFetching, isError, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, refetch } =
    useListTicketsInfiniteQuery(args);
  const tickets = useMemo(() => flattenTickets(currentData), [currentData]);
  const status = args.status;

  useEffect(() => {
    if (!active || !status) return;
    return joinSocketRoom(CLIENT_EVENTS.joinTickets, CLIENT_EVENTS.leaveTickets, status);
  }, [active, status]);

  // docs/product/tickets-and-inbox.md#constants-and-limits: the next page loads within 100 px of the bottom (and at once when a page doesn't fill the list)
  const list = useLoadMoreOnScroll<HTMLDivElement>({
    hasMore: hasNextPage,
    loading: isFetchingNextPage,
    onLoadMore: () => void fetchNextPage(),
    // a page that failed isn't asked for again in a loop while the list is short: scrolling asks
    failed: isFetchNextPageError,
  });

  if (!active) return null;
  if (currentData === undefined && isFetching) return <TicketListSkeleton />;
  if (isError && tickets.length === 0) {
    return (
      <Empty description={t('tickets.list.error')} style={{ marginTop: 48 }}>
        <Button onClick={() => void refetch()}>{t('tickets.common.retry')}</Button>
      </Empty>
    );
  }
  if (tickets.length === 0) {
    return <Empty description={t('tickets.list.empty')} style={{ marginTop: 48 }} />;
  }
  return (
    <div ref={list.ref} onScroll={list.onScroll} style={{ height: '100%', overflowY: 'auto' }} data-testid="tickets-list">
      {tickets.map((ticket) => (
        <TicketListItem key={ticket.id} ticket={ticket} selected={ticket.uuid === selectedUuid} showUser={viewer.isAdmin} />
      ))}
      {isFetchingNextPage ? (
        <Flex justify="center" style={{ padding: 12 }}>
          <Spin size="small" />
        </Flex>
      ) : null}
    </div>
  );
}
