/**
 * `npm run bench -- ai`: the AI assistant's two speed targets (issue 27, "Speed"), on the server bundle
 * against the bench database, inbound messages through `inbox.receive` (the bench loopback channel's
 * `POST /api/bench/inbound`, bench/fixtures/loopback-channel) and replies out through the SDK's loopback
 * channel to its provider stand-in in this process:
 *
 * - **No work added to receive**: BENCH_AI_RATE customer messages a second (default 200) for
 *   BENCH_AI_SECONDS (default 10) on tickets of a queue without a prompt, the receive() call's p99 on a
 *   server without the AI plugin (the same repository with `plugins/ai` left out, through BALCAO_ROOT)
 *   and on one with it, each after a warm-up; the two runs alternate twice and each keeps its better p99,
 *   so a burst of the other helpers' load on the shared VM weighs on neither side alone.
 * - **A reply within 200 ms of the model's answer**: BENCH_AI_REPLIES customer messages (default 200), each
 *   a new customer on a queue with a prompt, at BENCH_AI_REPLY_RATE a second (default 20); the prompt's
 *   provider is the AI plugin's OpenAI-compatible stand-in behind a timing relay here, which notes when the
 *   answer leaves for the server; the loopback provider notes when the reply arrives. The difference is the
 *   assistant's own work after the model answered (usage, state, the ticket read again, the inbox's send).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmdirSync, symlinkSync, unlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { LOOPBACK_PLUGIN, LOOPBACK_URL_VARIABLE, startLoopbackProvider } from '@balcao/plugin-sdk/testing/loopback';
import { startOpenAiStandIn } from '@balcao/plugin-sdk/testing/openai';
import { REPO_ROOT } from '@balcao/server';
import {
  CpuWindow,
  login,
  ms,
  paceInbound,
  percentile,
  postBenchInbound,
  reportTo,
  type SectionOptions,
  startServer,
  withBenchDb,
} from './lib';

const BENCH_CHANNEL_PLUGIN = path.join(REPO_ROOT, 'bench', 'fixtures', 'loopback-channel');
const RATE = Number(process.env.BENCH_AI_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_AI_SECONDS ?? 10);
const REPLIES = Number(process.env.BENCH_AI_REPLIES ?? 200);
const REPLY_RATE = Number(process.env.BENCH_AI_REPLY_RATE ?? 20);
/** Runs of each side of the receive comparison, alternating (each side keeps its better p99). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_AI_ROUNDS ?? 2));
const CONTACTS = 300;
const GROUP = 'ai';

/**
 * The repository as a server sees it without the AI plugin: a folder of links to every entry of the
 * repository but `plugins/`, and a `plugins/` of links to every plugin but `ai` (the server bundle holds
 * every feature; discovery decides which load).
 */
function rootWithoutAi(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'balcao-bench-no-ai-'));
  for (const name of readdirSync(REPO_ROOT)) {
    if (name !== 'plugins') symlinkSync(path.join(REPO_ROOT, name), path.join(dir, name));
  }
  mkdirSync(path.join(dir, 'plugins'));
  for (const name of readdirSync(path.join(REPO_ROOT, 'plugins'))) {
    if (name !== 'ai') symlinkSync(path.join(REPO_ROOT, 'plugins', name), path.join(dir, 'plugins', name));
  }
  return dir;
}

/** Removes the links and the two folders (never following a link into the repository). */
function removeRoot(dir: string): void {
  for (const name of readdirSync(path.join(dir, 'plugins'))) unlinkSync(path.join(dir, 'plugins', name));
  rmdirSync(path.join(dir, 'plugins'));
  for (const name of readdirSync(dir)) unlinkSync(path.join(dir, name));
  rmdirSync(dir);
}

/** Acme's id, its loopback connection and two queues of its own: one without a prompt, one with. */
async function benchSetup(): Promise<{ companyId: number; whatsappId: number; plainQueue: number; aiQueue: number }> {
  return withBenchDb(async (db) => {
    const company = (await db.query(`SELECT id FROM companies WHERE name = 'Acme'`)).rows[0] as { id: number };
    const found = await db.query(`SELECT id FROM whatsapps WHERE company_id = $1 AND channel = 'loopback'`, [company.id]);
    let whatsappId = (found.rows[0] as { id: number } | undefined)?.id;
    if (whatsappId === undefined) {
      const made = await db.query(
        `INSERT INTO whatsapps (company_id, name, channel, status, token) VALUES ($1, 'Bench loopback', 'loopback', 'CONNECTED', 'bench-loopback') RETURNING id`,
        [company.id],
      );
      whatsappId = (made.rows[0] as { id: number }).id;
    }
    const queue = async (name: string, color: string) => {
      const existing = await db.query(`SELECT id FROM queues WHERE company_id = $1 AND name = $2`, [company.id, name]);
      const row = existing.rows[0] as { id: number } | undefined;
      if (row) return row.id;
      const made = await db.query(`INSERT INTO queues (company_id, name, color) VALUES ($1, $2, $3) RETURNING id`, [
        company.id,
        name,
        color,
      ]);
      return (made.rows[0] as { id: number }).id;
    };
    const plainQueue = await queue('Bench sem prompt', '#b0a001');
    const aiQueue = await queue('Bench assistente', '#b0a002');
    // earlier runs' prompt and tickets on the assistant's queue: every run starts with new customers
    await db.query(`DELETE FROM prompts WHERE company_id = $1 AND queue_id = $2`, [company.id, aiQueue]);
    return { companyId: company.id, whatsappId, plainQueue, aiQueue };
  });
}

