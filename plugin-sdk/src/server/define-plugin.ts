import type { Static, TObject, TProperties } from 'typebox';
import type { Profile } from '../shared/permissions';
import type { SessionUser } from '../shared/session';
import type { PluginApp, PluginContext } from './context';
import type { ErrorCodes } from './errors';
import type { BalcaoEvents } from './events';

/** A background job a feature declares. Its handler runs in the job's company scope. */
export interface JobDefinition<D extends Record<string, unknown> = Record<string, unknown>, C extends object = object> {
  handler(data: D, ctx: PluginContext<C>, job: { id: string; companyId: number | null }): Promise<unknown>;
  /** Jobs of this name processed at once per worker process (default 1). */
  concurrency?: number;
}

/** Repeating work: the core scheduler enqueues `job` once per `everyMs` across all worker processes. */
export interface ScheduleDefinition {
  name: string;
  everyMs: number;
  /** One of this feature's job names; it runs with no company scope (it fans out itself). */
  job: string;
}

/** Ids of fixture rows a feature seeded for one company, keyed by entity name (`ticket`, `contact` …). */
export type FixtureIds = Record<string, number | string>;

/** What a feature's fixture seeder receives: the two test companies and a helper to act as each. */
export interface FixtureSeedContext<C extends object = object> {
  ctx: PluginContext<C>;
  /** A unique marker string; fixture rows of company A contain it so leak checks can find it. */
  marker: string;
  companyA: { id: number; adminId: number; userId: number };
  companyB: { id: number; adminId: number; userId: number };
  /** Ids other features seeded before this one (in dependency order) for company A. */
  seededA: FixtureIds;
}

/**
 * The environment variables a feature reads, each a TypeBox schema keyed by the variable's name
 * (`CAMPAIGN_BATCH: Type.Integer({ minimum: 1, default: 200 })`). Names are upper case and never one of the
 * core's variables. The core validates them at start with its own, every problem at once (exit code 78);
 * an unset or empty variable takes the schema's `default`, and one without a default must be
 * `Type.Optional` (or is required).
 */
export type FeatureConfigSchema = TProperties;

/** The validated values of a feature's configuration schema, as `ctx.config` holds them. */
export type FeatureConfig<S extends FeatureConfigSchema> = Static<TObject<S>>;

/** An event handler; method syntax keeps a feature's typed context assignable to the loader's. */
type EventHandler<P, C extends object> = {
  bivarianceHack(payload: P, ctx: PluginContext<C>): void | Promise<void>;
}['bivarianceHack'];

/** What `definePlugin` takes. Folders follow the convention: `server/migrations`, `server/routes` (and `server/<area>/routes`). */
export interface PluginDefinition<C extends object = object> {
  /** Must equal the `balcao.id` of the package.json. */
  id: string;
  /** The environment variables this feature reads: validated at start, read as `ctx.config.NAME`. */
  config?: FeatureConfigSchema;
  /**
   * What the declared variables can't say in their schemas (one variable needing others): each problem a
   * line naming the variables. Any problem stops the process at start, exit code 78, beside the schema's.
   * `platform` is what the core read of its own configuration from the same environment (`env`: NODE_ENV
   * as the core accepts it), so a feature never reads `process.env` for it.
   */
  checkConfig?(config: C, platform: { env: 'development' | 'test' | 'production' }): string[];
  /**
   * Whether the feature is on for the whole platform with this configuration (default on). Off, `GET /plugins`
   * leaves it out for every company, so its menu entries, routes and slots don't show.
   */
  enabled?(ctx: PluginContext<C>): boolean;
  /** Extra permissions this feature defines, with the profiles that hold them. */
  permissions?: Record<string, readonly Profile[]>;
  /** The feature's own error codes (`defineErrors` in its `errors.ts`); the loader registers them. */
  errors?: ErrorCodes;
  /** Registers routes and hooks, in the feature's own encapsulated context, paths exactly as documented. */
  register?(app: PluginApp, ctx: PluginContext<C>): void | Promise<void>;
  /** Named jobs (queue per feature). */
  jobs?: Record<string, JobDefinition<Record<string, unknown>, C>>;
  /** Repeating work driven by the core scheduler; the loader refuses one naming a job `jobs` doesn't declare. */
  schedules?: ScheduleDefinition[];
  /** Event bus handlers; each runs in the payload's company scope (a plugin's: only for companies with its flag). */
  on?: { [E in keyof BalcaoEvents]?: EventHandler<BalcaoEvents[E], C> };
  /**
   * Fields this feature adds to the session user (`GET /auth/me`), computed per user and cached; a
   * plugin's are added only for companies whose plan has its flag.
   */
  session?(user: SessionUser, ctx: PluginContext<C>): Promise<Partial<SessionUser>>;
  /** Demo data for `npm start` (idempotent: only inserts what is missing) and fixtures for the test walkers. */
  seed?: {
    demo?(ctx: PluginContext<C>, demo: { companies: Record<string, number>; users: Record<string, number> }): Promise<void>;
    fixtures?(seed: FixtureSeedContext<C>): Promise<FixtureIds>;
  };
  /** Called once when the process stops. */
  close?(ctx: PluginContext<C>): Promise<void>;
}

/**
 * Declares a module or plugin's server side. The default export of its `server/index.ts`.
 *
 * @example
 * export default definePlugin({
 *   id: 'kanban',
 *   register(app, ctx) { app.get('/ticket/kanban', { schema, config: access.authenticated }, handler) },
 *   jobs: { 'lane-timeout': { handler: laneTimeout } },
 * });
 *
 * @example
 * // a feature's own environment variables, validated at start and typed in `ctx.config`
 * export default definePlugin({
 *   id: 'campaigns',
 *   config: { CAMPAIGN_BATCH: Type.Integer({ minimum: 1, maximum: 5000, default: 200 }) },
 *   register(app, ctx) { ctx.log.info({ batch: ctx.config.CAMPAIGN_BATCH }, 'batch size') },
 * });
 */
export function definePlugin<S extends FeatureConfigSchema = Record<never, never>>(
  definition: PluginDefinition<FeatureConfig<S>> & { config?: S },
): PluginDefinition<FeatureConfig<S>> {
  return definition;
}

/**
 * Declares one routes file of `server/routes/` or of an area's `server/<area>/routes/`: the loader registers
 * each file in the feature's context.
 *
 * @example export default defineRoutes((app, ctx) => { app.get('/tags', {...}, handler) })
 */
export function defineRoutes(register: (app: PluginApp, ctx: PluginContext) => void | Promise<void>) {
  const plugin = async (app: PluginApp, options: { ctx: PluginContext }) => {
    await register(app, options.ctx);
  };
  return plugin;
}
