import { activatePluginUi, isPluginUi, type PluginUi } from '@balcao/plugin-sdk/ui';

/**
 * Every module's UI (`modules/<name>/ui/index.tsx`), bundled into the host: rspack finds them at build
 * time (the `@balcao-modules` alias points at `modules/`), each in its own chunk, loaded after login.
 * A new module only adds its folder.
 */
const moduleContext = import.meta.webpackContext('@balcao-modules', {
  recursive: true,
  regExp: /^\.\/[^/]+\/ui\/index\.tsx$/,
  exclude: /node_modules/,
  mode: 'lazy',
});

let loaded: Promise<PluginUi[]> | null = null;

/** Loads (once) and activates every module UI. A module whose entry is not a `definePluginUi` is skipped, loudly. */
export function loadModuleUis(): Promise<PluginUi[]> {
  loaded ??= Promise.all(
    moduleContext.keys().map(async (key) => {
      const module = (await moduleContext(key)) as { default?: unknown };
      if (!isPluginUi(module.default)) {
        console.error(`${key}: the default export is not a definePluginUi(...)`);
        return null;
      }
      await activatePluginUi(module.default);
      return module.default;
    }),
  ).then((uis) => uis.filter((ui): ui is PluginUi => ui !== null));
  return loaded;
}
