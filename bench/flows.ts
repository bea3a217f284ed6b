/**
 * `npm run bench -- flows`: the flow runtime's targets (issue 23), on the server bundle (ROLE all: the flow
 * jobs share the process and the machine's cores with the receive path) and the loopback channel (its sends
 * go to a provider stand-in in this process).
 *
 * (a) Inbound receive with and without a flow: BENCH_FLOWS_RATE messages a second (default 200) through
 * `inbox.receive` (bench/fixtures/loopback-channel's `POST /api/bench/inbound`) for BENCH_FLOWS_SECONDS, first
 * on a connection with no flow, then on one whose tickets are each in a flow waiting at a question — every
 * message answers it and moves the run on (the answer is echoed, the question asked again). The figure is
 * what the flow adds to the receive's p99 (the `message.received` hook's query and enqueue; the turns run
 * as jobs), with how far the turns kept up.
 *
 * (b) 1,000 tickets in flows waiting on an interval node due in the same second: the runs and their
 * delayed `flow-due` job are written as the runtime writes them when a run reaches an interval (the
 * `flowRuns` row waiting with its `dueAt`; the company's job of that quarter second, which claims the due
 * runs in batches); the figure is due time → the last run resumed (moved past the interval, its next
 * message sent and the run done).
 */
import os from 'node:os';
import path from 'node:path';
import { LOOPBACK_PLUGIN, LOOPBACK_URL_VARIABLE, startLoopbackProvider } from '@balcao/plugin-sdk/testing/loopback';
import { REPO_ROOT } from '@balcao/server';
import BeeQueue from 'bee-queue';
import {
  BENCH_REDIS_PREFIX,
  CpuWindow,
  login,
  ms,
  paceInbound,
  percentile,
  reportTo,
  type SectionOptions,
  startServer,
  withBenchDb,
} from './lib';

const INBOUND_PLUGIN = path.join(REPO_ROOT, 'bench', 'fixtures', 'loopback-channel');
const RATE = Number(process.env.BENCH_FLOWS_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_FLOWS_SECONDS ?? 10);
/** Customers writing in (a): each writes RATE / CONTACTS messages a second. */
const CONTACTS = 200;
/** Which parts run: `receive`, `intervals` (both by default; one alone when the other's backlog would skew it). */
const PARTS = (process.env.BENCH_FLOWS_PARTS ?? 'receive,intervals').split(',');
/** Runs waiting on an interval in (b). */
const INTERVAL_RUNS = 1_000;
const GROUP = 'flows';
const at = { x: 0, y: 0 };

/** Acme's loopback connection named `name` (made on the first run), its open tickets closed: new ones start flows. */
async function connection(companyId: number, name: string, key: string): Promise<number> {
  return withBenchDb(async (db) => {
    const found = (await db.query(`SELECT id FROM whatsapps WHERE company_id = $1 AND name = $2`, [companyId, name])).rows[0] as
      | { id: number }
      | undefined;
    const id =
      found?.id ??
      (
        (
          await db.query(
            `INSERT INTO whatsapps (company_id, name, channel, status, token) VALUES ($1, $2, 'loopback', 'CONNECTED', $3) RETURNING id`,
            [companyId, name, `bench-flows-${key}`],
          )
        ).rows[0] as { id: number }
      ).id;
    await db.query(`UPDATE tickets SET status = 'closed' WHERE company_id = $1 AND whatsapp_id = $2 AND status <> 'closed'`, [
      companyId,
      id,
    ]);
    await db.query(`UPDATE whatsapps SET flow_id_welcome = NULL, flow_id_not_phrase = NULL WHERE id = $1`, [id]);
    return id;
  });
}

interface Api {
  // biome-ignore lint/suspicious/noExplicitAny: the bench reads answers of several shapes
  call(method: string, url: string, body?: unknown): Promise<any>;
}

function api(url: string, token: string): Api {
  return {
    async call(method, route, body) {
      const res = await fetch(`${url}/api${route}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${text}`);
      return text === '' ? null : JSON.parse(text);
    },
  };
}

