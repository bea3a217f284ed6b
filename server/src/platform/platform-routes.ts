import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  AppError,
  Id,
  NoQuery,
  PLAN_FLAGS,
  type PluginListing,
  PRODUCT_VERSION,
  pluginFlagsOf,
  remoteContainerName,
  StrictObject,
  Type,
} from '@balcao/plugin-sdk/server';
import type { FastifyInstance } from 'fastify';
import { errors } from '../auth/schemas';
import type { CoreServices } from '../core-services';
import type { LoadedPlugin } from '../plugins/loader';
import { PUBLIC_SETTING_DEFAULTS, PUBLIC_SETTING_KEYS } from '../settings/defaults';

const PlanSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  users: Type.Integer(),
  connections: Type.Integer(),
  queues: Type.Integer(),
  amount: Type.String(),
  isPublic: Type.Boolean(),
  ...Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, Type.Boolean()])),
  /** The loaded plugins' own flags (docs/plugin-authoring.md "The manifest"), each on or off. */
  pluginFlags: Type.Record(Type.String(), Type.Boolean()),
});

const PLAN_COLUMNS = ['id', 'name', 'users', 'connections', 'queues', 'amount', 'isPublic', ...PLAN_FLAGS, 'pluginFlags'];

const MenuEntrySchema = Type.Object({
  key: Type.String(),
  group: Type.String(),
  path: Type.String(),
  icon: Type.Optional(Type.String()),
  label: Type.Object({ pt: Type.String(), en: Type.String(), es: Type.String(), tr: Type.String() }),
  permission: Type.Optional(Type.String()),
  superOnly: Type.Optional(Type.Boolean()),
  order: Type.Optional(Type.Number()),
  badge: Type.Optional(Type.Boolean()),
});

