import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Flex, Select, Switch, Typography } from 'antd';
import { useMemo } from 'react';
import { TICKET_STATUSES, type TicketStatus } from '../../../../shared/types';
import { useListTagsQuery } from '../../../directory/api/tags';
import { useConnections, useListQueuesQuery, useListUsersQuery } from '../../api/queues-users';
import { useViewer } from '../../hooks/useViewer';

/** The list filters of docs/product/tickets-and-inbox.md#screens-and-routes. */
export interface TicketFilters {
  tags: number[];
  users: number[];
  statusFilter: TicketStatus[];
  whatsapps: number[];
  queueIds: number[];
  showAll: boolean;
  unreadOnly: boolean;
}

export const EMPTY_FILTERS: TicketFilters = {
  tags: [],
  users: [],
  statusFilter: [],
  whatsapps: [],
  queueIds: [],
  showAll: false,
  unreadOnly: false,
};

/** Props of the filter panel. */
export interface TicketsFiltersProps {
  value: TicketFilters;
  onChange(value: TicketFilters): void;
  /** The search view filters by status too. */
  searchView: boolean;
}

/**
 * The filter panel (docs/product/tickets-and-inbox.md#screens-and-routes, docs/product/roles-and-permissions.md#roles-in-the-inbox): tags, users (admins only), status (search view), connections, queues,
 * show all (tickets-manager:showall) and unread only. Its lists load only once it is opened.
 */
export function TicketsFilters({ value, onChange, searchView }: TicketsFiltersProps) {
  const { t } = useTranslation('inbox');
  const viewer = useViewer();
  const { data: tags = [] } = useListTagsQuery(undefined);
  const { data: users = [] } = useListUsersQuery(undefined, { skip: !viewer.isAdmin });
  const connections = useConnections();
  const { data: allQueues = [] } = useListQueuesQuery(undefined, { skip: !viewer.isAdmin });
  const queues = viewer.isAdmin ? allQueues : viewer.user.queues;
  const set = <K extends keyof TicketFilters>(key: K, next: TicketFilters[K]) => onChange({ ...value, [key]: next });

  const statusOptions = useMemo(
    () => TICKET_STATUSES.map((status) => ({ value: status, label: t(`tickets.status.${status}`) })),
    [t],
  );

  return (
    <Flex vertical gap={8} style={{ padding: '8px 12px' }} data-testid="tickets-filters">
      <Select
        mode="multiple"
        allowClear
        placeholder={t('tickets.filters.tags')}
        aria-label={t('tickets.filters.tags')}
        value={value.tags}
        onChange={(next: number[]) => set('tags', next)}
        options={tags.map((tag) => ({ value: tag.id, label: tag.name }))}
        showSearch={{ optionFilterProp: 'label' }}
        maxTagCount="responsive"
      />
      {viewer.isAdmin ? (
        <Select
          mode="multiple"
          allowClear
          placeholder={t('tickets.filters.users')}
          aria-label={t('tickets.filters.users')}
          value={value.users}
          onChange={(next: number[]) => set('users', next)}
          options={users.map((user) => ({ value: user.id, label: user.name }))}
          showSearch={{ optionFilterProp: 'label' }}
          maxTagCount="responsive"
        />
      ) : null}
      {searchView ? (
        <Select
          mode="multiple"
          allowClear
          placeholder={t('tickets.filters.status')}
          aria-label={t('tickets.filters.status')}
          value={value.statusFilter}
          onChange={(next: TicketStatus[]) => set('statusFilter', next)}
          options={statusOptions}
          maxTagCount="responsive"
        />
      ) : null}
      {connections.length > 0 ? (
        <Select
          mode="multiple"
          allowClear
          placeholder={t('tickets.filters.connections')}
          aria-label={t('tickets.filters.connections')}
          value={value.whatsapps}
          onChange={(next: number[]) => set('whatsapps', next)}
          options={connections.map((connection) => ({ value: connection.id, label: connection.name }))}
          maxTagCount="responsive"
        />
      ) : null}
      <Select
        mode="multiple"
        allowClear
        placeholder={t('tickets.filters.queues')}
        aria-label={t('tickets.filters.queues')}
        value={value.queueIds}
        onChange={(next: number[]) => set('queueIds', next)}
        options={queues.map((queue) => ({ value: queue.id, label: queue.name }))}
        maxTagCount="responsive"
      />
      <Flex gap={16} wrap>
        {viewer.canShowAll ? (
          <Flex gap={6} align="center">
            <Switch size="small" id="tickets-show-all" checked={value.showAll} onChange={(checked) => set('showAll', checked)} />
            <Typography.Text>
              <label htmlFor="tickets-show-all">{t('tickets.filters.showAll')}</label>
            </Typography.Text>
          </Flex>
        ) : null}
        <Flex gap={6} align="center">
          <Switch
            size="small"
            id="tickets-unread-only"
            checked={value.unreadOnly}
            onChange={(checked) => set('unreadOnly', checked)}
          />
          <Typography.Text>
            <label htmlFor="tickets-unread-only">{t('tickets.filters.unreadOnly')}</label>
          </Typography.Text>
        </Flex>
      </Flex>
    </Flex>
  );
}

/** How many filters are set (the filter button's badge). */
export function activeFilterCount(filters: TicketFilters): number {
  return (
    (filters.tags.length > 0 ? 1 : 0) +
    (filters.users.length > 0 ? 1 : 0) +
    (filters.statusFilter.length > 0 ? 1 : 0) +
    (filters.whatsapps.length > 0 ? 1 : 0) +
    (filters.queueIds.length > 0 ? 1 : 0) +
    (filters.showAll ? 1 : 0) +
    (filters.unreadOnly ? 1 : 0)
  );
}
