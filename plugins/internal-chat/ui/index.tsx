import { definePluginUi, type MenuBadge, useSession } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import { LATEST_CHATS, useChatsQuery } from './api';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

const ChatsPage = lazy(() => import('./pages/ChatsPage'));
const ChatPopover = lazy(() => import('./slots/ChatPopover'));

/** The menu's dot on Internal chat while the user has unread chat messages (the popover's list, one cache entry). */
export function useUnreadChatsBadge(): MenuBadge {
  const me = useSession();
  const { data } = useChatsQuery(LATEST_CHATS, { skip: !me });
  return (data?.unreads ?? 0) > 0 ? true : null;
}

/** The internal chat's UI remote (loaded by the shell only for companies whose plan has useInternalChat). */
export default definePluginUi({
  id: 'internal-chat',
  routes: [{ path: '/chats/:id?', element: <ChatsPage /> }],
  i18n: { pt, en, es, tr },
  slots: { topBar: [{ key: 'chats', Component: ChatPopover, order: 30 }] },
  menuBadges: { 'internal-chat': useUnreadChatsBadge },
});
