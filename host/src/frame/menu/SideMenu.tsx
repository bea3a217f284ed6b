import {
  type Language,
  localized,
  type MenuBadge,
  type MenuGroup,
  type PlanFlags,
  permissionTable,
  type SessionUser,
  type UiMenuEntry,
} from '@balcao/plugin-sdk/ui';
import { Badge, Empty, Flex, Menu, type MenuProps, Skeleton, Typography, theme } from 'antd';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useAppName } from '../../pages/public/useAppName';
import { useThemeMode } from '../../theme/ThemeProvider';
import { useAppLogo } from '../../theme/whitelabel-logos';
import { useVersion } from '../useVersion';
import { MenuIcon } from './MenuIcon';
import { buildMenuSections, type GateableMenuEntry, selectedMenuKey } from './menu-gating';

interface VisibilityProbeProps {
  path: string;
  useVisible: () => boolean;
  onChange(path: string, visible: boolean): void;
}

/** Runs an entry's `useVisible` hook in a component of its own, so each hook keeps a stable call order. */
function VisibilityProbe({ path, useVisible, onChange }: VisibilityProbeProps) {
  const visible = useVisible();
  useEffect(() => onChange(path, visible), [path, visible, onChange]);
  return null;
}

/** An entry's label and icon with the badge its `useBadge` hook asks for: beside the label, or on the icon when collapsed. */
function BadgedEntry({ useBadge, children, onIcon }: { useBadge: () => MenuBadge; children: ReactNode; onIcon: boolean }) {
  const badge = useBadge();
  if (badge === null || badge === undefined || badge === false || badge === 0) return children;
  const count = typeof badge === 'number' ? badge : undefined;
  return onIcon ? (
    <Badge dot={count === undefined} count={count} size="small">
      {children}
    </Badge>
  ) : (
    <Flex align="center" justify="space-between" gap={8}>
      <span>{children}</span>
      <Badge dot={count === undefined} count={count} />
    </Flex>
  );
}

/** Props of the side menu. */
export interface SideMenuProps {
  user: SessionUser;
  plan: PlanFlags | undefined;
  /** Entries of modules and plugins; undefined while they load. */
  entries: GateableMenuEntry[] | undefined;
  collapsed: boolean;
  /** Called after a click navigates (the narrow-screen drawer closes then). */
  onNavigate?(): void;
}

/** The side menu of docs/product/tickets-and-inbox.md#screens-and-routes: three groups, gated by plan, profile, super flag and permissions, then the version. */
export function SideMenu({ user, plan, entries, collapsed, onNavigate }: SideMenuProps) {
  const { t, i18n } = useTranslation('shell');
  const language = (i18n.resolvedLanguage ?? 'pt') as Language;
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { token } = theme.useToken();
  const version = useVersion();
  // Entries with a `useVisible` hook stay hidden until it says yes (Helps must not flash while its list loads).
  const [shownByData, setShownByData] = useState<ReadonlySet<string>>(new Set());

  const reportVisibility = useCallback((path: string, visible: boolean) => {
    setShownByData((previous) => {
      if (previous.has(path) === visible) return previous;
      const next = new Set(previous);
      if (visible) next.add(path);
      else next.delete(path);
      return next;
    });
  }, []);

  const sections = useMemo(
    () =>
      buildMenuSections(
        (entries ?? []).filter((entry) => !(entry as UiMenuEntry).useVisible || shownByData.has(entry.path)),
        { user, plan, table: permissionTable() },
        language,
      ),
    [entries, shownByData, user, plan, language],
  );

  const groupTitle: Record<MenuGroup, string | null> = {
    management: t('menu.management'),
    main: null,
    admin: t('menu.administration'),
  };

  type MenuItems = NonNullable<MenuProps['items']>;
  const items: MenuItems = sections.flatMap((section, index): MenuItems => {
    const children = section.entries.map((entry) => {
      const { useBadge } = entry as UiMenuEntry;
      const icon = <MenuIcon key={entry.path} name={entry.icon} />;
      const label = localized(entry.label, language);
      return {
        key: entry.path,
        icon:
          useBadge && collapsed ? (
            <BadgedEntry useBadge={useBadge} onIcon>
              {icon}
            </BadgedEntry>
          ) : (
            icon
          ),
        label:
          useBadge && !collapsed ? (
            <BadgedEntry useBadge={useBadge} onIcon={false}>
              {label}
            </BadgedEntry>
          ) : (
            label
          ),
      };
    });
    const title = groupTitle[section.group];
    const divider = index > 0 ? [{ type: 'divider' as const, key: `divider-${section.group}` }] : [];
    if (!title || collapsed) return [...divider, ...children];
    return [...divider, { type: 'group' as const, key: `group-${section.group}`, label: title, children }];
  });

  const selected = selectedMenuKey(
    sections.flatMap((section) => section.entries.map((entry) => entry.path)),
    pathname,
  );

  return (
    <Flex vertical style={{ height: '100%' }}>
      {collapsed ? null : <AppBrand />}
      {(entries ?? []).map((entry) => {
        const { useVisible } = entry as UiMenuEntry;
        return useVisible ? (
          <VisibilityProbe key={entry.path} path={entry.path} useVisible={useVisible} onChange={reportVisibility} />
        ) : null;
      })}
      <nav aria-label={t('menu.label')} style={{ flex: 1, overflowY: 'auto' }}>
        {entries === undefined ? (
          <div style={{ padding: 16 }} data-testid="menu-skeleton">
            <Skeleton active title={false} paragraph={{ rows: 5 }} />
          </div>
        ) : items.length === 0 ? (
          collapsed ? null : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('menu.empty')} style={{ padding: 16 }} />
          )
        ) : (
          <Menu
            mode="inline"
            inlineCollapsed={collapsed}
            items={items}
            selectedKeys={selected ? [selected] : []}
            onClick={({ key }) => {
              navigate(key);
              onNavigate?.();
            }}
            style={{ borderInlineEnd: 'none' }}
          />
        )}
      </nav>
      {!collapsed && version ? (
        <Typography.Text
          type="secondary"
          style={{ padding: '8px 16px', fontSize: 12, borderTop: `1px solid ${token.colorSplit}` }}
        >
          v{version}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}

/** The whitelabel logo of the theme at the top of the menu, when the platform set one. */
function AppBrand() {
  const { token } = theme.useToken();
  const appName = useAppName();
  const logo = useAppLogo(useThemeMode().mode);
  if (!logo) return null;
  return (
    <div style={{ padding: '12px 16px', borderBottom: `1px solid ${token.colorSplit}` }}>
      <img src={logo} alt={appName} style={{ maxWidth: '100%', maxHeight: 40, display: 'block', margin: '0 auto' }} />
    </div>
  );
}
