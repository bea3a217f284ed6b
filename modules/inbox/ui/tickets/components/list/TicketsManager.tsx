import { FilterOutlined, PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Badge, Button, Checkbox, Flex, Input, Segmented, Tabs, Tooltip, theme } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useListTicketsInfiniteQuery } from '../../api/tickets';
import { useDebouncedValue } from '../../hooks/useDebouncedValue';
import { useViewer } from '../../hooks/useViewer';
import { listCount, type TicketListArgs } from '../../logic/ticket-list';
import { listArgsFor, type OpenTab, openTabsFor, type TicketsView } from '../../logic/views';
import { useTicketActions } from '../TicketActionsProvider';
import { CloseAllButton } from './CloseAllButton';
import { activeFilterCount, EMPTY_FILTERS, type TicketFilters, TicketsFilters } from './TicketsFilters';
import { TicketsList } from './TicketsList';

/**
 * A tab's label with its count, read from the tab's own list (the same cache entry as the list); no count
 * while a changed filter's answer loads (the previous filter's count would be wrong).
 */
function TabLabel({ label, args }: { label: string; args: TicketListArgs }) {
  const { currentData } = useListTicketsInfiniteQuery(args);
  const count = listCount(currentData);
  return (
    <Flex align="center" gap={6}>
      {label}
      {count ? <Badge count={count} overflowCount={999} size="small" color="blue" /> : null}
    </Flex>
  );
}

/**
 * The ticket list panel (docs/product/tickets-and-inbox.md#screens-and-routes): search with 'search in messages', the filter toggle, new ticket and
 * close-all buttons; views open (tabs Atendendo / Aguardando / Grupos with counts), closed and search.
 * Changing tab goes to /tickets.
 */
export function TicketsManager({ selectedUuid }: { selectedUuid: string | null }) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const viewer = useViewer();
  const actions = useTicketActions();
  const [view, setView] = useState<TicketsView>('open');
  const [tab, setTab] = useState<OpenTab>('open');
  const [search, setSearch] = useState('');
  const [searchOnMessages, setSearchOnMessages] = useState(false);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [filters, setFilters] = useState<TicketFilters>(EMPTY_FILTERS);
  const settledSearch = useDebouncedValue(search);
  const tabs = openTabsFor(viewer.user.allowGroup === true);

  // typing a search goes to the search view; clearing it goes back
  useEffect(() => {
    if (settledSearch.trim()) setView('search');
  }, [settledSearch]);

  const state = useMemo(
    () => ({ ...filters, view, tab, search: settledSearch, searchOnMessages }),
    [filters, view, tab, settledSearch, searchOnMessages],
  );
  const powers = { canShowAll: viewer.canShowAll, isAdmin: viewer.isAdmin };
  const argsOf = (openTab: OpenTab) => listArgsFor({ ...state, view: 'open' }, powers, openTab);
  const currentArgs = listArgsFor(state, powers);

  const changeView = (next: TicketsView) => {
    setView(next);
    if (next !== 'search') setSearch('');
    navigate('/tickets');
  };
  const filterCount = activeFilterCount(filters);

  return (
    <Flex vertical style={{ height: '100%', minHeight: 0 }}>
      <Flex vertical gap={8} style={{ padding: 12, borderBottom: `1px solid ${token.colorSplit}` }}>
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('tickets.list.searchPlaceholder')}
          aria-label={t('tickets.list.searchPlaceholder')}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            if (!event.target.value && view === 'search') setView('open');
          }}
        />
        <Flex align="center" justify="space-between" gap={8} wrap>
          <Checkbox checked={searchOnMessages} onChange={(event) => setSearchOnMessages(event.target.checked)}>
            {t('tickets.list.searchOnMessages')}
          </Checkbox>
          <Flex gap={4}>
            <Tooltip title={t('tickets.list.newTicket')}>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                aria-label={t('tickets.list.newTicket')}
                onClick={() => actions.newTicket()}
              />
            </Tooltip>
            <Tooltip title={filtersOpen ? t('tickets.list.hideFilters') : t('tickets.list.showFilters')}>
              <Badge count={filterCount} size="small">
                <Button
                  icon={<FilterOutlined />}
                  type={filtersOpen ? 'primary' : 'default'}
                  ghost={filtersOpen}
                  aria-label={t('tickets.list.showFilters')}
                  aria-expanded={filtersOpen}
                  onClick={() => setFiltersOpen((open) => !open)}
                />
              </Badge>
            </Tooltip>
            {filterCount > 0 ? (
              <Tooltip title={t('tickets.list.clearFilters')}>
                <Button
                  icon={<ReloadOutlined />}
                  aria-label={t('tickets.list.clearFilters')}
                  onClick={() => setFilters(EMPTY_FILTERS)}
                />
              </Tooltip>
            ) : null}
            {viewer.canCloseAll ? (
              <CloseAllButton
                status={view === 'open' ? tab : null}
                queueIds={filters.queueIds.length ? filters.queueIds : viewer.list.queueIds}
              />
            ) : null}
          </Flex>
        </Flex>
        <Segmented<TicketsView>
          block
          value={view}
          onChange={changeView}
          options={[
            { value: 'open', label: t('tickets.views.open') },
            { value: 'closed', label: t('tickets.views.closed') },
            { value: 'search', label: t('tickets.views.search') },
          ]}
        />
      </Flex>
      {filtersOpen ? <TicketsFilters value={filters} onChange={setFilters} searchView={view === 'search'} /> : null}
      {view === 'open' ? (
        <Tabs
          activeKey={tab}
          onChange={(key) => {
            setTab(key as OpenTab);
            navigate('/tickets');
          }}
          centered
          size="small"
          tabBarStyle={{ marginBottom: 0 }}
          items={tabs.map((key) => ({ key, label: <TabLabel label={t(`tickets.tabs.${key}`)} args={argsOf(key)} /> }))}
        />
      ) : null}
      <div style={{ flex: 1, minHeight: 0, position: 'relative' }}>
        {view === 'open' ? (
          tabs.map((key) => <TicketsList key={key} args={argsOf(key)} selectedUuid={selectedUuid} active={key === tab} />)
        ) : (
          <TicketsList args={currentArgs} selectedUuid={selectedUuid} active />
        )}
      </div>
    </Flex>
  );
}
