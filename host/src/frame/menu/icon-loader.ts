import AntdIcon from '@ant-design/icons/es/components/AntdIcon';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { type ComponentType, createElement } from 'react';

declare const __BALCAO_ICON_TAG__: string;

/**
 * Menu entries name their icon (`SmileOutlined`). The build copies the icon set's definitions — plain
 * data modules without imports — to `assets/icons/<Name>.<tag>.js` (the tag follows the icon set's
 * version, so the files are cached for ever), and the frame imports the one it needs at run time.
 * Being outside the bundle, the 1,700 icons add nothing to the chunk map every page downloads before
 * the login form shows (as bundler chunks they weighed 9 KB of gzip there).
 */
const ICON_NAME = /^[A-Z][A-Za-z0-9]*(Outlined|Filled|TwoTone)$/;

/** Where the icon definition of `name` is served. */
export function iconUrl(name: string): string {
  return `${__webpack_public_path__}assets/icons/${name}.${__BALCAO_ICON_TAG__}.js`;
}

/** Loads an @ant-design/icons icon by name; null for a name that is not an icon or did not load. */
export async function loadMenuIcon(name: string): Promise<ComponentType | null> {
  if (!ICON_NAME.test(name)) return null;
  let definition: IconDefinition | undefined;
  try {
    definition = ((await import(/* webpackIgnore: true */ iconUrl(name))) as { default?: IconDefinition }).default;
  } catch {
    return null;
  }
  if (!definition?.icon) return null;
  const icon = definition;
  return function MenuIconOf() {
    return createElement(AntdIcon, { icon });
  };
}