/** Sends RATE messages a second for `seconds` (a batch every 50 ms) to tickets of `queueId`; every receive()'s duration. */
async function receiveAt(url: string, token: string, whatsappId: number, queueId: number, seconds: number, tag: string) {
  return paceInbound({
    url,
    token,
    whatsappId,
    queueId,
    rate: RATE,
    seconds,
    message: (sequence, tick, index) => {
      const n = sequence % CONTACTS;
      return {
        id: `ai-${tag}-${tick}-${index}`,
        identifier: `bench-ai-plain-${n}`,
        name: `Cliente IA ${n}`,
        number: `5500666${String(n).padStart(5, '0')}`,
        body: `Mensagem ${tick}-${index}`,
      };
    },
  });
}

/**
 * The timing relay in front of the stand-in: passes each request on and notes, per customer message (the
 * bench id the answer repeats), the moment the answer is written back to the server.
 */
async function startRelay(target: string) {
  const answeredAt = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      try {
        const upstream = await fetch(`${target}${(request.url ?? '').replace(/^\/v1/, '')}`, {
          method: request.method ?? 'POST',
          headers: {
            'content-type': String(request.headers['content-type'] ?? 'application/json'),
            authorization: String(request.headers.authorization ?? ''),
          },
          body: Buffer.concat(chunks),
        });
        const body = Buffer.from(await upstream.arrayBuffer());
        const id = /id=([^\]\s"\\]+)/.exec(body.toString('utf8'))?.[1];
        response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        if (id) answeredAt.set(id, Date.now());
        response.end(body);
      } catch {
        response.writeHead(502).end();
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    answeredAt,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function aiBenchmarks(options: SectionOptions): Promise<void> {
  const push = reportTo(options);
  const log = options.log ?? console.log;
  const { whatsappId, plainQueue, aiQueue } = await benchSetup();
  const provider = await startLoopbackProvider();
  const standIn = await startOpenAiStandIn();
  const relay = await startRelay(standIn.url);
  const noAiRoot = rootWithoutAi();
  const env = {
    BALCAO_PLUGINS: `${BENCH_CHANNEL_PLUGIN},${LOOPBACK_PLUGIN}`,
    [LOOPBACK_URL_VARIABLE]: provider.url,
    OUTBOUND_HTTP_ALLOW: '127.0.0.1',
    CAMPAIGN_DISPATCHER: 'off',
  };
  // the last server with the plugin stays up for the reply figure: one start fewer on a busy machine
  let kept: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    // (a) receive without and with the plugin, twice each, alternating
    const runs: Record<'without' | 'with', Array<{ p50: number; p99: number; count: number; failures: number }>> = {
      without: [],
      with: [],
    };
    let cpuNote = '';
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of ['without', 'with'] as const) {
        const server = await startServer(options.port, side === 'without' ? { ...env, BALCAO_ROOT: noAiRoot } : env);
        const last = side === 'with' && round === ROUNDS - 1;
        try {
          const token = await login(server.url, 'admin@acme.test');
          log(`ai: receive ${side} the AI plugin, round ${round + 1}: warm-up…`);
          await receiveAt(server.url, token, whatsappId, plainQueue, 3, `warm-${side}-${round}-${Date.now()}`);
          log(`ai: receive ${side} the AI plugin, round ${round + 1}: ${SECONDS} s at ${RATE}/s…`);
          const cpu = CpuWindow.start(server.child.pid ?? 0);
          const run = await receiveAt(server.url, token, whatsappId, plainQueue, SECONDS, `${side}-${round}-${Date.now()}`);
          const used = cpu.end();
          if (last) {
            const others = Math.max(0, used.machineBusy - used.server - used.postgres - used.bench) / used.seconds;
            cpuNote = `CPU over the last run: server ${(used.server / used.seconds).toFixed(2)}, Postgres ${(used.postgres / used.seconds).toFixed(2)}, other processes ${others.toFixed(2)} of ${os.cpus().length} cores`;
          }
          runs[side].push({
            p50: percentile(run.durations, 50),
            p99: percentile(run.durations, 99),
            count: run.durations.length,
            failures: run.failures,
          });
        } finally {
          if (last) kept = server;
          else await server.stop();
        }
      }
    }
    const best = (side: 'without' | 'with') => Math.min(...runs[side].map((run) => run.p99));
    const describe = (side: 'without' | 'with') =>
      runs[side]
        .map(
          (run) =>
            `p50 ${ms(run.p50)} / p99 ${ms(run.p99)} ms (${run.count.toLocaleString('en-US')} received, ${run.failures} failed)`,
        )
        .join('; ');
    push({
      group: GROUP,
      name: `Inbound receive on tickets of a queue without a prompt, ${RATE.toLocaleString('en-US')} messages/s for ${SECONDS} s, with the AI plugin loaded vs without it (the better of ${ROUNDS} alternating run${ROUNDS > 1 ? 's' : ''} each)`,
      target: 'receive p99 unchanged within noise',
      value: `p99 ${ms(best('with'))} ms with, ${ms(best('without'))} ms without`,
      ok: best('with') <= best('without') * 1.25 + 2,
      detail: `with: ${describe('with')}<br>without: ${describe('without')}<br>${cpuNote}`,
    });

    // (b) the time from the model's answer to the reply reaching the channel
    const server = kept ?? (await startServer(options.port, env));
    try {
      const token = await login(server.url, 'admin@acme.test');
      const created = await fetch(`${server.url}/api/prompt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          name: `Bench ${Date.now()}`,
          prompt: 'Você é o assistente da Acme. Responda com frases curtas.',
          queueId: aiQueue,
          apiKey: 'sk-bench',
          baseUrl: relay.url,
          model: 'bench-model',
        }),
      });
      if (created.status !== 201 && created.status !== 200) {
        throw new Error(`POST /api/prompt: ${created.status} ${await created.text()}`);
      }
      const run = `${Date.now().toString(36)}`;
      log(`ai: ${REPLIES} customer messages at ${REPLY_RATE}/s on a queue with a prompt…`);
      const ids: string[] = [];
      const began = performance.now();
      const posts: Promise<unknown>[] = [];
      for (let i = 0; i < REPLIES; i++) {
        const wait = began + (i * 1000) / REPLY_RATE - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const id = `r${run}-${i}`;
        ids.push(id);
        posts.push(
          postBenchInbound(server.url, token, {
            whatsappId,
            queueId: aiQueue,
            messages: [
              {
                id,
                identifier: `bench-ai-${run}-${i}`,
                name: `Cliente assistente ${i}`,
                number: `55007${String(Date.now() % 1e4).padStart(4, '0')}${String(i).padStart(4, '0')}`,
                body: 'Qual o prazo de entrega do meu pedido?',
              },
            ],
          }),
        );
      }
      await Promise.all(posts);
      const arrived = new Map<string, number>();
      await provider
        .waitFor(() => {
          for (const message of provider.messages) {
            const id = /id=([^\]\s"\\]+)/.exec(message.body)?.[1];
            if (id?.startsWith(`r${run}-`)) arrived.set(id, message.at);
          }
          return arrived.size >= REPLIES;
        }, 60_000)
        .catch(() => {});
      const latencies: number[] = [];
      for (const id of ids) {
        const answered = relay.answeredAt.get(id);
        const at = arrived.get(id);
        if (answered !== undefined && at !== undefined) latencies.push(at - answered);
      }
      const p99 = percentile(latencies, 99);
      push({
        group: GROUP,
        name: `A reply after the model's answer: ${REPLIES} customer messages at ${REPLY_RATE}/s, each a new ticket on a queue with a prompt (the OpenAI-compatible stand-in through a timing relay; replies through the loopback channel)`,
        target: '≤ 200 ms',
        value: `p50 ${ms(percentile(latencies, 50))} ms, p95 ${ms(percentile(latencies, 95))} ms, p99 ${ms(p99)} ms`,
        ok: latencies.length === REPLIES && p99 <= 200,
        detail: `answer leaves the stand-in's relay → the loopback provider has the reply; ${latencies.length} of ${REPLIES} replies arrived (max ${ms(Math.max(...latencies))} ms); the stand-in answered ${relay.answeredAt.size}`,
      });
    } finally {
      await server.stop();
    }
  } finally {
    await kept?.stop();
    await relay.close();
    await standIn.close();
    await provider.close();
    removeRoot(noAiRoot);
  }
}
