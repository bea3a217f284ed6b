import type { SessionUser } from '@balcao/plugin-sdk/ui';
import type { ListViewer } from './ticket-list';

/** A company setting of the session (docs/product/tickets-and-inbox.md#entities companieSettings), or undefined. */
export function companySetting(user: Pick<SessionUser, 'company'> | null, key: string): string | undefined {
  return user?.company.companieSettings.find((setting) => setting.key === key)?.value;
}

/** Whether a company setting is on ('enabled', as the settings page stores it; 'true' too). */
export function isSettingEnabled(user: Pick<SessionUser, 'company'> | null, key: string): boolean {
  const value = companySetting(user, key)?.toLowerCase();
  return value === 'enabled' || value === 'true' || value === '1';
}

/** Whether the session user is an admin (or the super user). */
export function isAdminUser(user: Pick<SessionUser, 'profile' | 'super'>): boolean {
  return user.profile === 'admin' || user.super === true;
}

/** The session user as the list-membership and notification rules read it. */
export function listViewerOf(user: SessionUser): ListViewer {
  return {
    id: user.id,
    isAdmin: isAdminUser(user),
    queueIds: user.queues.map((queue) => queue.id),
    allTicket: user.allTicket === 'enable',
    allowGroup: user.allowGroup === true,
  };
}
