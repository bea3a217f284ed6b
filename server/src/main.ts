/**
 * The process entry: `ROLE=web|worker|all` (default all). Reads the environment, builds the app,
 * listens (web roles) and shuts down cleanly on SIGINT/SIGTERM.
 */
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { settleHeapAfterStartup } from './infra/heap-settle';
import { seedDemo } from './seed/demo';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const balcao = await buildApp(config);
  // `npm start` asks the server to seed the demo (features seed through their own contexts)
  if (process.env.SEED_DEMO === 'true') {
    await seedDemo(balcao.core.knex, { passwordHashCost: config.passwordHashCost, plugins: balcao.plugins });
  }
  if (config.role !== 'worker') await balcao.app.listen({ host: config.host, port: config.port });
  balcao.app.log.info({ role: config.role, plugins: balcao.plugins.map((p) => p.discovered.manifest.id) }, 'Balcão ready');
  // what starting allocated and won't use again is given back (infra/heap-settle.ts)
  const cancelHeapSettle = settleHeapAfterStartup();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    cancelHeapSettle();
    balcao.app.log.info({ signal }, 'stopping');
    const timer = setTimeout(() => process.exit(1), 15_000);
    timer.unref();
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
