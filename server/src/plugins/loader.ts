import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type BalcaoEvents,
  type PluginContext,
  type PluginDefinition,
  registerErrors,
  runInTenant,
} from '@balcao/plugin-sdk/server';
import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';
import type { CoreServices } from '../core-services';
import type { StampedConfig } from '../http/route-registry';
import { ensureTypeScriptLoader, type ModuleLoader } from './bundled-registry';
import type { DiscoveredPlugin } from './discover';
import { PluginManifestError } from './discover';
import { byRouteOrder, routeFiles } from './feature-files';
import { createPluginContext } from './plugin-context';

/** A feature after loading: its manifest, definition and context. */
export interface LoadedPlugin {
  discovered: DiscoveredPlugin;
  definition: PluginDefinition;
  ctx: PluginContext;
}

/** Imports one module of a feature: through the bundle's loader when running from it, else from disk. */
async function importFeatureModule(file: string, bundled: ModuleLoader | undefined): Promise<unknown> {
  if (bundled) return bundled();
  if (file.endsWith('.ts')) await ensureTypeScriptLoader();
  return import(pathToFileURL(file).href);
}

/**
 * A feature's route files (`server/routes/*.ts` and each area's `server/<area>/routes/*.ts`, one per
 * resource, tests excluded), in `routeFiles`' order, from the bundle or the folder. Each is registered in
 * its own encapsulated context with the feature's ctx.
 */
async function routeModules(plugin: DiscoveredPlugin): Promise<Array<{ name: string; load: ModuleLoader }>> {
  if (plugin.bundled) {
    return Object.entries(plugin.bundled.routes)
      .sort(([a], [b]) => byRouteOrder(a, b))
      .map(([name, load]) => ({ name, load }));
  }
  return routeFiles(plugin.serverDir).map((name) => {
    const file = path.join(plugin.serverDir, name);
    return { name, load: () => importFeatureModule(file, undefined) };
  });
}

/** Imports each feature's server entry and checks it matches its manifest. */
export async function importDefinitions(
  discovered: DiscoveredPlugin[],
): Promise<Array<{ discovered: DiscoveredPlugin; definition: PluginDefinition }>> {
  const result = [];
  for (const plugin of discovered) {
    let definition: PluginDefinition = { id: plugin.manifest.id };
    if (plugin.serverEntry) {
      const module = (await importFeatureModule(plugin.serverEntry, plugin.bundled?.server)) as { default?: PluginDefinition };
      if (!module.default || typeof module.default !== 'object') {
        throw new PluginManifestError(`${plugin.manifest.id}: ${plugin.serverEntry} has no default export from definePlugin`);
      }
      definition = module.default;
      if (definition.id !== plugin.manifest.id) {
        throw new PluginManifestError(`${plugin.manifest.id}: definePlugin id '${definition.id}' differs from the manifest id`);
      }
      checkJobsAndSchedules(definition);
      try {
        registerErrors(definition.id, definition.errors ?? {});
      } catch (error) {
        throw new PluginManifestError(`${definition.id}: ${(error as Error).message}`);
      }
    }
    result.push({ discovered: plugin, definition });
  }
  return result;
}

/**
 * Refuses at start what would otherwise fail on every tick or enqueue, far from its cause: a job without
 * a handler, a schedule naming a job the feature doesn't declare, a period that is no positive number,
 * two schedules sharing a name (they would share the scheduler's slot key).
 */
function checkJobsAndSchedules(definition: PluginDefinition): void {
  const refuse = (problem: string) => {
    throw new PluginManifestError(`${definition.id}: ${problem}`);
  };
  for (const [name, job] of Object.entries(definition.jobs ?? {})) {
    if (name.includes(':')) refuse(`job name '${name}' can't contain ':' (it separates feature and job on enqueue)`);
    if (typeof job?.handler !== 'function') refuse(`job '${name}' has no handler function`);
  }
  const names = new Set<string>();
  for (const schedule of definition.schedules ?? []) {
    if (names.has(schedule.name)) refuse(`two schedules are named '${schedule.name}'`);
    names.add(schedule.name);
    if (!definition.jobs?.[schedule.job]) {
      refuse(`schedule '${schedule.name}' runs job '${schedule.job}', which definePlugin({ jobs }) doesn't declare`);
    }
    if (!Number.isInteger(schedule.everyMs) || schedule.everyMs <= 0) {
      refuse(`schedule '${schedule.name}' needs everyMs as a positive whole number of milliseconds (got ${schedule.everyMs})`);
    }
  }
}

