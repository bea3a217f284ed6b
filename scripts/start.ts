/**
 * `npm start`: one command from a fresh clone to a running product. Builds what is missing (UI and the
 * server bundle), finds or starts PostgreSQL and Redis, then runs the bundled server, which migrates,
 * seeds the demo and serves UI and API on one port. Prints the URL and the demo logins. Ctrl-C stops
 * everything it started.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO_LOGINS, DEMO_PASSWORD, loadConfig, REPO_ROOT } from '@balcao/server';
import { startWebchatDemoPage } from '../plugins/channels/server/demo/demo-page';
import { startKanbanDemoPage } from '../plugins/kanban/server/demo/demo-page';
import { type MetaStandInDemo, startMetaStandInDemo } from '../plugins/meta/server/demo/stand-in-demo';
import { buildIfNeeded } from './lib/build';
import { ensurePostgres, ensureRedis, type StartedService } from './lib/services';

const log = (line: string) => console.log(`[balcão] ${line}`);
const dataDir = path.join(REPO_ROOT, '.data');
const started: StartedService[] = [];
let server: ChildProcess | null = null;
let metaDemo: MetaStandInDemo | null = null;

async function stopStarted(): Promise<void> {
  for (const service of started.reverse()) {
    try {
      await service.stop();
    } catch (error) {
      console.error(`could not stop ${service.name}: ${(error as Error).message}`);
    }
  }
  started.length = 0;
}

/** A JWT secret kept in .data so that sessions survive restarts of the demo. */
function localJwtSecret(): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('hex');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

const DESCRIPTIONS: Record<(typeof DEMO_LOGINS)[number]['key'], string> = {
  super: 'super user of the platform (company 1)',
  acmeAdmin: 'admin of Acme (plan with every feature)',
  acmeAgent: 'agent of Acme',
  liteAdmin: 'admin of Lite (plan with no feature flag)',
  liteAgent: 'agent of Lite',
};

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} (see above)`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not become ready within 2 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main(): Promise<void> {
  const began = Date.now();
  await buildIfNeeded(REPO_ROOT, log);
  const postgres = await ensurePostgres(dataDir, log);
  if (postgres.service) started.push(postgres.service);
  const redis = await ensureRedis(dataDir, log);
  if (redis.service) started.push(redis.service);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    JWT_SECRET: process.env.JWT_SECRET ?? localJwtSecret(),
    SEED_DEMO: 'true',
    // Acme's demo prompt answers through the AI plugin's local OpenAI-compatible stand-in (docs/ai.md "Demo")
    AI_DEMO_STANDIN_PORT: process.env.AI_DEMO_STANDIN_PORT ?? '8092',
  };
  // `--meta-stand-in`: the Meta channels against a local Graph stand-in (docs/meta.md "Trying it")
  if (process.argv.includes('--meta-stand-in')) {
    const planned = loadConfig(env);
    metaDemo = await startMetaStandInDemo({ appUrl: `http://127.0.0.1:${planned.port}`, apiPrefix: planned.apiPrefix });
    Object.assign(env, metaDemo.env);
    // the stand-in listens on loopback, which the guarded outbound client refuses unless allowed
    env.OUTBOUND_HTTP_ALLOW = [env.OUTBOUND_HTTP_ALLOW, '127.0.0.1/32'].filter(Boolean).join(',');
  }
  const config = loadConfig(env); // fails here, before spawning, with every configuration problem listed
  const child = spawn(process.execPath, [path.join(REPO_ROOT, '.build', 'server', 'main.mjs')], {
    cwd: REPO_ROOT,
    env,
    stdio: 'inherit',
  });
  server = child;
  const localUrl = `http://127.0.0.1:${config.port}`;
  await waitUntilReady(localUrl, child);

  const url = config.publicUrl;
  // a plain page of another origin that embeds Acme's kanban (plugins/kanban, docs/kanban.md)
  const kanbanDemo = await startKanbanDemoPage({ appUrl: url }).catch((error: Error) => {
    log(`the kanban demo page could not start: ${error.message}`);
    return null;
  });
  // a made-up shop of another origin with Acme's chat widget (plugins/channels, docs/channels.md "Webchat")
  const webchatDemo = await startWebchatDemoPage({ appUrl: url }).catch((error: Error) => {
    log(`the webchat demo page could not start: ${error.message}`);
    return null;
  });
  const width = Math.max(...DEMO_LOGINS.map((login) => login.email.length));
  console.log(
    [
      '',
      `  Balcão is running at ${url}  (ready in ${((Date.now() - began) / 1000).toFixed(1)} s)`,
      `  API docs: ${url}${config.apiPrefix}/docs`,
      ...(kanbanDemo ? [`  Embedded kanban demo (another origin): ${kanbanDemo.url}`] : []),
      ...(webchatDemo
        ? [`  Website chat demo (another origin): ${webchatDemo.url}  (inline mode and JS API: ${webchatDemo.url}/inline)`]
        : []),
      ...(metaDemo
        ? [
            `  Meta stand-in: play the customer at ${metaDemo.url}`,
            `    WhatsApp Cloud connection: phone number id ${metaDemo.whatsapp.phoneNumberId}, business account id ${metaDemo.whatsapp.businessAccountId},`,
            `      token ${metaDemo.whatsapp.token}`,
            `    Facebook + Instagram: Connections → add → Facebook or Instagram (the stand-in's login answers at once)`,
          ]
        : []),
      '',
      `  Demo logins (password ${DEMO_PASSWORD}):`,
      ...DEMO_LOGINS.map((login) => `    ${login.email.padEnd(width)}  ${DESCRIPTIONS[login.key]}`),
      '',
      '  Ctrl-C stops Balcão and every service it started.',
      '',
    ].join('\n'),
  );

  child.once('exit', async (code) => {
    if (stopping) return;
    log(`the server stopped (code ${code})`);
    await stopStarted();
    process.exit(code ?? 1);
  });
}

let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping…`);
  const timer = setTimeout(() => process.exit(1), 25_000);
  timer.unref();
  const child = server;
  if (child && child.exitCode === null) {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
  await metaDemo?.close().catch(() => {});
  await stopStarted();
  process.exit(0);
}
process.once('SIGINT', () => void stop('SIGINT'));
process.once('SIGTERM', () => void stop('SIGTERM'));

main().catch(async (error: Error) => {
  console.error(`\n[balcão] could not start: ${error.message}`);
  if (server && server.exitCode === null) server.kill('SIGTERM');
  await stopStarted();
  process.exit(1);
});