async function saveFlow(client: Api, name: string, nodes: unknown[], connections: unknown[]): Promise<number> {
  const created = await client.call('POST', '/flowbuilder', { name });
  await client.call('POST', '/flowbuilder/flow', { idFlow: created.id, nodes, connections });
  return created.id as number;
}

/** Sends RATE messages a second for `seconds` (a batch every 50 ms) from CONTACTS customers; answers every receive's duration. */
async function receiveAt(url: string, token: string, whatsappId: number, seconds: number, tag: string, contactTag: string) {
  return paceInbound({
    url,
    token,
    whatsappId,
    rate: RATE,
    seconds,
    message: (sequence, tick, index) => {
      const n = sequence % CONTACTS;
      return {
        id: `fl-${tag}-${tick}-${index}`,
        identifier: `bench-flows-${contactTag}-${n}`,
        name: `Cliente Fluxo ${n}`,
        number: `5500666${contactTag === 'flow' ? 1 : 2}${String(n).padStart(4, '0')}`,
        body: `Resposta ${tick}-${index}`,
      };
    },
  });
}

/**
 * The bench database runs with autovacuum off: a live database's autovacuum would have analysed the tables
 * a warm-up or a seed filled, and without it the planner plans the turns' reads on statistics of an emptier
 * database.
 */
async function analyse(): Promise<void> {
  await withBenchDb((db) =>
    db.query('ANALYZE messages, tickets, contacts, contact_identities, whatsapps, flow_runs, flow_run_steps, flow_turn_leases'),
  );
}

/** Polls `check` every 100 ms until it answers true or `timeoutMs` passes; answers whether it did. */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** Customer messages on the connection's open tickets that their run has not taken yet (turns still queued). */
async function untaken(whatsappId: number): Promise<number> {
  return withBenchDb(
    async (db) =>
      (
        (
          await db.query(
            `SELECT count(*)::int AS n FROM tickets t JOIN flow_runs r ON r.ticket_id = t.id
             JOIN messages m ON m.ticket_id = t.id AND NOT m.from_me AND m.id > coalesce(r.last_message_id, 0)
             WHERE t.whatsapp_id = $1 AND t.status = 'pending'`,
            [whatsappId],
          )
        ).rows[0] as { n: number }
      ).n,
  );
}

/** Runs of the connection's open tickets waiting for an answer. */
async function waitingRuns(whatsappId: number): Promise<number> {
  return withBenchDb(
    async (db) =>
      (
        (
          await db.query(
            `SELECT count(*)::int AS n FROM flow_runs r JOIN tickets t ON t.id = r.ticket_id
             WHERE t.whatsapp_id = $1 AND t.status = 'pending' AND r.waiting_for = 'answer'`,
            [whatsappId],
          )
        ).rows[0] as { n: number }
      ).n,
  );
}

