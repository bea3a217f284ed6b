import type { defineRoutes, PluginApp, PluginContext } from '@balcao/plugin-sdk/server';

/**
 * Registers an area's route files (each `export default defineRoutes(...)`), in the order given, each in
 * its own encapsulated context with the feature's ctx — as the loader registers the files of
 * `server/routes/`. The inbox keeps each route file in the area it belongs to (docs/plugin-authoring.md,
 * "One folder or areas"), so its areas register them.
 */
export async function registerRoutes(
  app: PluginApp,
  ctx: PluginContext,
  files: Array<ReturnType<typeof defineRoutes>>,
): Promise<void> {
  for (const routes of files) await app.register(routes, { ctx });
}
