import { MenuFoldOutlined, MenuUnfoldOutlined, ReloadOutlined } from '@ant-design/icons';
import { formatDate, PluginSlot, type SessionUser, type UserMenuItem } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Layout, Tooltip, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { ThemeToggle } from '../../pages/public/ThemeToggle';
import { UserMenu } from './UserMenu';
import { VolumeControl } from './VolumeControl';

/** Props of the top bar. */
export interface TopBarProps {
  user: SessionUser;
  menuOpen: boolean;
  onToggleMenu(): void;
  userMenuItems: UserMenuItem[];
  narrow: boolean;
}

/**
 * The top bar of docs/product/tickets-and-inbox.md#screens-and-routes: greeting with user and company (and, for admins, the due date), feature
 * popovers (bell, announcements, internal chat: the features' `topBar` slot), theme toggle, volume, refresh
 * and the avatar menu.
 */
export function TopBar({ user, menuOpen, onToggleMenu, userMenuItems, narrow }: TopBarProps) {
  const { t } = useTranslation('shell');
  const { token } = theme.useToken();
  const isAdmin = user.profile === 'admin' || user.super;
  return (
    <Layout.Header
      style={{
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorSplit}`,
        padding: '0 12px',
        height: 56,
        lineHeight: '56px',
        position: 'sticky',
        top: 0,
        zIndex: 10,
      }}
    >
      <Flex align="center" gap={8} style={{ height: '100%' }}>
        <Button
          type="text"
          aria-label={menuOpen ? t('topBar.closeMenu') : t('topBar.openMenu')}
          aria-expanded={menuOpen}
          icon={menuOpen ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
          onClick={onToggleMenu}
        />
        <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }} data-testid="greeting">
          {narrow
            ? t('topBar.greeting', { name: user.name })
            : t('topBar.greetingWithCompany', { name: user.name, company: user.company.name })}
          {isAdmin && !narrow ? <> {t('topBar.activeUntil', { date: formatDate(user.company.dueDate) })}</> : null}
        </Typography.Text>
        {/* the features' popovers (bell, announcements, internal chat): the `topBar` slot */}
        <PluginSlot name="topBar" props={{ narrow }} />
        <ThemeToggle />
        <VolumeControl />
        <Tooltip title={t('topBar.refresh')}>
          <Button
            type="text"
            shape="circle"
            aria-label={t('topBar.refresh')}
            icon={<ReloadOutlined />}
            onClick={() => globalThis.location.reload()}
          />
        </Tooltip>
        <UserMenu user={user} items={userMenuItems} />
      </Flex>
    </Layout.Header>
  );
}
