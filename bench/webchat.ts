/**
 * The webchat benchmark (issue 5, "Proof"): 2,000 concurrent widget visitors on loopback, each with a
 * session and an open event stream, each sending one message through the widget's public API; measured
 * from the send until the message is stored in the inbox (the POST's 201) and delivered to the sockets
 * of the two agents logged in (`company-{id}-appMessage`, action create). Target p99 ≤ 150 ms.
 *
 * The bench company has its own webchat connection with high per-IP and per-visitor limits (the limits
 * stay on: 2,000 visitors from 127.0.0.1 need a connection that allows them) and no queues, so the
 * chatbot stays quiet and the path measured is the channel's. The first messages (each a new
 * conversation: contact, ticket, every behaviour's handlers) are spread evenly over BENCH_WEBCHAT_SECONDS
 * (default 60 s: about 33 a second); then every visitor sends a second message at the same moment (a
 * burst on existing tickets, measured without a target).
 *
 * Run with `npm run bench -- webchat`.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { companySocket } from '@balcao/plugin-sdk/testing';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import {
  benchDatabaseUrl,
  CpuWindow,
  cpuPerRequest,
  type Figure,
  login,
  ms,
  percentile,
  reportTo,
  type SectionOptions,
  startServer,
} from './lib';

const GROUP = 'webchat';
const COMPANY = 'Webchat Bench';
const AGENTS = ['admin@webchat-bench.test', 'agent@webchat-bench.test'];
const VISITORS = Number(process.env.BENCH_WEBCHAT_VISITORS ?? 2_000);
const SPREAD_SECONDS = Number(process.env.BENCH_WEBCHAT_SECONDS ?? 60);
const ORIGIN = 'https://bench.example';
const WIDGET_KEY = `wck_${'webchat-bench'.padEnd(32, '0')}`;
/** Requests in flight while sessions are made and streams opened (set-up, not measured). */
const SETUP_CONCURRENCY = 50;

/** The bench company, its two agents (admins: they see every ticket) and its webchat connection. */
async function ensureCompany(): Promise<number> {
  const db = new pg.Client({ connectionString: benchDatabaseUrl() });
  await db.connect();
  try {
    await db.query('BEGIN');
    // a fresh company each run: earlier runs' 2,000 tickets would be reopened instead of created
    await db.query('DELETE FROM companies WHERE name = $1', [COMPANY]);
    const plan = await db.query<{ id: number }>(
      `INSERT INTO plans (name, users, connections, queues, amount, is_public)
       VALUES ('Webchat bench plan', 10, 10, 10, 1, false)
       ON CONFLICT (name) DO UPDATE SET connections = 10 RETURNING id`,
    );
    const company = await db.query<{ id: number }>(
      `INSERT INTO companies (name, email, plan_id, due_date, status)
       VALUES ($1, 'webchat-bench@bench.test', $2, now() + interval '10 years', true) RETURNING id`,
      [COMPANY, plan.rows[0]?.id],
    );
    const companyId = company.rows[0]?.id as number;
    for (const email of AGENTS) {
      await db.query(
        `INSERT INTO users (company_id, name, email, password_hash, profile)
         SELECT $1, $2, $3, password_hash, 'admin' FROM users WHERE email = 'admin@acme.test'`,
        [companyId, `Bench ${email.split('@')[0]}`, email],
      );
    }
    await db.query(
      `INSERT INTO settings (company_id, key, value)
       SELECT $1, key, value FROM settings WHERE company_id = (SELECT company_id FROM users WHERE email = 'admin@acme.test')`,
      [companyId],
    );
    const config = {
      widgetKey: WIDGET_KEY,
      identitySecret: 'webchat-bench-identity-secret-0000000000',
      allowedOrigins: [ORIGIN],
      prechat: { name: 'optional', email: 'off', phone: 'off' },
      color: '#1677FF',
      theme: 'auto',
      position: 'right',
      title: 'Bench',
      welcomeMessage: '',
      newConversationsPerIpPerHour: 100_000,
      messagesPerMinute: 10_000,
    };
    await db.query(
      `INSERT INTO whatsapps (company_id, name, channel, status, is_default, token, channel_config)
       VALUES ($1, 'Webchat bench', 'webchat', 'CONNECTED', true, $2, $3::jsonb)`,
      [companyId, 'WebchatBench'.padEnd(30, '0'), JSON.stringify(config)],
    );
    await db.query('COMMIT');
    return companyId;
  } catch (error) {
    await db.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await db.end();
  }
}

/** Runs `work` over `items` with at most `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T, index);
      }
    }),
  );
  return results;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4_096 });

function request(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          ...headers,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** An open event stream (its own connection, as a browser's EventSource), counted once its first event came. */
function openStream(base: string, token: string): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${base}/api/webchat/${WIDGET_KEY}/events?sessionToken=${token}`,
      { headers: { origin: ORIGIN }, agent: false },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream ${res.statusCode}`));
        res.once('data', () => resolve(req));
        res.resume();
      },
    );
    req.on('error', reject);
  });
}

