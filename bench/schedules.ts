/**
 * `npm run bench -- schedules`: the schedules' target (issue 26) on the server bundle, against the bench
 * database, through the SDK's loopback channel (`@balcao/plugin-sdk/testing/loopback`) and its provider stand-in in this
 * process: N schedules (BENCH_SCHEDULES, default the issue's 10,000) due in the same minute, sent by two
 * worker processes — all of them within that minute, none twice (counted at the provider and in SQL).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { LOOPBACK_PLUGIN, LOOPBACK_URL_VARIABLE, startLoopbackProvider } from '@balcao/plugin-sdk/testing/loopback';
import { REPO_ROOT } from '@balcao/server';
import {
  BENCH_REDIS_PREFIX,
  benchDatabaseUrl,
  CpuWindow,
  processCpuSeconds,
  reportTo,
  type SectionOptions,
  startServer,
  withBenchDb,
} from './lib';

const COUNT = Number(process.env.BENCH_SCHEDULES ?? 10_000);
const GROUP = 'schedules';
/** The bench's contacts: numbers of their own, so the other benches' contacts stay apart. */
const NUMBER_PREFIX = '55319';

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  stop(): Promise<void>;
}

function startWorker(env: Record<string, string>): Worker {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, '.build', 'server', 'main.mjs')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      JWT_SECRET: 'bench-secret-'.padEnd(48, 'x'),
      FLOWBUILDER_SECRETS_KEY: '0123456789abcdef'.repeat(4),
      WEBHOOKS_SECRETS_KEY: 'fedcba9876543210'.repeat(4),
      AI_SECRETS_KEY: 'fedcba9876543210'.repeat(4),
      DATABASE_URL: benchDatabaseUrl(),
      REDIS_PREFIX: BENCH_REDIS_PREFIX,
      LOG_LEVEL: 'info',
      ROLE: 'worker',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen = (seen + chunk.toString('utf8')).slice(-4_000);
      if (seen.includes('Balcão ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before ready`)));
  });
  return {
    child,
    ready,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Acme's loopback connection and `COUNT` contacts of the bench, with no schedule yet. */
async function prepare(): Promise<{ companyId: number; whatsappId: number }> {
  return withBenchDb(async (db) => {
    const companyId = ((await db.query(`SELECT id FROM companies WHERE name = 'Acme'`)).rows[0] as { id: number }).id;
    await db.query('DELETE FROM schedules WHERE company_id = $1', [companyId]);
    const found = await db.query(`SELECT id FROM whatsapps WHERE company_id = $1 AND channel = 'loopback'`, [companyId]);
    const whatsappId =
      (found.rows[0] as { id: number } | undefined)?.id ??
      (
        (
          await db.query(
            `INSERT INTO whatsapps (company_id, name, channel, status, token) VALUES ($1, 'Bench loopback', 'loopback', 'CONNECTED', 'bench-sched-loopback') RETURNING id`,
            [companyId],
          )
        ).rows[0] as { id: number }
      ).id;
    await db.query(
      `INSERT INTO contacts (company_id, name, number, channel, whatsapp_id)
       SELECT $1, 'Agenda ' || i, $2 || lpad(i::text, 8, '0'), 'whatsapp', $3 FROM generate_series(1, $4) AS i
       ON CONFLICT (company_id, number) WHERE number IS NOT NULL DO NOTHING`,
      [companyId, NUMBER_PREFIX, whatsappId, COUNT],
    );
    return { companyId, whatsappId };
  });
}

/** `COUNT` schedules, one per bench contact, all due at `at`. */
async function schedule(companyId: number, whatsappId: number, at: Date): Promise<void> {
  await withBenchDb((db) =>
    db.query(
      `INSERT INTO schedules (company_id, body, send_at, due_at, contact_id, whatsapp_id, status)
       SELECT $1, 'Lembrete do bench', $2, $2, c.id, $3, 'PENDENTE' FROM contacts c
       WHERE c.company_id = $1 AND c.number LIKE $4 ORDER BY c.id LIMIT $5`,
      [companyId, at, whatsappId, `${NUMBER_PREFIX}%`, COUNT],
    ),
  );
}

/** Messages per bench contact sent since `since` by the schedules: none missing, none twice. */
async function countInSql(companyId: number, since: Date): Promise<{ lost: number; doubled: number; notSent: number }> {
  return withBenchDb(async (db) => {
    const per = (
      await db.query(
        `WITH per AS (
           SELECT c.id, count(m.id) AS n FROM contacts c
           LEFT JOIN messages m ON m.company_id = c.company_id AND m.contact_id = c.id AND m.from_me AND m.created_at >= $3
           WHERE c.company_id = $1 AND c.number LIKE $2 GROUP BY c.id)
         SELECT count(*) FILTER (WHERE n = 0)::int AS lost, count(*) FILTER (WHERE n > 1)::int AS doubled FROM per`,
        [companyId, `${NUMBER_PREFIX}%`, since],
      )
    ).rows[0] as { lost: number; doubled: number };
    const left = (
      await db.query(`SELECT count(*)::int AS n FROM schedules WHERE company_id = $1 AND status <> 'ENVIADA'`, [companyId])
    ).rows[0] as { n: number };
    return { ...per, notSent: left.n };
  });
}

export async function schedulesBenchmarks(options: SectionOptions): Promise<void> {
  const push = reportTo(options);
  const log = options.log ?? console.log;
  const provider = await startLoopbackProvider();
  const env = {
    BALCAO_PLUGINS: LOOPBACK_PLUGIN,
    [LOOPBACK_URL_VARIABLE]: provider.url,
    // the bench database may hold other benches' WhatsApp connections: their sessions stay on loopback
    WHATSAPP_VERSION: '2,3000,1023223821',
    WHATSAPP_WS_URL: 'ws://127.0.0.1:9/ws/chat',
    // the campaigns' loops have nothing to do here
    CAMPAIGN_DISPATCHER: 'off',
  };
  log(`schedules: ${COUNT.toLocaleString('en-US')} contacts…`);
  const setup = await prepare();
  const server = await startServer(options.port, { ...env, ROLE: 'web' });
  const workers = [startWorker(env), startWorker(env)];
  try {
    await Promise.all(workers.map((worker) => worker.ready));
    // all due at the start of the next minute (at least 5 s ahead, so the rows are in before it)
    const due = new Date(Math.ceil((Date.now() + 5_000) / 60_000) * 60_000);
    await schedule(setup.companyId, setup.whatsappId, due);
    log(`schedules: ${COUNT.toLocaleString('en-US')} due at ${due.toISOString()}…`);
    const [first, second] = workers.map((worker) => worker.child.pid ?? 0) as [number, number];
    while (Date.now() < due.getTime()) await new Promise((resolve) => setTimeout(resolve, 50));
    const secondBefore = processCpuSeconds(second);
    const cpu = CpuWindow.start(first);
    const deadline = due.getTime() + 10 * 60_000;
    while (provider.messages.length < COUNT && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const use = cpu.end();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const lastAt = provider.messages.at(-1)?.at ?? Date.now();
    const seconds = (lastAt - due.getTime()) / 1000;
    const perRecipient = provider.perRecipient();
    const providerDoubled = [...perRecipient.values()].filter((n) => n > 1).length;
    const providerLost = COUNT - perRecipient.size;
    const sql = await countInSql(setup.companyId, due);
    const workersCpu = use.server + processCpuSeconds(second) - secondBefore;
    const others = Math.max(0, use.machineBusy - workersCpu - use.postgres - use.bench);
    const perMessage = (value: number) => ((value * 1000) / COUNT).toFixed(2);
    push({
      group: GROUP,
      name: `${COUNT.toLocaleString('en-US')} schedules due in the same minute, two worker processes: due time to the last message at the provider`,
      target: '≤ 60 s, none twice',
      value: `${seconds.toFixed(1)} s; provider: ${providerLost} lost, ${providerDoubled} doubled; SQL: ${sql.lost} lost, ${sql.doubled} doubled`,
      ok:
        seconds <= 60 && providerLost === 0 && providerDoubled === 0 && sql.lost === 0 && sql.doubled === 0 && sql.notSent === 0,
      detail:
        `${Math.round(COUNT / Math.max(0.001, seconds)).toLocaleString('en-US')} messages/s; ${provider.repeats} repeated sends; schedules not ENVIADA: ${sql.notSent}; ` +
        `CPU per message: workers ${perMessage(workersCpu)} ms + Postgres ${perMessage(use.postgres)} ms + provider ${perMessage(use.bench)} ms; ` +
        `other processes used ${(others / use.seconds).toFixed(2)} of ${os.cpus().length} cores meanwhile`,
    });
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
    await server.stop();
    await provider.close();
  }
}
