import { lazy, Suspense } from 'react';

const ToastHolders = lazy(() => import('./toast-holders'));

/**
 * Where the SDK's toasts render: mount it once inside the page's theme provider. Its code (antd's message
 * and notification) loads after the first paint; a toast asked for before that waits for it.
 */
export function ToastHost() {
  return (
    <Suspense fallback={null}>
      <ToastHolders />
    </Suspense>
  );
}
