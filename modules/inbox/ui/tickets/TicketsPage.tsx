import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Splitter, Tabs, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { useSaveTicketsPanelWidthMutation } from './api/queues-users';
import { TicketsManager } from './components/list/TicketsManager';
import { TicketActionsProvider } from './components/TicketActionsProvider';
import { TicketView } from './components/ticket/TicketView';
import { WelcomePane } from './components/ticket/WelcomePane';
import { useNarrowLayout } from './hooks/useNarrowLayout';
import { useViewer } from './hooks/useViewer';
import { clampPanelWidth, PANEL_MAX_WIDTH, PANEL_MIN_WIDTH } from './logic/panel-width';
import { ticketUuidParam } from './logic/ticket-rules';

/** The frame's top bar (56 px) and the content padding (16 px wide, 8 px narrow) around the page. */
const WIDE_HEIGHT = 'calc(100dvh - 56px - 32px)';
const NARROW_HEIGHT = 'calc(100dvh - 56px - 16px)';

/** Wide screens: the resizable list at left (404 to 700 px, saved on release), the ticket or a welcome at right. */
function WideLayout({ uuid }: { uuid: string | null }) {
  const { token } = theme.useToken();
  const viewer = useViewer();
  const [saveWidth] = useSaveTicketsPanelWidthMutation();
  const [width, setWidth] = useState(() => clampPanelWidth(viewer.user.defaultTicketsManagerWidth));
  const saved = useRef(width);

  const release = (sizes: number[]) => {
    const next = clampPanelWidth(sizes[0]);
    setWidth(next);
    if (next === saved.current) return;
    saved.current = next;
    // the preference is a nicety: a failed save keeps the width for this visit without bothering the user
    saveWidth({ userId: viewer.user.id, width: next })
      .unwrap()
      .catch((error: unknown) => console.error('Saving the tickets panel width failed', error));
  };

  return (
    <Splitter
      onResizeEnd={release}
      style={{
        height: WIDE_HEIGHT,
        background: token.colorBgContainer,
        border: `1px solid ${token.colorSplit}`,
        borderRadius: token.borderRadiusLG,
        overflow: 'hidden',
      }}
    >
      <Splitter.Panel defaultSize={width} min={PANEL_MIN_WIDTH} max={PANEL_MAX_WIDTH}>
        <TicketsManager selectedUuid={uuid} />
      </Splitter.Panel>
      <Splitter.Panel min={320}>{uuid ? <TicketView key={uuid} uuid={uuid} narrow={false} /> : <WelcomePane />}</Splitter.Panel>
    </Splitter>
  );
}

/**
 * Narrow screens: two tabs, Ticket and Atendimentos; choosing a ticket shows it, leaving it shows the list.
 * Every navigation counts, not only a change of ticket: choosing again the ticket already open (from the
 * Atendimentos tab, or accepting it there) goes back to the Ticket tab.
 */
function NarrowLayout({ uuid }: { uuid: string | null }) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  const { key: navigation } = useLocation();
  const [tab, setTab] = useState<'ticket' | 'list'>(uuid ? 'ticket' : 'list');
  useEffect(() => setTab(uuid ? 'ticket' : 'list'), [uuid, navigation]);

  return (
    <div style={{ height: NARROW_HEIGHT, display: 'flex', flexDirection: 'column', background: token.colorBgContainer }}>
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as 'ticket' | 'list')}
        centered
        tabBarStyle={{ marginBottom: 0 }}
        items={[
          { key: 'ticket', label: t('tickets.layout.ticketTab') },
          { key: 'list', label: t('tickets.layout.listTab') },
        ]}
      />
      <div style={{ flex: 1, minHeight: 0 }}>
        {/* the list stays mounted so its scroll position and filters survive a look at a ticket */}
        <div style={{ height: '100%', display: tab === 'list' ? 'block' : 'none' }}>
          <TicketsManager selectedUuid={uuid} />
        </div>
        {tab === 'ticket' ? uuid ? <TicketView key={uuid} uuid={uuid} narrow /> : <WelcomePane /> : null}
      </div>
    </div>
  );
}

/** The Tickets screen (docs/product/tickets-and-inbox.md#screens-and-routes), `/tickets/:ticketId?`; a missing or 'undefined' id means no ticket. */
export default function TicketsPage() {
  const { ticketId } = useParams();
  const uuid = ticketUuidParam(ticketId);
  const narrow = useNarrowLayout();
  if (ticketId !== undefined && uuid === null) return <Navigate to="/tickets" replace />;
  return <TicketActionsProvider>{narrow ? <NarrowLayout uuid={uuid} /> : <WideLayout uuid={uuid} />}</TicketActionsProvider>;
}