export async function webchatBenchmarks(options: SectionOptions): Promise<void> {
  const log = options.log ?? console.log;
  const report = reportTo(options);
  const companyId = await ensureCompany();
  const server = await startServer(options.port);
  const streams: http.ClientRequest[] = [];
  const sockets: Socket[] = [];
  try {
    const base = server.url;
    // the agents' sockets: every message of the company reaches both (admins see every ticket)
    const pending = new Map<string, { began: number; stored: number | null; agentsLeft: number; done: (ms: number) => void }>();
    for (const email of AGENTS) {
      const token = await login(base, email);
      const socket = companySocket(base, companyId, token);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      socket.on(`company-${companyId}-appMessage`, (payload: { action?: string; message?: { body?: string } }) => {
        if (payload.action !== 'create') return;
        const entry = pending.get(payload.message?.body ?? '');
        if (!entry) return;
        entry.agentsLeft -= 1;
        if (entry.agentsLeft === 0 && entry.stored !== null) entry.done(performance.now() - entry.began);
      });
      sockets.push(socket);
    }

    log(`webchat: making ${VISITORS} visitor sessions and opening their event streams…`);
    const headers = { origin: ORIGIN };
    const tokens = await pool(
      Array.from({ length: VISITORS }, (_, i) => i),
      SETUP_CONCURRENCY,
      async (i) => {
        const res = await request(`${base}/api/webchat/${WIDGET_KEY}/sessions`, 'POST', headers, { name: `Visitante ${i}` });
        if (res.status !== 201) throw new Error(`session ${i}: ${res.status} ${res.body}`);
        return (JSON.parse(res.body) as { sessionToken: string }).sessionToken;
      },
    );
    streams.push(...(await pool(tokens, SETUP_CONCURRENCY, (token) => openStream(base, token))));
    log(`webchat: ${tokens.length} sessions, ${streams.length} streams open`);

    const run = async (label: string, spreadMs: number, round: number) => {
      const latencies: number[] = [];
      const storeLatencies: number[] = [];
      let failed = 0;
      const cpu = CpuWindow.start(server.child.pid ?? 0);
      const began = performance.now();
      await Promise.all(
        tokens.map(async (token, i) => {
          await new Promise((resolve) => setTimeout(resolve, (i * spreadMs) / tokens.length));
          const body = `bench ${round} ${i} ${randomUUID().slice(0, 8)}`;
          const delivered = new Promise<number>((resolve) => {
            pending.set(body, { began: performance.now(), stored: null, agentsLeft: sockets.length, done: resolve });
          });
          const entry = pending.get(body);
          if (!entry) return;
          const res = await request(
            `${base}/api/webchat/${WIDGET_KEY}/messages`,
            'POST',
            { ...headers, authorization: `Bearer ${token}` },
            { clientId: randomUUID(), body },
          );
          if (res.status !== 201) {
            failed++;
            pending.delete(body);
            return;
          }
          entry.stored = performance.now() - entry.began;
          storeLatencies.push(entry.stored);
          if (entry.agentsLeft === 0) entry.done(performance.now() - entry.began);
          const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 30_000));
          const total = await Promise.race([delivered, timeout]);
          pending.delete(body);
          if (total === null) failed++;
          else latencies.push(total);
        }),
      );
      const elapsed = (performance.now() - began) / 1000;
      const used = cpu.end();
      const p50 = percentile(latencies, 50);
      const p95 = percentile(latencies, 95);
      const p99 = percentile(latencies, 99);
      const figure: Figure = {
        group: GROUP,
        name: `${label}: ${tokens.length} visitors with open event streams each send one message (widget API → stored in the inbox → both agents' sockets)`,
        target: spreadMs > 0 ? 'p99 ≤ 150 ms' : 'measured',
        value: `p99 ${ms(p99)} ms`,
        ok: failed === 0 && latencies.length === tokens.length && (spreadMs === 0 || p99 <= 150),
        detail: `p50 ${ms(p50)} ms, p95 ${ms(p95)} ms; stored (POST 201) p50 ${ms(percentile(storeLatencies, 50))} ms, p99 ${ms(percentile(storeLatencies, 99))} ms; ${(latencies.length / elapsed).toFixed(0)} messages/s over ${elapsed.toFixed(1)} s; failed or undelivered: ${failed}<br>${cpuPerRequest(used, latencies.length)}`,
      };
      report(figure);
    };
    await run(
      `New conversations spread over ${SPREAD_SECONDS} s (${Math.round(tokens.length / SPREAD_SECONDS)} messages/s)`,
      SPREAD_SECONDS * 1000,
      1,
    );
    // the same visitors again, all at once: their tickets exist now (no new conversation)
    await run('Second messages, all at once (a burst on existing tickets)', 0, 2);
  } finally {
    for (const stream of streams) stream.destroy();
    for (const socket of sockets) socket.close();
    agent.destroy();
    await server.stop();
  }
}
