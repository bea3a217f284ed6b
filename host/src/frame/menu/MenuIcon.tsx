import { AppstoreOutlined } from '@ant-design/icons';
import { type ComponentType, createContext, useContext, useEffect, useState } from 'react';

/** Loads an icon component by name (the frame provides the build's icon loader). */
export type MenuIconLoader = (name: string) => Promise<ComponentType | null>;

/** Where menu icons come from; without a loader every entry shows the neutral icon. */
export const MenuIconLoaderContext = createContext<MenuIconLoader | null>(null);

const loaded = new Map<string, ComponentType | null>();

/** An @ant-design/icons icon by name, with a neutral icon while it loads or when the name is unknown. */
export function MenuIcon({ name }: { name?: string }) {
  const load = useContext(MenuIconLoaderContext);
  const [Icon, setIcon] = useState<ComponentType | null>(() => (name ? (loaded.get(name) ?? null) : null));
  useEffect(() => {
    if (!name || !load || loaded.has(name)) return;
    let alive = true;
    void load(name).then((component) => {
      loaded.set(name, component);
      if (alive) setIcon(() => component);
    });
    return () => {
      alive = false;
    };
  }, [name, load]);
  const Shown = Icon ?? (name ? loaded.get(name) : null) ?? AppstoreOutlined;
  return <Shown />;
}
