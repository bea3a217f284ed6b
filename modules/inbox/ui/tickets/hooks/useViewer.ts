import { type SessionUser, usePermission, useSession } from '@balcao/plugin-sdk/ui';
import { useMemo } from 'react';
import { isAdminUser, isSettingEnabled, listViewerOf } from '../logic/session';
import type { ListViewer } from '../logic/ticket-list';
import type { TicketPowers } from '../logic/ticket-rules';

/** The session user as the Tickets screen reads it: who they are, what they may do, the company's settings. */
export interface Viewer {
  user: SessionUser;
  list: ListViewer;
  powers: TicketPowers;
  isAdmin: boolean;
  /** tickets-manager:showall (admins; profile users with allUserChat). */
  canShowAll: boolean;
  canCloseAll: boolean;
  canDeleteTicket: boolean;
  settings: {
    sendSignMessage: boolean;
    showNotificationPending: boolean;
    /** enableLGPD and lgpdDeleteMessage: deleted messages are hidden. */
    hideDeletedMessages: boolean;
    /** userRating: resolving asks for the contact's rating (the rating modal). */
    userRating: boolean;
  };
}

/** The viewer; only for pages behind the session guard (the session user exists). */
export function useViewer(): Viewer {
  const user = useSession() as SessionUser;
  const canShowAll = usePermission('tickets-manager:showall');
  const canCloseAll = usePermission('tickets-manager:closeAll');
  const canDeleteTicket = usePermission('ticket-options:deleteTicket');
  return useMemo(() => {
    const isAdmin = isAdminUser(user);
    return {
      user,
      list: listViewerOf(user),
      isAdmin,
      powers: { userId: user.id, isAdmin, canIgnore: isAdmin || user.userClosePendingTicket === 'enabled' },
      canShowAll,
      canCloseAll,
      canDeleteTicket,
      settings: {
        sendSignMessage: isSettingEnabled(user, 'sendSignMessage'),
        showNotificationPending: isSettingEnabled(user, 'showNotificationPending'),
        hideDeletedMessages: isSettingEnabled(user, 'enableLGPD') && isSettingEnabled(user, 'lgpdDeleteMessage'),
        userRating: isSettingEnabled(user, 'userRating'),
      },
    };
  }, [user, canShowAll, canCloseAll, canDeleteTicket]);
}
