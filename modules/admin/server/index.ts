import { definePlugin, type PluginDefinition } from '@balcao/plugin-sdk/server';
import { platformArea } from './platform';
import { queuesArea } from './queues';
import { teamArea } from './team';

/**
 * One part of the administration: what an area adds to the module's definition. The module merges
 * them so each area (team: users and settings; queues: queues, chatbots, service hours; platform: the
 * super user's companies, plans, helps, announcements, whitelabel) keeps its own folder.
 */
export type AdminArea = Omit<PluginDefinition, 'id' | 'seed' | 'permissions'> & {
  seed?: { demo?: NonNullable<PluginDefinition['seed']>['demo']; fixtures?: NonNullable<PluginDefinition['seed']>['fixtures'] };
};

const areas: AdminArea[] = [teamArea, queuesArea, platformArea];

/** Administration (2-administration §2–§9). */
export default definePlugin({
  id: 'admin',
  jobs: Object.assign({}, ...areas.map((area) => area.jobs ?? {})),
  schedules: areas.flatMap((area) => area.schedules ?? []),
  on: mergeHandlers(areas),
  async session(user, ctx) {
    const parts = await Promise.all(areas.map((area) => area.session?.(user, ctx) ?? {}));
    return Object.assign({}, ...parts);
  },
  seed: {
    async demo(ctx, demo) {
      for (const area of areas) await area.seed?.demo?.(ctx, demo);
    },
    async fixtures(seed) {
      const ids = {};
      for (const area of areas) {
        Object.assign(ids, await area.seed?.fixtures?.({ ...seed, seededA: { ...seed.seededA, ...ids } }));
      }
      return ids;
    },
  },
  async register(app, ctx) {
    for (const area of areas) await area.register?.(app, ctx);
  },
  async close(ctx) {
    for (const area of areas) await area.close?.(ctx);
  },
});

/** Every area's handler of an event runs, in area order. */
function mergeHandlers(list: AdminArea[]): PluginDefinition['on'] {
  const merged: Record<string, (payload: never, ctx: never) => Promise<void>> = {};
  const events = new Set(list.flatMap((area) => Object.keys(area.on ?? {})));
  for (const event of events) {
    const handlers = list
      .map((area) => (area.on as Record<string, ((payload: never, ctx: never) => unknown) | undefined>)?.[event])
      .filter((handler) => handler !== undefined);
    merged[event] = async (payload, ctx) => {
      for (const handler of handlers) await handler(payload, ctx);
    };
  }
  return merged as PluginDefinition['on'];
}
