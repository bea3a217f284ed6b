/**
 * The test kit: a real Balcão app on a throwaway Postgres database and its own Redis key space, with the
 * demo seeded and helpers to log in and call the API. Nothing is mocked.
 *
 * @example
 * const t = await createTestApp();
 * const admin = await t.login('admin@acme.test');
 * const res = await t.inject({ method: 'GET', url: '/api/auth/me', token: admin.token });
 * await t.close();
 * @packageDocumentation
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  type AppConfig,
  type BalcaoApp,
  buildApp,
  createKnex,
  DEMO_PASSWORD,
  type DemoIds,
  discoverPlugins,
  loadConfig,
  migrateAll,
  migrationOwners,
  seedDemo,
} from '@balcao/server';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Knex } from 'knex';
import { createClient } from 'redis';
import { bindModelKnex, boundModelKnex } from '../server/tenancy';
import type { SessionUser } from '../shared/session';
import { cloneDatabase, databaseUrl, dropDatabase, ensureTemplate, migrationsFingerprint } from './database';

/** The settings a new company starts with (tests that insert companies themselves give them these). */
export { DEFAULT_COMPANY_SETTINGS } from '@balcao/server';
export { dropStaleDatabases } from './database';
export * from './fixtures';
export { S3StandIn, type SeenS3Request, type StoredS3Object } from './s3-stand-in';
export { companySocket, connectSocket, nextEvent, recordEvents } from './sockets';
export * from './walkers';

/** Options of `createTestApp`. */
export interface TestAppOptions {
  /**
   * Extra plugins to load, as `BALCAO_PLUGINS` names them: folders (test fixtures, a third-party plugin
   * under test) or names of installed packages. The repository's own features are always loaded.
   */
  plugins?: string[];
  /** Configuration overrides. */
  config?: Partial<AppConfig>;
  /** Seed the demo companies and logins (default true). */
  seed?: boolean;
  /**
   * Also seed every feature's demo data (the lived-in inbox of `npm start`); default false, so a test sees
   * only the rows it makes.
   */
  demoData?: boolean;
}

/** A logged-in session: the access token, the session user and the refresh cookie. */
export interface TestSession {
  token: string;
  user: SessionUser;
  /** The `jrt=…` cookie pair, to send back on `/auth/refresh_token`. */
  cookie: string;
}

/** Inject options plus an optional bearer token. */
export type TestInject = InjectOptions & { token?: string };

/** A running test app. */
export interface TestApp {
  balcao: BalcaoApp;
  config: AppConfig;
  demo: DemoIds;
  databaseName: string;
  /** Logs in (demo password by default). */
  login(email: string, password?: string): Promise<TestSession>;
  /** Calls the API in-process (no socket), with `token` as bearer when given. */
  inject(options: TestInject): Promise<LightMyRequestResponse>;
  /** Listens on a random loopback port (for sockets and browsers); returns the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

let templatePromise: Promise<string> | null = null;

/**
 * The apps of this test process that are still open. Objection's models are bound to one knex for the
 * whole process (the last app built); a test that runs two apps on one database and Redis prefix (two
 * "processes") must find, after closing one, the models bound to the other and its Redis keys intact.
 */
const openApps: Array<{ knex: Knex; redisPrefix: string }> = [];

/** Migrations of the core and every feature in the repository, applied once into a template database. */
function template(): Promise<string> {
  templatePromise ??= (async () => {
    const plugins = discoverPlugins([]);
    const owners = migrationOwners(plugins);
    const fingerprint = migrationsFingerprint(owners.map((owner) => owner.directory));
    return ensureTemplate(fingerprint, async (url) => {
      const knex = createKnex(url, 2);
      try {
        await migrateAll(knex, owners);
      } finally {
        await knex.destroy();
      }
    });
  })();
  return templatePromise;
}

/**
 * A throwaway database with the repository's migrations applied, for a test that runs a server process
 * of its own (the production bundle); `drop()` removes it. Plugins outside the repository migrate theirs
 * when the server starts.
 */
export async function createTestDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = await cloneDatabase(await template());
  return { name, url: databaseUrl(name), drop: () => dropDatabase(name) };
}

/** Deletes every Redis key of a test's private prefix (its jobs, caches, throttling counters). */
export async function deleteRedisKeys(redisUrl: string, redisPrefix: string): Promise<void> {
  const redis = createClient({ url: redisUrl });
  redis.on('error', () => {});
  await redis.connect();
  try {
    const keys: string[] = [];
    for await (const batch of redis.scanIterator({ MATCH: `${redisPrefix}:*`, COUNT: 500 })) keys.push(...batch);
    if (keys.length > 0) await redis.del(keys);
  } finally {
    await redis.quit();
  }
}

/** Builds a test app: a fresh database cloned from the migrated template, a private Redis prefix. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const databaseName = await cloneDatabase(await template());
  const redisPrefix = `bt${randomBytes(5).toString('hex')}`;
  const config = loadConfig(
    { ...process.env, NODE_ENV: 'test' },
    {
      databaseUrl: databaseUrl(databaseName),
      redisPrefix,
      logLevel: (process.env.TEST_LOG_LEVEL as AppConfig['logLevel'] | undefined) ?? 'silent',
      passwordHashCost: 1024,
      loginMaxPerIp: 100_000,
      storageDir: path.join(process.env.TMPDIR ?? '/tmp', 'balcao-test-storage', redisPrefix),
      extraPlugins: options.plugins ?? [],
      port: 0,
      host: '127.0.0.1',
      ...options.config,
    },
  );
  let balcao: BalcaoApp;
  try {
    balcao = await buildApp(config);
  } catch (error) {
    await dropDatabase(databaseName).catch(() => {});
    throw error;
  }
  const demo =
    options.seed === false
      ? ({ companies: {}, users: {} } as DemoIds)
      : await seedDemo(balcao.core.knex, {
          passwordHashCost: config.passwordHashCost,
          plugins: balcao.plugins,
          featureData: options.demoData ?? false,
        });

  const opened = { knex: balcao.core.knex, redisPrefix: config.redisPrefix };
  openApps.push(opened);

  const inject = (request: TestInject) => {
    const { token, ...rest } = request;
    return balcao.app.inject({
      ...rest,
      headers: { ...(rest.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  };

  return {
    balcao,
    config,
    demo,
    databaseName,
    inject,
    async login(email, password = DEMO_PASSWORD) {
      const response = await inject({ method: 'POST', url: `${config.apiPrefix}/auth/login`, payload: { email, password } });
      if (response.statusCode !== 200) throw new Error(`login of ${email} failed: ${response.statusCode} ${response.body}`);
      const body = response.json() as { token: string; user: SessionUser };
      const setCookie = String(response.headers['set-cookie'] ?? '');
      return { token: body.token, user: body.user, cookie: setCookie.split(';')[0] ?? '' };
    },
    async listen() {
      const address = await balcao.app.listen({ host: '127.0.0.1', port: 0 });
      return address;
    },
    async close() {
      const index = openApps.indexOf(opened);
      if (index >= 0) openApps.splice(index, 1);
      await balcao.close();
      const survivor = openApps.at(-1);
      if (survivor && boundModelKnex() === balcao.core.knex) bindModelKnex(survivor.knex);
      await dropDatabase(databaseName).catch(() => {});
      // another open app on the same Redis prefix still needs its jobs and caches
      if (openApps.some((app) => app.redisPrefix === config.redisPrefix)) return;
      await deleteRedisKeys(config.redisUrl, redisPrefix);
    },
  };
}
