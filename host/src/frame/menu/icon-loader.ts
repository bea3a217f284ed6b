import type { ComponentType } from 'react';

/**
 * Icons named in menu entries (`SmileOutlined`), each in its own small chunk: the menu downloads only the
 * icons it shows, not the whole icon set. The `@balcao-antd-icons` alias points at @ant-design/icons'
 * per-icon modules; rspack lists them at build time.
 */
const iconContext = import.meta.webpackContext('@balcao-antd-icons', {
  recursive: false,
  regExp: /^\.\/[A-Z][A-Za-z0-9]*(Outlined|Filled|TwoTone)\.js$/,
  mode: 'lazy',
});

const available = new Set(iconContext.keys());

/** Loads an @ant-design/icons icon by name; null for a name that is not an icon. */
export async function loadMenuIcon(name: string): Promise<ComponentType | null> {
  const key = `./${name}.js`;
  if (!available.has(key)) return null;
  const module = (await iconContext(key)) as { default: ComponentType };
  return module.default;
}
