import { type MenuBadge, usePermission } from '@balcao/plugin-sdk/ui';
import { useEffect, useState } from 'react';
import { useListConnectionsQuery } from './api';
import { needsAttention } from './format';

/** docs/product/tickets-and-inbox.md#screens-and-routes: the badge is evaluated 2 seconds after load. */
export const BADGE_DELAY_MS = 2_000;

/**
 * The Connections menu badge (docs/product/tickets-and-inbox.md#screens-and-routes): a dot while any connection is qrcode, PAIRING, DISCONNECTED,
 * TIMEOUT or OPENING. The list is read 2 seconds after the menu mounts and kept live by the realtime events
 * (the same cache entry as the Connections page, so the page and the badge never disagree).
 */
export function useConnectionsBadge(): MenuBadge {
  const mayView = usePermission('connections-page:actionButtons');
  const [due, setDue] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setDue(true), BADGE_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  const { data } = useListConnectionsQuery(undefined, { skip: !due || !mayView });
  return data && needsAttention(data) ? true : null;
}