async function receivePath(
  options: SectionOptions,
  server: { url: string; child: { pid?: number } },
  client: Api,
  token: string,
  companyId: number,
): Promise<void> {
  const push = reportTo(options);
  const log = options.log ?? console.log;
  const quietId = await connection(companyId, 'Bench fluxos sem fluxo', 'quiet');
  const flowId = await connection(companyId, 'Bench fluxos', 'flow');
  const conversation = await saveFlow(
    client,
    `Bench conversa ${Date.now().toString(36)}`,
    [
      { id: '1', type: 'start', position: at, data: {} },
      {
        id: 'pergunta',
        type: 'question',
        position: at,
        data: { typebotIntegration: { message: 'Sua resposta?', answerKey: 'resposta' } },
      },
      { id: 'eco', type: 'message', position: at, data: { label: 'Anotado: {{resposta}}' } },
    ],
    [
      { source: '1', target: 'pergunta' },
      { source: 'pergunta', target: 'eco' },
      { source: 'eco', target: 'pergunta' },
    ],
  );
  // new contacts get the welcome flow, contacts of earlier runs the not-phrase one: the same flow
  await withBenchDb((db) =>
    db.query(`UPDATE whatsapps SET flow_id_welcome = $2, flow_id_not_phrase = $2 WHERE id = $1`, [flowId, conversation]),
  );

  log('flows: warm-up without a flow…');
  await receiveAt(server.url, token, quietId, 3, `warm${Date.now()}`, 'quiet');
  await analyse();
  log(`flows: ${SECONDS} s at ${RATE}/s without a flow…`);
  const quiet = await receiveAt(server.url, token, quietId, SECONDS, `quiet${Date.now()}`, 'quiet');

  log(`flows: ${CONTACTS} customers start the flow…`);
  await receiveAt(server.url, token, flowId, CONTACTS / RATE, `start${Date.now()}`, 'flow');
  const started = await until(async () => (await waitingRuns(flowId)) >= CONTACTS, 60_000);
  if (!started) log(`flows: only ${await waitingRuns(flowId)} of ${CONTACTS} runs wait at the question; measuring anyway`);
  await analyse();
  log(`flows: ${SECONDS} s at ${RATE}/s, every message answering a flow's question…`);
  const stepsBefore = await withBenchDb(
    async (db) =>
      (
        (await db.query(`SELECT count(*)::int AS n FROM flow_run_steps WHERE flow_id = $1`, [conversation])).rows[0] as {
          n: number;
        }
      ).n,
  );
  const load = os.loadavg()[0] ?? 0;
  const cpu = CpuWindow.start(server.child.pid ?? 0);
  const busy = await receiveAt(server.url, token, flowId, SECONDS, `busy${Date.now()}`, 'flow');
  const used = cpu.end();
  // the turns still queued when the sending stopped: how long until every run has taken its last message
  const drainStart = performance.now();
  const drained = await until(async () => (await untaken(flowId)) === 0, 120_000);
  const drainMs = performance.now() - drainStart;
  const steps = await withBenchDb(
    async (db) =>
      (
        (await db.query(`SELECT count(*)::int AS n FROM flow_run_steps WHERE flow_id = $1`, [conversation])).rows[0] as {
          n: number;
        }
      ).n,
  );
  // each answer is two steps (the echo, then the question again)
  const answered = Math.floor((steps - stepsBefore) / 2);
  const p99Quiet = percentile(quiet.durations, 99);
  const p99Busy = percentile(busy.durations, 99);
  const added = p99Busy - p99Quiet;
  const others = Math.max(0, used.machineBusy - used.server - used.postgres - used.bench) / used.seconds;
  push({
    group: GROUP,
    name: `Inbound receive when each message advances a flow node (a question answered, the echo and the question sent), ${RATE} messages/s from ${CONTACTS} customers for ${SECONDS} s, vs the same receive on a connection without flows; one server process (ROLE all)`,
    target: '≤ 15 ms added to p99',
    value: `${added < 0 ? '−' : '+'}${ms(Math.abs(added))} ms (p99 ${ms(p99Busy)} ms with, ${ms(p99Quiet)} ms without)`,
    ok: added <= 15,
    detail:
      `receive() p50 ${ms(percentile(busy.durations, 50))} ms with, ${ms(percentile(quiet.durations, 50))} ms without; ` +
      `${busy.durations.length.toLocaleString('en-US')} and ${quiet.durations.length.toLocaleString('en-US')} received in ${busy.seconds.toFixed(1)} and ${quiet.seconds.toFixed(1)} s (the sender waited ${busy.behind} and ${quiet.behind} times; failures ${busy.failures + quiet.failures})<br>` +
      `the flow's turns: ${answered.toLocaleString('en-US')} answers moved a run on (a turn that finds a later message of its ticket already taken skips its own); ${drained ? `every run had taken its last message ${(drainMs / 1000).toFixed(1)} s after the sending ended` : 'the turns had not caught up 120 s after the sending ended'}<br>` +
      `CPU over the run: server ${(used.server / used.seconds).toFixed(2)}, Postgres ${(used.postgres / used.seconds).toFixed(2)}, other processes ${others.toFixed(2)} of ${os.cpus().length} cores; load average ${load.toFixed(1)} at its start`,
  });
}