/** Version, plans, the company's plan, public settings and the list of plugins a session may load. */
export function registerPlatformRoutes(app: FastifyInstance, core: CoreServices, plugins: () => LoadedPlugin[]): void {
  app.get(
    '/version',
    {
      schema: {
        tags: ['platform'],
        summary: 'Product version',
        errors: {},
        querystring: NoQuery,
        response: { 200: Type.Object({ version: Type.String() }) },
      },
      config: { access: 'public' },
    },
    async () => ({ version: PRODUCT_VERSION }),
  );

  app.get(
    '/plans/list',
    {
      schema: {
        tags: ['platform'],
        summary: 'Public plans (for signup)',
        errors: {},
        querystring: StrictObject({ listPublic: Type.Optional(Type.String({ maxLength: 10 })) }),
        response: { 200: Type.Array(PlanSchema) },
      },
      config: { access: 'public' },
    },
    async () => {
      const rows: Array<Record<string, unknown>> = await core
        .knex('plans')
        .where({ isPublic: true })
        .orderBy('amount')
        .select(PLAN_COLUMNS);
      return rows.map((plan) => ({ ...plan, pluginFlags: pluginFlagsOf(plan.pluginFlags, core.plans.pluginFlags()) }));
    },
  );

  app.get(
    '/companies/listPlan/:companyId',
    {
      schema: {
        tags: ['platform'],
        summary: "A company's plan with its use* flags (own company, or any for super users)",
        errors: { 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_COMPANY_FOUND'] },
        params: StrictObject({ companyId: Id }),
        querystring: NoQuery,
        response: {
          200: Type.Object({ id: Type.Integer(), name: Type.String(), planId: Type.Integer(), plan: PlanSchema }),
          ...errors(403, 404),
        },
      },
      config: { access: 'authenticated', fixtureParams: { companyId: 'company' } },
    },
    async (request) => {
      const { companyId } = request.params as { companyId: number };
      const session = request.session;
      if (!session || (session.companyId !== companyId && !session.super)) throw new AppError('ERR_NO_PERMISSION');
      const company = await core.knex('companies').where({ id: companyId }).first('id', 'name', 'planId');
      if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
      const plan = await core.knex('plans').where({ id: company.planId }).first(PLAN_COLUMNS);
      return { ...company, plan: { ...plan, pluginFlags: pluginFlagsOf(plan.pluginFlags, core.plans.pluginFlags()) } };
    },
  );

  app.get(
    '/public-settings/:key',
    {
      schema: {
        tags: ['platform'],
        summary: 'A platform setting readable without a session (whitelabel, signup switch)',
        errors: { 404: ['ERR_NO_SETTING_FOUND'] },
        params: StrictObject({ key: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: StrictObject({ token: Type.Optional(Type.String({ maxLength: 255 })) }),
        response: { 200: Type.String(), ...errors(404) },
      },
      config: { access: 'public' },
    },
    async (request, reply) => {
      const { key } = request.params as { key: string };
      if (!PUBLIC_SETTING_KEYS.includes(key)) throw new AppError('ERR_NO_SETTING_FOUND');
      const platform = await core.sessions.company(1);
      const value = platform?.settings[key] ?? PUBLIC_SETTING_DEFAULTS[key] ?? '';
      // a JSON string, like every other answer of the API (a bare string would go out as text/plain)
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(value));
    },
  );

  app.get(
    '/plugins',
    {
      schema: {
        tags: ['platform'],
        summary: "The plugins this session's company may load (only those its plan enables)",
        errors: {},
        querystring: NoQuery,
        response: {
          200: Type.Object({
            plugins: Type.Array(
              Type.Object({
                id: Type.String(),
                version: Type.String(),
                planFlag: Type.Union([Type.String(), Type.Null()]),
                remote: Type.Union([Type.String(), Type.Null()]),
                remoteName: Type.Union([Type.String(), Type.Null()]),
                menu: Type.Array(MenuEntrySchema),
                routes: Type.Array(Type.Object({ path: Type.String() })),
                slots: Type.Array(Type.String()),
              }),
            ),
          }),
        },
      },
      // an expired company's session loads the plugins too: the pay screen is a plugin's page
      config: { access: 'authenticated', allowExpired: true },
    },
    async (request) => {
      const company = request.auth?.company;
      if (!company) throw new AppError('ERR_UNAUTHENTICATED');
      const listed: PluginListing[] = [];
      for (const { discovered, definition, ctx } of plugins()) {
        const { manifest } = discovered;
        if (manifest.kind !== 'plugin') continue;
        if (definition.enabled && !definition.enabled(ctx)) continue;
        if (manifest.planFlag && !company.flags[manifest.planFlag]) continue;
        const hasRemote = manifest.ui !== undefined && existsSync(path.join(discovered.uiDist, 'mf-manifest.json'));
        listed.push({
          id: manifest.id,
          version: discovered.version,
          planFlag: manifest.planFlag ?? null,
          remote: hasRemote ? `/plugins/${manifest.id}/mf-manifest.json` : null,
          remoteName: hasRemote ? remoteContainerName(manifest.id) : null,
          menu: hasRemote ? (manifest.ui?.menu ?? []) : [],
          routes: hasRemote ? (manifest.ui?.routes ?? []) : [],
          slots: hasRemote ? (manifest.ui?.slots ?? []) : [],
        });
      }
      return { plugins: listed };
    },
  );
}

/**
 * Liveness and readiness, outside the API prefix (for orchestrators). A process draining before it stops
 * (`health.draining`) is not ready whatever its connections say: its balancer must stop sending to it.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  core: CoreServices,
  health: { draining: boolean } = { draining: false },
): void {
  app.get(
    '/healthz',
    {
      schema: { hide: true, querystring: NoQuery, response: { 200: Type.Object({ status: Type.String() }) } },
      config: { access: 'public' },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        hide: true,
        querystring: NoQuery,
        response: {
          200: Type.Object({ status: Type.String(), db: Type.String(), redis: Type.String() }),
          503: Type.Object({ status: Type.String(), db: Type.String(), redis: Type.String(), error: Type.String() }),
        },
      },
      config: { access: 'public' },
    },
    async (_request, reply) => {
      const check = async (probe: () => Promise<unknown>) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          const timeout = new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('timeout')), 2_000);
          });
          await Promise.race([probe(), timeout]);
          return 'ok';
        } catch {
          return 'down';
        } finally {
          clearTimeout(timer);
        }
      };
      const [db, redis] = await Promise.all([check(() => core.knex.raw('select 1')), check(() => core.redis.ping())]);
      if (health.draining) return reply.status(503).send({ status: 'draining', db, redis, error: 'ERR_SERVICE_UNAVAILABLE' });
      if (db === 'ok' && redis === 'ok') return { status: 'ok', db, redis };
      return reply.status(503).send({ status: 'down', db, redis, error: 'ERR_SERVICE_UNAVAILABLE' });
    },
  );
}
