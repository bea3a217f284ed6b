import { definePlugin, type PluginDefinition } from './define-plugin';
import type { ErrorCodes } from './errors';

/**
 * One part of a large feature: what an area (its own folder) adds to the feature's definition. A feature
 * made of areas (the administration: team, queues, platform; the channels: connections, behaviours,
 * webchat) stays one feature — one migrations table, one i18n namespace — while each part stays readable.
 */
export type FeatureArea = Omit<PluginDefinition, 'id' | 'seed' | 'permissions'> & {
  seed?: { demo?: NonNullable<PluginDefinition['seed']>['demo']; fixtures?: NonNullable<PluginDefinition['seed']>['fixtures'] };
};

/**
 * The definition of a feature made of areas: configuration variables, error codes, jobs, schedules, event handlers (each event's handlers run
 * in area order), session fields, seeds (in area order; fixtures see the ids earlier areas made),
 * registration and shutdown of every area.
 */
export function definePluginOfAreas(
  id: string,
  areas: FeatureArea[],
  extra: Pick<PluginDefinition, 'permissions'> = {},
): PluginDefinition {
  return definePlugin({
    id,
    ...extra,
    // every area's variables: the loader validates them together and the areas share one ctx.config
    config: Object.assign({}, ...areas.map((area) => area.config ?? {})),
    errors: mergeErrors(id, areas),
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
}

/** Every area's handler of an event runs, in area order. */
function mergeHandlers(list: FeatureArea[]): PluginDefinition['on'] {
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

/** The areas' error codes as the feature's: a code is one area's (two areas defining it is a mistake). */
function mergeErrors(id: string, areas: FeatureArea[]): ErrorCodes {
  const codes: ErrorCodes = {};
  for (const area of areas) {
    for (const [code, status] of Object.entries(area.errors ?? {}) as Array<[keyof ErrorCodes, number]>) {
      if (code in codes) throw new Error(`${id}: error code ${code} is defined by two areas`);
      codes[code] = status;
    }
  }
  return codes;
}