/** Merges features' permissions into the core's table (a feature can't redefine a core permission). */
export function mergePermissions(core: CoreServices, definitions: Array<{ definition: PluginDefinition }>): void {
  for (const { definition } of definitions) {
    for (const [permission, profiles] of Object.entries(definition.permissions ?? {})) {
      if (core.permissions[permission]) {
        throw new PluginManifestError(`${definition.id}: permission '${permission}' is already defined`);
      }
      core.permissions[permission] = profiles;
    }
  }
}

/**
 * Registers every feature in its own encapsulated Fastify context under the API prefix, with its routes
 * (every route file of `server/routes` and of each area's `server/<area>/routes`, then `register`), jobs,
 * schedules, event handlers and session contributions. Every route it adds is stamped with its owner and, for a plan-gated plugin, the flag.
 */
export async function registerPlugins(
  app: FastifyInstance,
  core: CoreServices,
  definitions: Array<{ discovered: DiscoveredPlugin; definition: PluginDefinition }>,
  options: { isWorker: boolean; featureConfigs: Map<string, Record<string, unknown>> },
): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  for (const { discovered, definition } of definitions) {
    const { manifest } = discovered;
    const ctx = createPluginContext(core, discovered, options.featureConfigs.get(manifest.id) ?? {});
    const planFlag = manifest.planFlag ?? null;

    await app.register(
      async (child) => {
        child.addHook('onRoute', (route: RouteOptions) => {
          const config = (route.config ?? {}) as StampedConfig;
          // a plan-gated plugin's flag covers every route it registers: a route can't swap it for another
          route.config = {
            ...config,
            owner: manifest.id,
            planFlag: planFlag ?? config.planFlag,
          } as RouteOptions['config'];
        });
        for (const routes of await routeModules(discovered)) {
          const module = (await routes.load()) as { default?: unknown };
          if (typeof module.default !== 'function') {
            throw new PluginManifestError(`${manifest.id}: ${routes.name} has no default export from defineRoutes`);
          }
          await child.register(module.default as FastifyPluginAsync<{ ctx: PluginContext }>, { ctx });
        }
        await definition.register?.(child as never, ctx);
      },
      { prefix: core.config.apiPrefix },
    );

    core.jobs.register(manifest.id, planFlag, definition.jobs ?? {}, ctx);
    if (options.isWorker) {
      for (const schedule of definition.schedules ?? []) {
        core.scheduler.every(`${manifest.id}:${schedule.name}`, schedule.everyMs, () =>
          core.jobs.enqueue(manifest.id, schedule.job, {}, { companyId: undefined }),
        );
      }
    }
    for (const [event, handler] of Object.entries(definition.on ?? {})) {
      core.events.on(event as keyof BalcaoEvents, async (payload: { companyId: number }) => {
        if (planFlag && !(await core.plans.has(payload.companyId, planFlag))) return;
        await (handler as (payload: unknown, ctx: PluginContext) => Promise<void>)(payload, ctx);
      });
    }
    if (definition.session) {
      const contribute = definition.session;
      // like its routes, jobs and event handlers, a plan-gated plugin adds nothing for a company without the flag
      core.sessions.addContributor(async (user) => {
        if (planFlag && !(await core.plans.has(user.companyId, planFlag))) return {};
        return runInTenant({ companyId: user.companyId, userId: user.id }, () => contribute(user, ctx));
      });
    }
    loaded.push({ discovered, definition, ctx });
  }
  return loaded;
}
