import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { CORE_PERMISSION_TABLE, type PluginDefinition, type StorageService } from '@balcao/plugin-sdk/server';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import type { Knex } from 'knex';
import { registerApiKeyRoutes } from './auth/api-key-routes';
import { ApiKeyService } from './auth/api-keys';
import type { AuthService } from './auth/auth.service';
import { registerAuthRoutes } from './auth/auth-routes';
import { Authenticator } from './auth/authenticator';
import { redactUrl, registerPasswordResetRoutes } from './auth/password-reset';
import { LoginThrottle } from './auth/throttle';
import { TokenService } from './auth/tokens';
import { type AppConfig, loadFeatureConfigs, REPO_ROOT } from './config';
import { type CoreServices, createServiceRegistry } from './core-services';
import { bindModels, createKnex } from './db/knex';
import { type MigrationOwner, migrateAll } from './db/migrator';
import { EventBusImpl } from './events/bus';
import { installAccessHook } from './http/access-hook';
import { frameworkErrors, installErrorHandling } from './http/error-handler';
import { installForeignIdGuard } from './http/foreign-id-guard';
import { openapiOptions } from './http/openapi';
import { RouteRegistry } from './http/route-registry';
import { clientErrorHandler, installTransportGuards } from './http/transport-guards';
import { createSchemaCompilers, queryStringParser } from './http/validation';
import { FeatureBroadcast } from './infra/broadcast';
import { connectRedis, type RedisClient } from './infra/redis';
import { JobRunner, Scheduler } from './jobs/job-runner';
import { createMailer } from './mail/mailer';
import { installCoreMetrics } from './metrics/core-metrics';
import { ProcessMetrics } from './metrics/metrics';
import { registerMetricsRoute } from './metrics/metrics-routes';
import { registerHealthRoutes, registerPlatformRoutes } from './platform/platform-routes';
import { bundledRegistry } from './plugins/bundled-registry';
import { type DiscoveredPlugin, declaredPlanFlags, discoverPlugins } from './plugins/discover';
import { importDefinitions, type LoadedPlugin, mergePermissions, registerPlugins } from './plugins/loader';
import { RealtimeServer } from './realtime/realtime-server';
import { createSettingsService } from './settings/settings.service';
import { LocalDiskStorage } from './storage/local-disk';
import { registerMediaRoutes } from './storage/media-routes';
import { MediaSigner } from './storage/signed-media';
import { InvalidationBus } from './tenancy/invalidation';
import { createPlanService } from './tenancy/plan.service';
import { SessionStore } from './tenancy/session-store';
import { registerStaticFiles } from './web/static-files';

/** The core's own migrations folder. */
export const CORE_MIGRATIONS = path.join(REPO_ROOT, 'server', 'src', 'db', 'migrations');

export interface BuildOptions {
  /** Apply pending migrations before serving (default true). */
  migrate?: boolean;
  /** Features discovered ahead of time (default: discovered from config). */
  plugins?: DiscoveredPlugin[];
  /** Features' validated variables by feature id (default: read from process.env by `loadFeatureConfigs`). */
  featureConfigs?: Map<string, Record<string, unknown>>;
}

/** A built application: the Fastify instance, the core's services, the loaded features and the route table. */
export interface BalcaoApp {
  app: FastifyInstance;
  core: CoreServices;
  plugins: LoadedPlugin[];
  routes: RouteRegistry;
  auth: AuthService;
  /**
   * Compiles every route schema no request has needed yet (they compile at their route's first request,
   * `SchemaCompilers`); returns how many. Tests call it so that a broken schema fails there.
   */
  compileSchemas(): number;
  /**
   * Starts a stop's drain: `/readyz` answers 503 from now on while everything else still serves, so that
   * a load balancer's health check takes the process out before `close` refuses connections.
   */
  drain(): void;
  /** Shuts down in order: stop taking work, finish what runs, close connections. */
  close(): Promise<void>;
}

/** The migration owners in load order: the core first, then every feature with migrations. */
export function migrationOwners(plugins: DiscoveredPlugin[]): MigrationOwner[] {
  const bundled = bundledRegistry();
  return [
    { id: 'core', directory: CORE_MIGRATIONS, ...(bundled ? { modules: bundled.coreMigrations } : {}) },
    ...plugins.map((p) => ({
      id: p.manifest.id,
      directory: p.migrationsDir,
      ...(p.bundled ? { modules: p.bundled.migrations } : {}),
    })),
  ];
}

