import { type PluginListing, type PluginUi, useCompanySocketConnection, usePlan, useSession } from '@balcao/plugin-sdk/ui';
import { useEffect, useState } from 'react';
import { useListPluginsQuery } from '../shell-api';
import { Frame } from './Frame';
import { loadMenuIcon } from './menu/icon-loader';
import { MenuIconLoaderContext } from './menu/MenuIcon';
import { loadModuleUis } from './module-uis';
import { registerPluginRemotes } from './remotes/plugin-remotes';
import { SlotHostProvider } from './slots/SlotHostProvider';
import { useSessionTakeover } from './useSessionTakeover';

/** Every module UI, loaded once after login; undefined while loading. */
function useModuleUis(): PluginUi[] | undefined {
  const [modules, setModules] = useState<PluginUi[] | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    loadModuleUis().then(
      (loaded) => alive && setModules(loaded),
      (error: unknown) => {
        console.error('Module UIs failed to load', error);
        if (alive) setModules([]);
      },
    );
    return () => {
      alive = false;
    };
  }, []);
  return modules;
}

/** The plugins this company may load (`GET /plugins`), registered with the federation runtime. */
function usePluginListings(): PluginListing[] | undefined {
  const { data, isError } = useListPluginsQuery();
  const plugins = data?.plugins;
  useEffect(() => {
    if (plugins) registerPluginRemotes(plugins);
  }, [plugins]);
  // a failed listing must not hold the frame in skeletons: the company simply gets no plugin
  return plugins ?? (isError ? [] : undefined);
}

/**
 * The private app (docs/product/tickets-and-inbox.md#screens-and-routes), loaded after login: the module UIs bundled into the host, the plugins this
 * company may load, the company socket, the session-takeover rule and the UI slots' host, around the frame.
 */
export default function AppFrame() {
  const user = useSession();
  if (!user) return null;
  return <LoadedFrame user={user} />;
}

function LoadedFrame({ user }: { user: NonNullable<ReturnType<typeof useSession>> }) {
  const modules = useModuleUis();
  const plugins = usePluginListings();
  const plan = usePlan();
  useCompanySocketConnection();
  useSessionTakeover(user.companyId, user.id);
  return (
    <MenuIconLoaderContext.Provider value={loadMenuIcon}>
      <SlotHostProvider user={user} plan={plan} modules={modules} plugins={plugins}>
        <Frame user={user} modules={modules} plugins={plugins} />
      </SlotHostProvider>
    </MenuIconLoaderContext.Provider>
  );
}
