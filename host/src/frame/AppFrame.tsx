import { type PluginListing, type PluginUi, useCompanySocketConnection, usePlan, useSession } from '@balcao/plugin-sdk/ui';
import { Drawer, Layout, theme } from 'antd';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { Route, Routes } from 'react-router';
import { useListPluginsQuery } from '../shell-api';
import { ContentSkeleton } from './ContentSkeleton';
import { loadMenuIcon } from './menu/icon-loader';
import { MenuIconLoaderContext } from './menu/MenuIcon';
import type { GateableMenuEntry } from './menu/menu-gating';
import { SideMenu } from './menu/SideMenu';
import { loadModuleUis } from './module-uis';
import { NotFoundPage } from './NotFoundPage';
import { PluginErrorBoundary } from './remotes/PluginErrorBoundary';
import { hasRemote, registerPluginRemotes } from './remotes/plugin-remotes';
import { RemoteRoute } from './remotes/RemoteRoute';
import { TopBar, type TopBarSlot } from './top-bar/TopBar';
import { useNarrowScreen } from './useNarrowScreen';
import { useSessionTakeover } from './useSessionTakeover';

const SIDER_WIDTH = 248;
const SIDER_COLLAPSED_WIDTH = 64;

/** Every module UI, loaded once after login; undefined while loading. */
function useModuleUis(): PluginUi[] | undefined {
  const [modules, setModules] = useState<PluginUi[] | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    loadModuleUis().then(
      (loaded) => alive && setModules(loaded),
      (error: unknown) => {
        console.error('Module UIs failed to load', error);
        if (alive) setModules([]);
      },
    );
    return () => {
      alive = false;
    };
  }, []);
  return modules;
}

/** The plugins this company may load (`GET /plugins`), registered with the federation runtime. */
function usePluginListings(): PluginListing[] | undefined {
  const { data, isError } = useListPluginsQuery();
  const plugins = data?.plugins;
  useEffect(() => {
    if (plugins) registerPluginRemotes(plugins);
  }, [plugins]);
  // a failed listing must not hold the frame in skeletons: the company simply gets no plugin
  return plugins ?? (isError ? [] : undefined);
}

/** The private app frame (1-core §2): side menu, top bar and the features' pages. */
export default function AppFrame() {
  const user = useSession();
  if (!user) return null;
  return <Frame user={user} />;
}

function Frame({ user }: { user: NonNullable<ReturnType<typeof useSession>> }) {
  const narrow = useNarrowScreen();
  const { token } = theme.useToken();
  const plan = usePlan();
  const modules = useModuleUis();
  const plugins = usePluginListings();
  const [siderOpen, setSiderOpen] = useState(user.defaultMenu !== 'closed');
  const [drawerOpen, setDrawerOpen] = useState(false);
  useCompanySocketConnection();
  useSessionTakeover(user.companyId, user.id);

  const menuEntries = useMemo<GateableMenuEntry[] | undefined>(() => {
    if (!modules || !plugins) return undefined;
    return [...modules.flatMap((ui) => ui.menu ?? []), ...plugins.flatMap((listing) => listing.menu)];
  }, [modules, plugins]);

  const topBarSlots = useMemo<TopBarSlot[]>(
    () =>
      (modules ?? []).flatMap((ui) =>
        (ui.slots?.topBar ?? []).map((Component, place) => ({ key: `${ui.id}:${place}`, featureId: ui.id, Component })),
      ),
    [modules],
  );
  const userMenuItems = useMemo(() => (modules ?? []).flatMap((ui) => ui.slots?.userMenu ?? []), [modules]);

  const menuOpen = narrow ? drawerOpen : siderOpen;
  const toggleMenu = () => (narrow ? setDrawerOpen((open) => !open) : setSiderOpen((open) => !open));
  const menu = (collapsed: boolean) => (
    <SideMenu user={user} plan={plan} entries={menuEntries} collapsed={collapsed} onNavigate={() => setDrawerOpen(false)} />
  );

  return (
    <MenuIconLoaderContext.Provider value={loadMenuIcon}>
      <Layout style={{ minHeight: '100%' }}>
        {narrow ? (
          <Drawer
            open={drawerOpen}
            placement="left"
            size={SIDER_WIDTH}
            onClose={() => setDrawerOpen(false)}
            closable={false}
            styles={{ body: { padding: 0 } }}
          >
            {menu(false)}
          </Drawer>
        ) : (
          <Layout.Sider
            theme="light"
            width={SIDER_WIDTH}
            collapsedWidth={SIDER_COLLAPSED_WIDTH}
            collapsed={!siderOpen}
            trigger={null}
            style={{
              borderInlineEnd: `1px solid ${token.colorSplit}`,
              position: 'sticky',
              top: 0,
              height: '100vh',
              overflow: 'hidden',
            }}
          >
            {menu(!siderOpen)}
          </Layout.Sider>
        )}
        <Layout>
          <TopBar
            user={user}
            menuOpen={menuOpen}
            onToggleMenu={toggleMenu}
            slots={topBarSlots}
            userMenuItems={userMenuItems}
            narrow={narrow}
          />
          <Layout.Content style={{ padding: narrow ? 8 : 16, minWidth: 0 }}>
            {modules && plugins ? (
              <Routes>
                {modules.flatMap((ui) =>
                  ui.routes.map((route) => (
                    <Route
                      key={`${ui.id}:${route.path}`}
                      path={route.path}
                      element={
                        <PluginErrorBoundary name={ui.id}>
                          <Suspense fallback={<ContentSkeleton />}>{route.element}</Suspense>
                        </PluginErrorBoundary>
                      }
                    />
                  )),
                )}
                {plugins
                  .filter(hasRemote)
                  .flatMap((listing) =>
                    listing.routes.map((route) => (
                      <Route
                        key={`${listing.id}:${route.path}`}
                        path={route.path}
                        element={<RemoteRoute key={route.path} listing={listing} path={route.path} />}
                      />
                    )),
                  )}
                <Route path="*" element={<NotFoundPage />} />
              </Routes>
            ) : (
              <ContentSkeleton />
            )}
          </Layout.Content>
        </Layout>
      </Layout>
    </MenuIconLoaderContext.Provider>
  );
}
