import { lazy, Suspense, useSyncExternalStore } from 'react';
import { toastDemand } from './feedback';

const ToastHolders = lazy(() => import('./toast-holders'));

/**
 * Where the SDK's toasts render: mount it once inside the page's theme provider. Its code (antd's message
 * and notification) loads when the page asks for its first toast, which then shows as soon as it has.
 */
export function ToastHost() {
  const requested = useSyncExternalStore(toastDemand.subscribe, toastDemand.requested, toastDemand.requested);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <ToastHolders />
    </Suspense>
  );
}
