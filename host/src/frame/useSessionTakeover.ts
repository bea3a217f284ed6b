import { companyEvent, subscribeSocketEvent, toast } from '@balcao/plugin-sdk/ui';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** docs/product/tickets-and-inbox.md#constants-and-limits: the page reloads this long after a session takeover. */
export const TAKEOVER_RELOAD_DELAY_MS = 1_000;

/**
 * docs/product/tickets-and-inbox.md#states-and-transitions: when the same user logs in elsewhere the server emits `company-{id}-auth` for that user;
 * this session then says so, clears local storage and reloads after one second.
 */
export function useSessionTakeover(companyId: number, userId: number): void {
  const { t } = useTranslation('shell');
  useEffect(() => {
    let takenOver = false;
    const stop = subscribeSocketEvent<{ user?: { id?: number } }>(companyEvent(companyId, 'auth'), (payload) => {
      if (payload?.user?.id !== userId || takenOver) return;
      takenOver = true;
      try {
        globalThis.localStorage.clear();
      } catch {
        // nothing stored
      }
      // the second counts from when the toast is on screen: its code may still be loading on a slow machine
      void toast.warning(t('session.takenOver'), 'top-center').then(() => {
        setTimeout(() => globalThis.location.reload(), TAKEOVER_RELOAD_DELAY_MS);
      });
    });
    return stop;
  }, [companyId, userId, t]);
}
