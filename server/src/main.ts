/**
 * The process entry: `ROLE=web|worker|all` (default all). Reads the environment, builds the app,
 * listens (web roles) and shuts down cleanly on SIGINT/SIGTERM.
 */
import { buildApp, migrationOwners } from './app';
import { type AppConfig, ConfigError, loadConfig, loadFeatureConfigs } from './config';
import { createKnex } from './db/knex';
import { migrateAll } from './db/migrator';
import { settleHeapAfterStartup } from './infra/heap-settle';
import { listenWorkerHttp } from './platform/worker-http';
import { discoverPlugins } from './plugins/discover';
import { importDefinitions } from './plugins/loader';
import { seedDemo } from './seed/demo';

/** BALCAO_PLUGINS as a list, for finding the features when the core's own configuration is invalid. */
function pluginList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

async function main(): Promise<void> {
  // the core's variables and every feature's are checked together: one report names all that is wrong
  const problems: string[] = [];
  let config: AppConfig | undefined;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  const discovered = discoverPlugins(config?.extraPlugins ?? pluginList(process.env.BALCAO_PLUGINS));
  const definitions = await importDefinitions(discovered);
  let featureConfigs: Map<string, Record<string, unknown>> | undefined;
  try {
    featureConfigs = loadFeatureConfigs(definitions.map(({ definition }) => definition));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  if (!config || !featureConfigs || problems.length > 0) {
    console.error(new ConfigError(problems).message);
    process.exit(78); // EX_CONFIG
  }
  // `node main.mjs migrate`: the release step of a deployment (a one-off container, a Helm hook) applies
  // pending migrations and exits, so the serving processes can start with MIGRATE_ON_START=false
  if (process.argv[2] === 'migrate') {
    const knex = createKnex(config.databaseUrl, 2);
    try {
      const applied = await migrateAll(knex, migrationOwners(discovered));
      console.log(applied.length === 0 ? 'Nothing to migrate.' : `Applied:\n${applied.map((name) => `  ${name}`).join('\n')}`);
    } finally {
      await knex.destroy();
    }
    return;
  }
  const balcao = await buildApp(config, { plugins: discovered, featureConfigs });
  // `npm start` asks the server to seed the demo (features seed through their own contexts)
  if (process.env.SEED_DEMO === 'true') {
    await seedDemo(balcao.core.knex, { passwordHashCost: config.passwordHashCost, plugins: balcao.plugins });
  }
  if (config.role !== 'worker') await balcao.app.listen({ host: config.host, port: config.port });
  // a worker answers its probes and the scraper on a port of its own, and nothing else
  const workerHttp =
    config.role === 'worker' && config.workerPort !== null
      ? await listenWorkerHttp(balcao.app, config.host, config.workerPort)
      : null;
  balcao.app.log.info({ role: config.role, plugins: balcao.plugins.map((p) => p.discovered.manifest.id) }, 'Balcão ready');
  // what starting allocated and won't use again is given back (infra/heap-settle.ts)
  const cancelHeapSettle = settleHeapAfterStartup();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    cancelHeapSettle();
    balcao.app.log.info({ signal }, 'stopping');
    // a web process behind a balancer first stops being ready and serves on until the balancer's health
    // check has taken it out: closing at once would refuse or reset the requests already on their way
    if (config.role === 'web' && config.shutdownDrainMs > 0) {
      balcao.drain();
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
    }
    const timer = setTimeout(() => process.exit(1), 15_000);
    timer.unref();
    workerHttp?.close();
    await balcao.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: Error) => {
  // the message says what to fix (a database that doesn't answer, a plugin's manifest); the stack is for
  // what nobody foresaw
  console.error(process.env.NODE_ENV === 'production' ? error.message : (error.stack ?? error.message));
  process.exit(1);
});
