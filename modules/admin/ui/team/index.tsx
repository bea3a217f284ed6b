import { UserOutlined } from '@ant-design/icons';
import {
  type FeatureTranslations,
  type UiMenuEntry,
  type UiRoute,
  type UserMenuItem,
  useSession,
  useTranslation,
} from '@balcao/plugin-sdk/ui';
import { Skeleton } from 'antd';
import { lazy, type ReactNode, Suspense } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/** Users and Settings (docs/product/administration.md#screens-and-routes). Each page's code loads when its route is first shown. */
const UsersPage = lazy(() => import('./UsersPage').then((module) => ({ default: module.UsersPage })));
const SettingsPage = lazy(() => import('./SettingsPage').then((module) => ({ default: module.SettingsPage })));
const UserDialog = lazy(() => import('./UserDialog').then((module) => ({ default: module.UserDialog })));

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} style={{ padding: 8 }} />}>{children}</Suspense>;
}

export const teamRoutes: UiRoute[] = [
  {
    path: '/users',
    element: (
      <Page>
        <UsersPage />
      </Page>
    ),
  },
  {
    path: '/settings',
    element: (
      <Page>
        <SettingsPage />
      </Page>
    ),
  },
];

/**
 * Administration group entries (docs/product/tickets-and-inbox.md#side-menu, for admins): Users is the 8th entry of the group and
 * Settings the 16th (Campaigns, Contact lists, Campaign settings, Phrase lists, Flow builders,
 * Announcements, Messages API, Users, Queues, Prompts, Queue integrations, Connections, All connections,
 * Files, Finance, Settings, Companies).
 */
export const teamMenu: UiMenuEntry[] = [
  {
    key: 'users',
    group: 'admin',
    path: '/users',
    icon: 'TeamOutlined',
    order: 8,
    label: { pt: 'Usuários', en: 'Users', es: 'Usuarios', tr: 'Kullanıcılar' },
  },
  {
    key: 'settings',
    group: 'admin',
    path: '/settings',
    icon: 'SettingOutlined',
    order: 16,
    label: { pt: 'Configurações', en: 'Settings', es: 'Configuración', tr: 'Ayarlar' },
  },
];

/** The avatar menu's Profile (docs/product/tickets-and-inbox.md#top-bar): the user dialog for oneself. */
function ProfileDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const session = useSession();
  if (!session || !open) return null;
  return (
    <Suspense fallback={null}>
      <UserDialog open={open} userId={session.id} onClose={onClose} asProfile />
    </Suspense>
  );
}

/** The item's label, translated in the admin namespace wherever the shell renders it. */
function ProfileLabel() {
  const { t } = useTranslation('admin');
  return <>{t('team.profileMenu')}</>;
}

export const teamUserMenu: UserMenuItem[] = [
  { key: 'profile', label: <ProfileLabel />, icon: <UserOutlined />, Dialog: ProfileDialog },
];

export const teamLocales: FeatureTranslations = { pt, en, es, tr };
