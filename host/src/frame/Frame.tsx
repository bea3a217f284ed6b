import {
  can,
  type Language,
  type PluginListing,
  type PluginUi,
  permissionTable,
  type SessionUser,
  type UiMenuEntry,
  usePlan,
  useTitleBadge,
} from '@balcao/plugin-sdk/ui';
import { Drawer, Layout, theme } from 'antd';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { useAppName } from '../pages/public/useAppName';
import { ContentSkeleton } from './ContentSkeleton';
import { buildMenuSections, type GateableMenuEntry } from './menu/menu-gating';
import { SideMenu } from './menu/SideMenu';
import { FeatureUnavailablePage, type HomePath, NotFoundPage, PlanRefusedPage } from './NotFoundPage';
import { PluginErrorBoundary } from './remotes/PluginErrorBoundary';
import { pluginMenuEntries, remotesForMenuBadges, usePluginMenuBadgeUis } from './remotes/plugin-menu-badges';
import { hasRemote } from './remotes/plugin-remotes';
import { RemoteRoute } from './remotes/RemoteRoute';
import { planFlagOf, unservedSpecRoutes } from './spec-routes';
import { TopBar } from './top-bar/TopBar';
import { useNarrowScreen } from './useNarrowScreen';

const SIDER_WIDTH = 248;
const SIDER_COLLAPSED_WIDTH = 64;

/** Props of the frame. */
export interface FrameProps {
  user: SessionUser;
  /** The module UIs bundled into the host, activated; undefined while they load. */
  modules: PluginUi[] | undefined;
  /** The plugins this company may load (`GET /plugins`); undefined while the list loads. */
  plugins: PluginListing[] | undefined;
}

/**
 * The layout of the private pages (docs/product/tickets-and-inbox.md#screens-and-routes): the side menu (a sider opened or closed by the user's
 * `defaultMenu`, a temporary drawer under 600 px), the top bar, and the pages of modules and plugins.
 */
export function Frame({ user, modules, plugins }: FrameProps) {
  const narrow = useNarrowScreen();
  const { token } = theme.useToken();
  const { t, i18n } = useTranslation('shell');
  const language = (i18n.resolvedLanguage ?? 'pt') as Language;
  const plan = usePlan();
  const [siderOpen, setSiderOpen] = useState(user.defaultMenu !== 'closed');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const appName = useAppName();
  const titleBadge = useTitleBadge();
  // the shell owns the tab title: the app name, with the badge a feature sets in front (unread tickets)
  useEffect(() => {
    document.title = titleBadge ? `${titleBadge} ${appName}` : appName;
  }, [titleBadge, appName]);

  // plugins' entries come from their manifests; their badges from their code, loaded shortly after login
  const badgeRemotes = useMemo(
    () => remotesForMenuBadges(plugins ?? [], { user, plan, table: permissionTable() }),
    [plugins, user, plan],
  );
  const badgeUis = usePluginMenuBadgeUis(badgeRemotes);
  const menuEntries = useMemo<GateableMenuEntry[] | undefined>(() => {
    if (!modules || !plugins) return undefined;
    return [...modules.flatMap((ui) => ui.menu ?? []), ...pluginMenuEntries(plugins, badgeUis)];
  }, [modules, plugins, badgeUis]);

  const servedPaths = useMemo(
    () => [
      ...(modules ?? []).flatMap((ui) => ui.routes.map((route) => route.path)),
      ...(plugins ?? []).filter(hasRemote).flatMap((listing) => listing.routes.map((route) => route.path)),
    ],
    [modules, plugins],
  );

  /**
   * '/' when a feature serves it (the dashboard) and the user may see it (dashboard:view: admins, and
   * profile users with showDashboard); else /tickets when served; else the first page of the menu.
   */
  const home = useMemo<HomePath>(() => {
    if (servedPaths.includes('/') && can(user, 'dashboard:view', permissionTable())) return '/';
    if (servedPaths.includes('/tickets/:ticketId?')) return '/tickets';
    const sections = buildMenuSections(
      (menuEntries ?? []).filter((entry) => !(entry as UiMenuEntry).useVisible),
      { user, plan, table: permissionTable() },
      language,
    );
    return sections[0]?.entries[0]?.path ?? null;
  }, [servedPaths, menuEntries, user, plan, language]);

  const userMenuItems = useMemo(() => (modules ?? []).flatMap((ui) => ui.slots?.userMenu ?? []), [modules]);

  const menuOpen = narrow ? drawerOpen : siderOpen;
  const toggleMenu = () => (narrow ? setDrawerOpen((open) => !open) : setSiderOpen((open) => !open));
  const menu = (collapsed: boolean) => (
    <SideMenu user={user} plan={plan} entries={menuEntries} collapsed={collapsed} onNavigate={() => setDrawerOpen(false)} />
  );

  return (
    <Layout style={{ minHeight: '100%' }}>
      {narrow ? (
        <Drawer
          open={drawerOpen}
          placement="left"
          size={SIDER_WIDTH}
          onClose={() => setDrawerOpen(false)}
          closable={false}
          aria-label={t('menu.label')}
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
        <TopBar user={user} menuOpen={menuOpen} onToggleMenu={toggleMenu} userMenuItems={userMenuItems} narrow={narrow} />
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
              {unservedSpecRoutes(servedPaths).map((path) => {
                const flag = planFlagOf(path);
                // a plan-gated route waits for the plan; a page of a feature that isn't installed just says so
                const element =
                  flag === null ? (
                    <FeatureUnavailablePage home={home} />
                  ) : plan === undefined ? (
                    <ContentSkeleton />
                  ) : plan[flag] === true ? (
                    <FeatureUnavailablePage home={home} />
                  ) : (
                    <PlanRefusedPage home={home} />
                  );
                return <Route key={`unavailable:${path}`} path={path} element={element} />;
              })}
              <Route path="*" element={<NotFoundPage home={home} />} />
            </Routes>
          ) : (
            <ContentSkeleton />
          )}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