async function checkDatabase(knex: Knex, url: string): Promise<void> {
  try {
    await knex.raw('select 1');
  } catch (error) {
    const safeUrl = url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
    throw new Error(`Cannot reach PostgreSQL at ${safeUrl}: ${(error as Error).message}`);
  }
}

/**
 * Builds the whole application for a configuration: connects Postgres and Redis, migrates, loads every
 * feature and wires routes, sockets and jobs. Used by the process entry and by tests (`createTestApp`).
 */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<BalcaoApp> {
  const schemas = createSchemaCompilers();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: {
        req: (req: { method: string; url: string; id: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
          reqId: req.id,
        }),
      },
    },
    trustProxy: config.trustProxy,
    genReqId: () => randomUUID(),
    bodyLimit: 1_048_576,
    routerOptions: { maxParamLength: 500, querystringParser: queryStringParser },
    frameworkErrors,
    clientErrorHandler,
    ajv: { customOptions: {} },
    schemaController: { compilersFactory: { buildSerializer: schemas.buildSerializer } },
  });
  app.setValidatorCompiler(schemas.validatorCompiler as Parameters<FastifyInstance['setValidatorCompiler']>[0]);
  const log = app.log;

  const knex = createKnex(config.databaseUrl);
  bindModels(knex);
  const redisClients: RedisClient[] = [];
  const closeConnections = async () => {
    await Promise.all(redisClients.map((client) => client.quit().catch(() => client.destroy())));
    await knex.destroy();
  };

  try {
    await checkDatabase(knex, config.databaseUrl);
    const [redis, subscriber, adapterPub] = await Promise.all([
      connectRedis(config.redisUrl, 'balcao-main'),
      connectRedis(config.redisUrl, 'balcao-sub'),
      connectRedis(config.redisUrl, 'balcao-adapter-pub'),
    ]).catch((error: Error) => {
      throw new Error(`Cannot reach Redis at ${config.redisUrl}: ${error.message}`);
    });
    redisClients.push(redis, subscriber, adapterPub);

    const discovered = options.plugins ?? discoverPlugins(config.extraPlugins);
    const definitions = await importDefinitions(discovered);
    // a feature's bad variable stops the start before any migration runs
    const featureConfigs = options.featureConfigs ?? loadFeatureConfigs(definitions.map(({ definition }) => definition));
    if ((options.migrate ?? config.migrateOnStart) !== false) await migrateAll(knex, migrationOwners(discovered));

    const invalidation = new InvalidationBus(redis, subscriber, config.redisPrefix);
    const pluginFlags = declaredPlanFlags(discovered);
    const sessions = new SessionStore(
      knex,
      invalidation,
      undefined,
      pluginFlags.map((flag) => flag.key),
    );
    const tokens = new TokenService(config.jwtSecret, config.accessTokenTtlSeconds);
    const authenticator = new Authenticator(tokens, sessions, invalidation);
    const events = new EventBusImpl(log);
    const plans = createPlanService(sessions, pluginFlags);
    const isWorker = config.role !== 'web';
    const mediaSigner = new MediaSigner(config.jwtSecret);
    const metrics = config.metricsToken ? new ProcessMetrics(config.role) : null;
    const core: CoreServices = {
      config,
      log,
      knex,
      redis,
      invalidation,
      broadcast: new FeatureBroadcast(redis, subscriber, config.redisPrefix),
      sessions,
      tokens,
      authenticator,
      apiKeys: new ApiKeyService(knex, sessions, invalidation),
      throttle: new LoginThrottle(
        redis,
        config.redisPrefix,
        config.loginMaxPerIp,
        config.loginMaxFailuresPerAccount,
        config.loginWindowSeconds,
      ),
      realtime: new RealtimeServer(authenticator, knex, log, adapterPub, subscriber, config.redisPrefix, invalidation),
      jobs: new JobRunner({
        redisUrl: config.redisUrl,
        prefix: config.redisPrefix,
        isWorker,
        log,
        hasFlag: (companyId, flag) => plans.has(companyId, flag),
        ...(metrics
          ? {
              onFinished: (queue: string, job: string, outcome: 'completed' | 'failed') =>
                metrics.jobFinished(queue, job, outcome),
            }
          : {}),
      }),
      scheduler: new Scheduler(redis, config.redisPrefix, log),
      events,
      settings: createSettingsService(knex, sessions, events),
      storage: await createStorage(config, mediaSigner),
      mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: config.mailOutboxDir, log }),
      plans,
      services: createServiceRegistry(),
      permissions: { ...CORE_PERMISSION_TABLE },
      metrics,
    };
    mergePermissions(core, definitions);
    if (metrics) installCoreMetrics(app, metrics, core);

    const routes = new RouteRegistry();
    routes.install(app);
    await app.register(fastifySwagger, openapiOptions({ apiPrefix: config.apiPrefix, features: discovered, routes }));
    installErrorHandling(app);
    installTransportGuards(app);
    installAccessHook(app, authenticator, () => core.permissions, core.apiKeys);
    installForeignIdGuard(app, knex);
    await app.register(fastifyCookie);
    await app.register(fastifyMultipart, { limits: { fileSize: 2 * 1024 * 1024 * 1024, files: 20, fields: 50 } });

    let loaded: LoadedPlugin[] = [];
    let auth: AuthService | undefined;
    await app.register(
      async (api) => {
        auth = registerAuthRoutes(api, core);
        registerPasswordResetRoutes(api, core, auth);
        registerApiKeyRoutes(api, core.apiKeys);
        registerPlatformRoutes(api, core, () => loaded);
        registerMediaRoutes(api, core.storage, mediaSigner);
      },
      { prefix: config.apiPrefix },
    );
    loaded = await registerPlugins(app, core, definitions, { isWorker, featureConfigs });
    const health = { draining: false };
    registerHealthRoutes(app, core, health);
    registerMetricsRoute(app, metrics, config.metricsToken);
    await app.register(async (docs) => {
      docs.addHook('onRoute', (route: RouteOptions) => {
        route.config = { ...(route.config ?? {}), access: 'public', infra: true } as RouteOptions['config'];
      });
      // Swagger UI ships its assets in the package (no CDN); folded by feature, filterable, linkable
      await docs.register(fastifySwaggerUi, {
        routePrefix: `${config.apiPrefix}/docs`,
        uiConfig: {
          docExpansion: 'none',
          deepLinking: true,
          filter: true,
          tagsSorter: 'alpha',
          displayRequestDuration: true,
          persistAuthorization: true,
          defaultModelsExpandDepth: 0,
        },
      });
    });
    await registerStaticFiles(app, { hostDist: config.hostDist, apiPrefix: config.apiPrefix, plugins: loaded });

    await app.ready();
    core.realtime.attach(app.server);
    core.realtime.listenForBroadcasts();
    await Promise.all([invalidation.start(), authenticator.loadRevoked(knex), core.jobs.start()]);

    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await core.scheduler.close();
      await core.realtime.close().catch(() => {});
      await app.close();
      await core.jobs.close();
      for (const plugin of loaded) {
        await plugin.definition.close?.(plugin.ctx).catch((error: unknown) => {
          app.log.error({ err: error, plugin: plugin.definition.id }, 'plugin close failed');
        });
      }
      await closeConnections();
      (core.storage as StorageService & { close?(): void }).close?.();
    };
    if (!auth) throw new Error('auth routes did not register');
    const drain = () => {
      health.draining = true;
    };
    return { app, core, plugins: loaded, routes, auth, compileSchemas: schemas.compilePending, drain, close };
  } catch (error) {
    await app.close().catch(() => {});
    await closeConnections().catch(() => {});
    throw error;
  }
}

export type { PluginDefinition };

/** The configured file store: the disk (`STORAGE_DIR`) or an S3-compatible bucket (`STORAGE_DRIVER=s3`). */
async function createStorage(config: AppConfig, signer: MediaSigner): Promise<StorageService> {
  if (config.storageDriver === 's3') {
    // loaded only when configured: the AWS SDK is ~1 MB of code a disk-backed process never runs
    const { S3Storage } = await import('./storage/s3');
    return new S3Storage(
      {
        endpoint: config.s3Endpoint,
        bucket: config.s3Bucket ?? '',
        region: config.s3Region,
        accessKeyId: config.s3AccessKeyId ?? '',
        secretAccessKey: config.s3SecretAccessKey ?? '',
        forcePathStyle: config.s3ForcePathStyle,
      },
      signer,
      config.apiPrefix,
    );
  }
  return new LocalDiskStorage(config.storageDir, signer, config.apiPrefix);
}
