import type { PluginUi } from '@balcao/plugin-sdk/ui';
import { Suspense, use } from 'react';
import { ContentSkeleton } from '../ContentSkeleton';
import { NotFoundPage } from '../NotFoundPage';
import { PluginErrorBoundary } from './PluginErrorBoundary';
import { loadPluginUi, type RemotePluginListing } from './plugin-remotes';

function RemotePage({ load, path }: { load: Promise<PluginUi>; path: string }) {
  const ui = use(load);
  const route = ui.routes.find((candidate) => candidate.path === path);
  return route ? route.element : <NotFoundPage />;
}

/** One route of a plugin: its remote's code is fetched on the first visit, inside an error boundary. */
export function RemoteRoute({ listing, path }: { listing: RemotePluginListing; path: string }) {
  return (
    <PluginErrorBoundary name={listing.id}>
      <Suspense fallback={<ContentSkeleton />}>
        <RemotePage load={loadPluginUi(listing)} path={path} />
      </Suspense>
    </PluginErrorBoundary>
  );
}