async function intervals(
  options: SectionOptions,
  server: { url: string; child: { pid?: number } },
  client: Api,
  companyId: number,
): Promise<void> {
  const push = reportTo(options);
  const log = options.log ?? console.log;
  const whatsappId = await connection(companyId, 'Bench fluxos pausa', 'pausa');
  const flowId = await saveFlow(
    client,
    `Bench pausa ${Date.now().toString(36)}`,
    [
      { id: '1', type: 'start', position: at, data: {} },
      { id: 'pausa', type: 'interval', position: at, data: { sec: 5 } },
      { id: 'depois', type: 'message', position: at, data: { label: 'Retomado.' } },
    ],
    [
      { source: '1', target: 'pausa' },
      { source: 'pausa', target: 'depois' },
    ],
  );
  log(`flows: ${INTERVAL_RUNS.toLocaleString('en-US')} tickets…`);
  const tag = Date.now().toString(36);
  for (let batch = 0; batch < INTERVAL_RUNS; batch += 500) {
    const messages = Array.from({ length: Math.min(500, INTERVAL_RUNS - batch) }, (_, index) => {
      const n = batch + index;
      return {
        id: `fp-${tag}-${n}`,
        identifier: `bench-flows-pausa-${n}`,
        name: `Cliente Pausa ${n}`,
        number: `5500666${3}${String(n).padStart(4, '0')}`,
        body: 'oi',
      };
    });
    await client.call('POST', '/bench/inbound', { whatsappId, channel: 'loopback', concurrency: 16, messages });
  }
  // the flow builder's queue, as ctx.jobs.enqueue writes it (the runtime's delayed flow-due jobs go there)
  const queue = new BeeQueue('flowbuilder', {
    prefix: `${BENCH_REDIS_PREFIX}:bq`,
    redis: { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' } as BeeQueue.QueueSettings['redis'],
    isWorker: false,
    getEvents: false,
    sendEvents: false,
    storeJobs: false,
    activateDelayedJobs: false,
  });
  await queue.ready();
  // the turns of (a) still queued would run first: the intervals start on an idle queue
  const idle = await until(async () => {
    const health = await queue.checkHealth();
    return health.waiting + health.active === 0;
  }, 180_000);
  if (!idle) log('flows: the queue still holds earlier turns; the intervals wait behind them');
  // due at a whole second at least 5 s ahead: the rows and the jobs are all in before it
  const due = new Date(Math.ceil((Date.now() + 5_000) / 1000) * 1000);
  const ticketIds = await withBenchDb(async (db) => {
    const rows = (
      await db.query(`SELECT id FROM tickets WHERE company_id = $1 AND whatsapp_id = $2 AND status = 'pending' ORDER BY id`, [
        companyId,
        whatsappId,
      ])
    ).rows as Array<{ id: number }>;
    const ids = rows.map((row) => row.id);
    await db.query(`UPDATE tickets SET use_integration = true WHERE id = ANY($1::int[])`, [ids]);
    // what the runtime writes when a run reaches the interval node: the run waiting, its step, its due time
    await db.query(
      `INSERT INTO flow_runs (ticket_id, company_id, flow_id, node_id, status, waiting_for, step, variables, due_at, started_at, updated_at)
       SELECT id, $2, $3, 'pausa', 'waiting', 'interval', 1, '{}'::jsonb, $4, now(), now() FROM unnest($1::int[]) AS id
       ON CONFLICT (ticket_id) DO UPDATE SET flow_id = excluded.flow_id, node_id = 'pausa', status = 'waiting',
         waiting_for = 'interval', step = 1, due_at = excluded.due_at, end_reason = NULL, started_at = now(), updated_at = now()`,
      [ids, companyId, flowId, due],
    );
    return ids;
  });
  await analyse();
  // and the company's delayed flow-due job of that quarter second (every run due in it names the same one)
  try {
    await queue
      .createJob({ name: 'flow-due', companyId, data: {} })
      .setId(`flow-due:${companyId}:flow-due-${due.getTime()}`)
      .delayUntil(due.getTime())
      .save();
  } finally {
    await queue.close();
  }
  if (Date.now() >= due.getTime()) log('flows: the jobs were written after their due time; the figure counts from it anyway');
  log(`flows: ${ticketIds.length.toLocaleString('en-US')} intervals due at ${due.toISOString()}…`);
  while (Date.now() < due.getTime()) await new Promise((resolve) => setTimeout(resolve, 20));
  const load = os.loadavg()[0] ?? 0;
  const cpu = CpuWindow.start(server.child.pid ?? 0);
  const doneCount = async () =>
    withBenchDb(
      async (db) =>
        (
          (
            await db.query(`SELECT count(*)::int AS n FROM flow_runs WHERE ticket_id = ANY($1::int[]) AND status = 'done'`, [
              ticketIds,
            ])
          ).rows[0] as { n: number }
        ).n,
    );
  await until(async () => (await doneCount()) >= ticketIds.length, 240_000);
  const used = cpu.end();
  const timing = await withBenchDb(
    async (db) =>
      (
        await db.query(
          `SELECT count(*) FILTER (WHERE status = 'done')::int AS done,
             extract(epoch FROM percentile_disc(0.5) WITHIN GROUP (ORDER BY updated_at) FILTER (WHERE status = 'done'))::float8 AS p50,
             extract(epoch FROM max(updated_at) FILTER (WHERE status = 'done'))::float8 AS last
           FROM flow_runs WHERE ticket_id = ANY($1::int[])`,
          [ticketIds],
        )
      ).rows[0] as { done: number; p50: number | null; last: number | null },
  );
  const sent = await withBenchDb(
    async (db) =>
      (
        await db.query(
          `SELECT count(*)::int AS n, count(DISTINCT ticket_id)::int AS tickets FROM messages
             WHERE ticket_id = ANY($1::int[]) AND from_me AND body = 'Retomado.' AND created_at >= $2`,
          [ticketIds, due],
        )
      ).rows[0] as { n: number; tickets: number },
  );
  const lastS = timing.last === null ? Number.NaN : timing.last - due.getTime() / 1000;
  const p50S = timing.p50 === null ? Number.NaN : timing.p50 - due.getTime() / 1000;
  const others = Math.max(0, used.machineBusy - used.server - used.postgres - used.bench) / used.seconds;
  push({
    group: GROUP,
    name: `${ticketIds.length.toLocaleString('en-US')} tickets in flows waiting on an interval node due in the same second: due time → the last run resumed (its next message sent, the run done); one server process (ROLE all)`,
    target: 'all within 2 s',
    value: `${timing.done.toLocaleString('en-US')} resumed, the last ${lastS.toFixed(2)} s after the due time`,
    ok: timing.done === ticketIds.length && lastS <= 2,
    detail:
      `${idle ? '' : 'the queue still held earlier turns at the due time; '}half of them within ${p50S.toFixed(2)} s; "Retomado." sent ${sent.n.toLocaleString('en-US')} times on ${sent.tickets.toLocaleString('en-US')} tickets (once each expected)<br>` +
      `CPU over the run: server ${(used.server / used.seconds).toFixed(2)}, Postgres ${(used.postgres / used.seconds).toFixed(2)}, other processes ${others.toFixed(2)} of ${os.cpus().length} cores; load average ${load.toFixed(1)} at its start`,
  });
}

export async function flowsBenchmarks(options: SectionOptions): Promise<void> {
  const provider = await startLoopbackProvider();
  const server = await startServer(options.port, {
    BALCAO_PLUGINS: `${INBOUND_PLUGIN},${LOOPBACK_PLUGIN}`,
    [LOOPBACK_URL_VARIABLE]: provider.url,
    CAMPAIGN_DISPATCHER: 'off',
    // the bench database may hold other benches' WhatsApp connections: their sessions stay on loopback
    WHATSAPP_VERSION: '2,3000,1023223821',
    WHATSAPP_WS_URL: 'ws://127.0.0.1:9/ws/chat',
  });
  try {
    const token = await login(server.url, 'admin@acme.test');
    const client = api(server.url, token);
    const companyId = await withBenchDb(
      async (db) => ((await db.query(`SELECT id FROM companies WHERE name = 'Acme'`)).rows[0] as { id: number }).id,
    );
    if (PARTS.includes('receive')) await receivePath(options, server, client, token, companyId);
    if (PARTS.includes('intervals')) await intervals(options, server, client, companyId);
  } finally {
    await server.stop();
    await provider.close();
  }
}
