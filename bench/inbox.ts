/**
 * The inbox benchmarks (issue 3, "Proof") against the generated data set of `bench/inbox-data.ts`, on
 * one server process (the bundle `npm start` runs) with the bench-only loopback channel plugin loaded
 * (`bench/fixtures/loopback-channel`, through `BALCAO_PLUGINS`):
 *
 * - `inbox-tickets`: GET /tickets, an agent's open tab (`status=open&showAll=false&queueIds=[their queues]`),
 *   32 connections, requests spread over the 50 agents with their own tokens.
 * - `inbox-search`: GET /tickets searching message contents (`searchParam=<word>&searchOnMessages=true`, no
 *   status) for words of different selectivity, as the agents and as the admin, 32 connections.
 * - `inbox-messages`: GET /messages/:ticketUuid (page 1), 32 connections, spread over 5,000 tickets (100 of
 *   each agent's own tickets, read by that agent).
 * - `inbox-receive`: inbound messages through `inbox.receive` at a fixed rate for 20 s, each delivered to an
 *   agent's socket (`company-{id}-appMessage`, action create); latency from the moment receive is called
 *   (stamped into the body by the plugin) to the event's arrival at the socket. One message in ten opens a
 *   new conversation, evenly through the run; a burst of new conversations alone is measured beside it.
 *
 * - `inbox-rls`: the cost of row-level security (docs/architecture.md#tenancy): the open tab's statement
 *   (`listTickets`, the same call the route makes) run in this process, one at a time on one connection, as
 *   the owner (as the route ran it before), as the route runs it (the SDK's `tenantStatement`: the tenant role
 *   and the policies, the scope sent with the statement), in `tenantTransaction`, and in the first tenant
 *   transaction (three round trips); time and CPU per call of each.
 *
 * Percentiles are computed here from every request's own time (autocannon's `response` events).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { runInTenant, TENANT_COMPANY_SETTING, TENANT_DB_ROLE, tenantTransaction } from '@balcao/plugin-sdk/server';
import { createKnex, REPO_ROOT } from '@balcao/server';
import autocannon from 'autocannon';
import type { Knex } from 'knex';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { listTickets, type TicketListFilters } from '../modules/inbox/server/tickets/ticket-list.service';
import { type Viewer, viewerOf } from '../modules/inbox/server/tickets/visibility';
import { ensureInboxDataset, type InboxDataset, searchWords } from './inbox-data';
import {
  benchDatabaseUrl,
  CpuWindow,
  cpuPerRequest,
  epochMs,
  type Figure,
  login,
  ms,
  percentile,
  reportTo,
  type SectionOptions,
  type ServerProcess,
  startServer,
} from './lib';

export const INBOX_SECTIONS = ['inbox-tickets', 'inbox-search', 'inbox-messages', 'inbox-receive', 'inbox-rls'] as const;
type InboxSection = (typeof INBOX_SECTIONS)[number];

const LOOPBACK_PLUGIN = path.join(REPO_ROOT, 'bench', 'fixtures', 'loopback-channel');
const CONNECTIONS = 32;
const WARMUP_SECONDS = Number(process.env.BENCH_INBOX_WARMUP ?? 3);
const SECONDS = Number(process.env.BENCH_INBOX_SECONDS ?? 15);
const SEARCH_SECONDS = Number(process.env.BENCH_INBOX_SEARCH_SECONDS ?? 8);
const RECEIVE_RATE = Number(process.env.BENCH_RECEIVE_RATE ?? 1_500);
const RECEIVE_SECONDS = Number(process.env.BENCH_RECEIVE_SECONDS ?? 20);
/** A second, lighter run: receive → event latency when the server is not saturated. */
const RECEIVE_LOW_RATE = Number(process.env.BENCH_RECEIVE_LOW_RATE ?? 200);
/** New contacts writing at once in the burst run (each its first message: a new ticket and the bot's turn). */
const BURST_NEW_CONTACTS = Number(process.env.BENCH_RECEIVE_BURST ?? 3_000);
const GROUP = 'inbox';

interface Target {
  path: string;
  token: string;
}

interface LoadResult {
  latencies: number[];
  seconds: number;
  rps: number;
  non2xx: number;
  errors: number;
  statuses: Map<number, number>;
  /** CPU per request of the server, Postgres and the load generator, and other processes' load. */
  cpu: string;
}

/** autocannon against a rotating list of requests (each with its own bearer token); every latency kept. */
function load(server: ServerProcess, targets: Target[], seconds: number, connections = CONNECTIONS): Promise<LoadResult> {
  let next = 0;
  const cpu = CpuWindow.start(server.child.pid ?? 0);
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let non2xx = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.url,
        connections,
        duration: seconds,
        requests: [
          {
            method: 'GET',
            setupRequest: (request) => {
              const target = targets[next++ % targets.length] as Target;
              return {
                ...request,
                path: target.path,
                headers: { ...request.headers, authorization: `Bearer ${target.token}` },
              } as typeof request;
            },
          },
        ],
      },
      async (error, result) => {
        if (error) return reject(error);
        const used = cpu.end();
        // requests cut off at the end are still running on the server: let them finish before what comes next
        await new Promise((done) => setTimeout(done, 500));
        resolve({
          latencies,
          seconds: result.duration,
          rps: latencies.length / result.duration,
          non2xx,
          errors: result.errors + result.timeouts,
          statuses,
          cpu: cpuPerRequest(used, latencies.length),
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
      if (statusCode < 200 || statusCode >= 300) non2xx++;
    });
  });
}

function latencySummary(result: LoadResult): string {
  const codes = [...result.statuses].map(([code, n]) => `${code}×${n}`).join(' ');
  return (
    `p50 ${ms(percentile(result.latencies, 50))} ms, p95 ${ms(percentile(result.latencies, 95))} ms, ` +
    `p99 ${ms(percentile(result.latencies, 99))} ms; ${Math.round(result.rps).toLocaleString('en-US')} req/s; ` +
    `non-2xx/errors: ${result.non2xx}/${result.errors}${result.non2xx > 0 ? ` (${codes})` : ''}; ${result.cpu}`
  );
}

const SINGLE_SECONDS = Number(process.env.BENCH_INBOX_SINGLE_SECONDS ?? 5);

/**
 * The same requests one at a time: the service time without queueing. At 32 connections on a machine of
 * two cores the p95 is mostly queueing (Little's law: latency ≈ connections / throughput), so this says
 * how much of it is the request itself.
 */
async function single(server: ServerProcess, targets: Target[]): Promise<string> {
  const result = await load(server, targets, SINGLE_SECONDS, 1);
  return `one connection: p50 ${ms(percentile(result.latencies, 50))} ms, p95 ${ms(percentile(result.latencies, 95))} ms`;
}

/** The first answer of a target, to fail early and clearly when a route is missing or refuses. */
async function probe(url: string, target: Target): Promise<{ status: number; body: string }> {
  const res = await fetch(`${url}${target.path}`, { headers: { authorization: `Bearer ${target.token}` } });
  return { status: res.status, body: (await res.text()).slice(0, 300) };
}

interface Session {
  server: ServerProcess;
  dataset: InboxDataset;
  adminToken: string;
  /** Tokens of the agents, by user id. */
  agentTokens: Map<number, string>;
}

async function openTab(session: Session, push: (figure: Figure) => void): Promise<void> {
  const { server, dataset } = session;
  const targets = dataset.agents.map((agent) => ({
    path: `/api/tickets?status=open&showAll=false&queueIds=${encodeURIComponent(JSON.stringify(agent.queueIds))}&pageNumber=1`,
    token: session.agentTokens.get(agent.id) as string,
  }));
  const first = await probe(server.url, targets[0] as Target);
  if (first.status !== 200) {
    push(failed('GET /tickets, agent open tab', '≤ 20 ms p95', first));
    return;
  }
  await load(server, targets, WARMUP_SECONDS);
  const result = await load(server, targets, SECONDS);
  const alone = await single(server, targets);
  const p95 = percentile(result.latencies, 95);
  push({
    group: GROUP,
    name: `GET /tickets, an agent's open tab (status=open, showAll=false, their queueIds), ${CONNECTIONS} connections, ${SECONDS} s, spread over the ${targets.length} agents`,
    target: 'p95 ≤ 20 ms',
    value: `p95 ${ms(p95)} ms`,
    ok: p95 <= 20 && result.non2xx + result.errors === 0,
    detail: `${latencySummary(result)}<br>${alone}`,
  });
}

async function search(session: Session, push: (figure: Figure) => void): Promise<void> {
  const { server, dataset } = session;
  for (const word of searchWords(dataset)) {
    const query = `/api/tickets?searchParam=${encodeURIComponent(word.text)}&searchOnMessages=true&pageNumber=1`;
    const asAgents = dataset.agents.map((agent) => ({ path: query, token: session.agentTokens.get(agent.id) as string }));
    const asAdmin = [{ path: query, token: session.adminToken }];
    const first = await probe(server.url, asAdmin[0] as Target);
    const name = `GET /tickets search in messages "${word.text}" (${word.label}: ${word.hits.toLocaleString('en-US')} messages match), ${CONNECTIONS} connections, ${SEARCH_SECONDS} s each`;
    if (first.status !== 200) {
      push(failed(name, 'p95 ≤ 80 ms', first));
      continue;
    }
    const runs: Array<[string, LoadResult]> = [];
    for (const [role, targets] of [
      ['agents', asAgents],
      ['admin', asAdmin],
    ] as const) {
      await load(server, targets, Math.min(2, WARMUP_SECONDS));
      runs.push([role, await load(server, targets, SEARCH_SECONDS)]);
    }
    const alone = await single(server, asAdmin);
    const worst = Math.max(...runs.map(([, result]) => percentile(result.latencies, 95)));
    push({
      group: GROUP,
      name,
      target: 'p95 ≤ 80 ms',
      value: runs.map(([role, result]) => `${role} p95 ${ms(percentile(result.latencies, 95))} ms`).join(' / '),
      ok: worst <= 80 && runs.every(([, result]) => result.non2xx + result.errors === 0),
      detail: [...runs.map(([role, result]) => `${role}: ${latencySummary(result)}`), `admin, ${alone}`].join('<br>'),
    });
  }
}

async function messages(session: Session, push: (figure: Figure) => void): Promise<void> {
  const { server, dataset } = session;
  const db = new pg.Client({ connectionString: benchDatabaseUrl() });
  await db.connect();
  let rows: Array<{ user_id: number; uuid: string }>;
  try {
    // 100 of each agent's own tickets (open and closed), chosen by a hash: 5,000 tickets
    rows = (
      await db.query(
        `SELECT user_id, uuid FROM (
           SELECT user_id, uuid, row_number() OVER (PARTITION BY user_id ORDER BY hashint4(id)) AS n
           FROM tickets WHERE company_id = $1 AND user_id IS NOT NULL AND status IN ('open', 'closed')) t
         WHERE n <= 100 ORDER BY n, user_id`,
        [dataset.companyId],
      )
    ).rows;
  } finally {
    await db.end();
  }
  const targets = rows.map((row) => ({
    path: `/api/messages/${row.uuid}?pageNumber=1`,
    token: session.agentTokens.get(row.user_id) as string,
  }));
  const name = `GET /messages/:ticketUuid (page 1), ${CONNECTIONS} connections, ${SECONDS} s, spread over ${targets.length.toLocaleString('en-US')} tickets read by their agents`;
  const first = await probe(server.url, targets[0] as Target);
  if (first.status !== 200) {
    push(failed(name, 'p95 ≤ 10 ms', first));
    return;
  }
  // the warm-up reads every ticket once: an agent's first read of an open ticket marks it read (a write)
  await load(server, targets, WARMUP_SECONDS);
  const result = await load(server, targets, SECONDS);
  const alone = await single(server, targets);
  const p95 = percentile(result.latencies, 95);
  push({
    group: GROUP,
    name,
    target: 'p95 ≤ 10 ms',
    value: `p95 ${ms(p95)} ms`,
    ok: p95 <= 10 && result.non2xx + result.errors === 0,
    detail: `${latencySummary(result)}<br>${alone}`,
  });
}

interface ReceiveRun {
  sent: number;
  ok: number;
  failures: Map<string, number>;
  /** Seconds from the first batch sent to the last result. */
  seconds: number;
  /**
   * Seconds from the first batch sent to the last one, plus one tick: the run's length when the server keeps
   * pace (a server that falls behind makes the sender wait, and this grows).
   */
  sendSeconds: number;
  /** receive → socket event, ms. */
  latencies: number[];
  /** receive call durations, ms. */
  receiveMs: number[];
  delivered: number;
  ticketsCreated: number;
  behind: number;
}

/**
 * Sends `rate` messages a second for `seconds` through the loopback channel (batches every 50 ms, at most
 * `maxInFlight` batches pending: when the server can't keep up the sender falls behind and says so), and
 * collects the agent socket's `appMessage` create events.
 */
async function receiveRun(
  session: Session,
  socket: Socket,
  options: {
    rate: number;
    seconds: number;
    tag: string;
    queueIds: number[];
    contacts: number;
    /** Write as the contacts of an earlier run (their tickets exist: no new ticket), default this run's own. */
    contactTag?: string;
    /**
     * How the contacts take turns: `round-robin` — message i is contact i mod contacts, so every contact's
     * first message (a new conversation) comes in the first `contacts` messages, a burst; `spread` — a new
     * contact every total/contacts messages, the others from the contacts already talking, so new
     * conversations arrive evenly through the run, as in a sustained day. Default round-robin.
     */
    arrival?: 'round-robin' | 'spread';
  },
): Promise<ReceiveRun> {
  const { server, dataset } = session;
  // small batches at low rates, so the load is smooth rather than a burst every 50 ms
  const tickMs = options.rate <= 500 ? 10 : 50;
  const perTick = Math.max(1, Math.round((options.rate * tickMs) / 1000));
  const total = perTick * Math.round((options.seconds * 1000) / tickMs);
  const maxInFlight = 16;
  const event = `company-${dataset.companyId}-appMessage`;
  const arrivals = new Map<string, number>();
  const stamp = /\[bench t=([\d.]+) id=([\w-]+)\]/;
  const onEvent = (payload: { action?: string; message?: { body?: string } }) => {
    const now = epochMs();
    if (payload?.action !== 'create') return;
    const match = stamp.exec(payload.message?.body ?? '');
    if (!match?.[2]?.startsWith(options.tag)) return;
    if (!arrivals.has(match[2])) arrivals.set(match[2], now - Number(match[1]));
  };
  socket.on(event, onEvent);

  const run: ReceiveRun = {
    sent: 0,
    ok: 0,
    failures: new Map(),
    seconds: 0,
    sendSeconds: 0,
    latencies: [],
    receiveMs: [],
    delivered: 0,
    ticketsCreated: 0,
    behind: 0,
  };
  const newEvery = Math.max(1, Math.floor(total / options.contacts));
  let talking = 0;
  let turn = 0;
  const contactOf = (index: number): number => {
    if (options.arrival !== 'spread') return index % options.contacts;
    if (index % newEvery === 0 && talking < options.contacts) {
      talking += 1;
      return talking - 1;
    }
    turn = (turn + 1) % Math.max(1, talking);
    return turn;
  };
  const pending = new Set<Promise<void>>();
  const runTag = String(Date.now() % 10_000).padStart(4, '0');
  const began = performance.now();
  let sentIndex = 0;
  const sendBatch = (count: number) => {
    const batch = [];
    for (let i = 0; i < count; i++, sentIndex++) {
      const n = contactOf(sentIndex);
      batch.push({
        id: `${options.tag}-${sentIndex}`,
        identifier: `bench-loop-${options.contactTag ?? options.tag}-${n}`,
        name: `Cliente Loop ${n}`,
        // area code 00, which the data set never uses (its numbers are 55 + 11–98 + 9…): found by number, a
        // loopback contact would take over a data-set contact, deleted with the loopback's rows afterwards
        number: `5500${runTag}${String(n).padStart(5, '0')}`,
        body: `Olá, mensagem ${sentIndex} do teste de carga`,
      });
    }
    run.sent += batch.length;
    // each contact's messages go to one of the agent's queues (a new ticket starts there)
    const queueId = options.queueIds[Math.floor(sentIndex / perTick) % options.queueIds.length] ?? null;
    const work = fetch(`${server.url}/api/bench/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.adminToken}` },
      body: JSON.stringify({ whatsappId: 1, queueId, concurrency: 16, messages: batch }),
    })
      .then(async (res) => {
        if (res.status !== 200) {
          const text = (await res.text()).slice(0, 200);
          run.failures.set(`HTTP ${res.status} ${text}`, (run.failures.get(`HTTP ${res.status} ${text}`) ?? 0) + batch.length);
          return;
        }
        const { results } = (await res.json()) as {
          results: Array<{ ok: boolean; ms: number; error?: string; ticketCreated?: boolean }>;
        };
        for (const result of results) {
          if (result.ok) {
            run.ok++;
            run.receiveMs.push(result.ms);
            if (result.ticketCreated) run.ticketsCreated++;
          } else {
            const key = result.error ?? 'unknown';
            run.failures.set(key, (run.failures.get(key) ?? 0) + 1);
          }
        }
      })
      .catch((error: Error) => {
        run.failures.set(error.message, (run.failures.get(error.message) ?? 0) + batch.length);
      });
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };

  // a message's contact is `sentIndex % contacts`: queue choice per batch keeps each contact's ticket in one queue
  for (let tick = 0; sentIndex < total; tick++) {
    const due = began + tick * tickMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (pending.size >= maxInFlight) {
      run.behind++;
      await Promise.race(pending);
    }
    sendBatch(Math.min(perTick, total - sentIndex));
  }
  // the schedule's length when the sender never waited for the server (a late timer of the load generator
  // is not the server's), else the time it took
  const ticks = Math.ceil(total / perTick);
  run.sendSeconds = run.behind === 0 ? (ticks * tickMs) / 1000 : (performance.now() - began + tickMs) / 1000;
  await Promise.all(pending);
  run.seconds = (performance.now() - began) / 1000;
  // let the last events arrive
  const deadline = Date.now() + 5_000;
  while (arrivals.size < run.ok && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  socket.off(event, onEvent);
  run.latencies = [...arrivals.values()];
  run.delivered = arrivals.size;
  return run;
}

async function receive(session: Session, push: (figure: Figure) => void): Promise<void> {
  const { server, dataset } = session;
  const agent = dataset.agents[0];
  if (!agent) return;
  const name = `Inbound receive at ${RECEIVE_RATE.toLocaleString('en-US')} messages/s for ${RECEIVE_SECONDS} s (loopback channel → inbox.receive), each delivered to an agent's socket (appMessage create)`;
  const socket = io(`${server.url}/${dataset.companyId}`, {
    auth: { token: session.agentTokens.get(agent.id) },
    transports: ['websocket'],
    reconnection: false,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', (error) => reject(error));
    });
    const probeRun = await receiveRun(session, socket, {
      rate: 20,
      seconds: 0.25,
      tag: `p${Date.now()}`,
      queueIds: agent.queueIds,
      contacts: 5,
    });
    if (probeRun.ok === 0) {
      const [error] = probeRun.failures.keys();
      push({
        group: GROUP,
        name,
        target: '≥ 1,500 msg/s, p99 ≤ 100 ms',
        value: 'not measured',
        ok: false,
        detail: `receive failed: ${error}`,
      });
      return;
    }
    // warm-up, then the measured run: 3,000 contacts, each writing ~10 messages over the run, the new
    // conversations arriving evenly (one message in ten); then the same contacts at a low rate; then a burst
    // of new conversations alone (the capacity for a campaign's replies, say), reported beside
    await receiveRun(session, socket, {
      rate: RECEIVE_RATE / 2,
      seconds: 3,
      tag: `w${Date.now()}`,
      queueIds: agent.queueIds,
      contacts: 500,
    });
    const window = CpuWindow.start(server.child.pid ?? 0);
    const mainTag = `m${Date.now()}`;
    const run = await receiveRun(session, socket, {
      rate: RECEIVE_RATE,
      seconds: RECEIVE_SECONDS,
      tag: mainTag,
      queueIds: agent.queueIds,
      contacts: 3_000,
      arrival: 'spread',
    });
    const cpu = cpuPerRequest(window.end(), run.ok).replace('per request', 'per message');
    const light = await receiveRun(session, socket, {
      rate: RECEIVE_LOW_RATE,
      seconds: 10,
      tag: `l${Date.now()}`,
      queueIds: agent.queueIds,
      contacts: 3_000,
      contactTag: mainTag,
    });
    const burst = await receiveRun(session, socket, {
      rate: RECEIVE_RATE,
      seconds: BURST_NEW_CONTACTS / RECEIVE_RATE,
      tag: `b${Date.now()}`,
      queueIds: agent.queueIds,
      contacts: BURST_NEW_CONTACTS,
    });
    // received per second of sending, when the server kept pace — the sender never waited for it and no
    // backlog was left when the sending ended (the last answer within the latency target of the last send):
    // then the last batch's own latency is the p99's business, not the rate's (at an offered 1,500/s, the last
    // answer's ~20 ms would read 1,498/s); else received per second until the last answer
    const backlogSeconds = run.seconds - run.sendSeconds;
    const rate = backlogSeconds <= 0.1 ? run.ok / run.sendSeconds : run.ok / run.seconds;
    const p99 = percentile(run.latencies, 99);
    const failures = [...run.failures].map(([error, n]) => `${n}× ${error}`).join('; ');
    push({
      group: GROUP,
      name,
      target: '≥ 1,500 msg/s, p99 ≤ 100 ms',
      value: `${Math.round(rate).toLocaleString('en-US')} msg/s, p99 ${ms(p99)} ms`,
      ok: rate >= 1_500 && p99 <= 100 && run.delivered === run.ok && run.ok === run.sent,
      detail:
        `${run.ok.toLocaleString('en-US')} of ${run.sent.toLocaleString('en-US')} received, sent over ${run.sendSeconds.toFixed(2)} s, the last answered ${run.seconds.toFixed(2)} s after the first was sent ` +
        `(${run.ticketsCreated.toLocaleString('en-US')} new tickets), ${run.delivered.toLocaleString('en-US')} delivered to the socket; ` +
        `receive → event p50 ${ms(percentile(run.latencies, 50))} ms, p95 ${ms(percentile(run.latencies, 95))} ms, p99 ${ms(p99)} ms, max ${ms(Math.max(...run.latencies))} ms; ` +
        `receive() call p50 ${ms(percentile(run.receiveMs, 50))} ms, p99 ${ms(percentile(run.receiveMs, 99))} ms` +
        `${run.behind > 0 ? `; the sender waited for the server ${run.behind}×` : ''}${failures ? `; failures: ${failures}` : ''}; ${cpu}<br>` +
        `at ${RECEIVE_LOW_RATE} msg/s for 10 s (the same contacts, tickets open): ${light.delivered.toLocaleString('en-US')} of ${light.sent.toLocaleString('en-US')} delivered, ` +
        `receive → event p50 ${ms(percentile(light.latencies, 50))} ms, p95 ${ms(percentile(light.latencies, 95))} ms, p99 ${ms(percentile(light.latencies, 99))} ms<br>` +
        `a burst of new conversations, ${burst.sent.toLocaleString('en-US')} new contacts' first messages sent at ${RECEIVE_RATE.toLocaleString('en-US')}/s: ` +
        `${burst.ticketsCreated.toLocaleString('en-US')} new tickets in ${burst.seconds.toFixed(1)} s (${Math.round(burst.ok / burst.seconds).toLocaleString('en-US')} new conversations/s), ` +
        `receive → event p50 ${ms(percentile(burst.latencies, 50))} ms, p99 ${ms(percentile(burst.latencies, 99))} ms`,
    });
  } finally {
    socket.close();
    await removeLoopbackData(dataset.companyId);
  }
}

/**
 * The loopback's contacts, tickets and messages go, so reruns see the same data. Deleting them the plain
 * way (`DELETE FROM contacts`, cascading) costs one scan of `messages` per deleted message: the foreign
 * keys `messages.quoted_msg_id` (SET NULL) and `messages.contact_id` have no index (see docs/benchmarks.md).
 * So the rows are deleted table by table, children first, with the foreign-key triggers off for this
 * transaction: every table referencing tickets or contacts (found in the catalogue, whoever adds one) is
 * cleaned by its referencing column.
 */
export async function removeLoopbackData(companyId: number): Promise<void> {
  const db = new pg.Client({ connectionString: benchDatabaseUrl() });
  await db.connect();
  try {
    await db.query('BEGIN');
    await db.query('SET LOCAL session_replication_role = replica');
    await db.query(
      `CREATE TEMP TABLE loop_contacts ON COMMIT DROP AS
         SELECT DISTINCT contact_id AS id FROM contact_identities WHERE company_id = $1 AND identifier LIKE 'bench-loop-%';
       CREATE TEMP TABLE loop_tickets ON COMMIT DROP AS
         SELECT id FROM tickets WHERE company_id = $1 AND contact_id IN (SELECT id FROM loop_contacts);`.replaceAll(
        '$1',
        String(Number(companyId)),
      ),
    );
    const references = (
      await db.query(
        `SELECT c.conrelid::regclass::text AS child, a.attname AS column, c.confrelid::regclass::text AS parent,
                EXISTS (SELECT 1 FROM pg_attribute x WHERE x.attrelid = c.conrelid AND x.attname = 'company_id') AS tenant
         FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
         WHERE c.contype = 'f' AND c.confrelid IN ('tickets'::regclass, 'contacts'::regclass)
           AND c.conrelid NOT IN ('tickets'::regclass, 'contacts'::regclass)`,
      )
    ).rows as Array<{ child: string; column: string; parent: string; tenant: boolean }>;
    // rows pointing at a loopback ticket go; rows merely naming a loopback contact too (they are the loopback's)
    for (const ref of [...references].sort((a, b) => (a.parent === b.parent ? 0 : a.parent === 'tickets' ? -1 : 1))) {
      const set = ref.parent === 'tickets' ? 'loop_tickets' : 'loop_contacts';
      await db.query(
        `DELETE FROM ${ref.child} WHERE ${ref.tenant ? 'company_id = $1 AND ' : ''}"${ref.column}" IN (SELECT id FROM ${set})`,
        ref.tenant ? [companyId] : [],
      );
    }
    await db.query('DELETE FROM tickets WHERE company_id = $1 AND id IN (SELECT id FROM loop_tickets)', [companyId]);
    await db.query('DELETE FROM contacts WHERE company_id = $1 AND id IN (SELECT id FROM loop_contacts)', [companyId]);
    await db.query('COMMIT');
  } catch (error) {
    await db.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await db.end();
  }
  await vacuumInbox();
}

/**
 * Vacuums and analyses the inbox's tables, so every run starts from the same state: the bench's own
 * writes (the loopback's rows, read marks) leave dead rows, stale statistics and GIN pending lists behind,
 * and this machine's Postgres runs with autovacuum off. (Measured: a search went from 8 to 62 ms after
 * three receive runs without a vacuum — a trigram index's pending list scanned on every query, and dead
 * index entries on the updated tickets.)
 */
export async function vacuumInbox(): Promise<void> {
  const db = new pg.Client({ connectionString: benchDatabaseUrl() });
  await db.connect();
  try {
    await db.query(
      'VACUUM (ANALYZE) tickets, messages, ticket_search_docs, ticket_search_words, search_vocabulary, contacts, contact_identities, ticket_logs, ticket_tags, contact_tags, users, user_queues',
    );
  } finally {
    await db.end();
  }
}

/** Rounds of the row-level security comparison, and calls of each mode in a round. */
const RLS_ROUNDS = Number(process.env.BENCH_RLS_ROUNDS ?? 6);
const RLS_CALLS = Number(process.env.BENCH_RLS_CALLS ?? 300);
/** Its section of docs/benchmarks.md ("Row-level security"), apart from the inbox's table. */
const RLS_GROUP = 'rls';

/**
 * Row-level security's cost on the open tab's statement. The modes take turns, round after round (a shared
 * machine's speed drifts within a minute), each round's order rotated; a mode's figure is the median of its
 * rounds' means. One connection (pool of one): a statement's service time, no queueing. The tenant role's
 * answer must equal the owner's: the policies hide nothing of the company.
 */
async function rowLevelSecurity(dataset: InboxDataset, push: (figure: Figure) => void): Promise<void> {
  const name = `Row-level security: GET /tickets's statement for an agent's open tab (listTickets), one connection, ${RLS_ROUNDS} rounds × ${RLS_CALLS} calls per mode over the ${dataset.agents.length} agents`;
  const knex = createKnex(benchDatabaseUrl(), 1);
  try {
    const secured = await knex.raw(
      "SELECT relrowsecurity AS on, EXISTS (SELECT 1 FROM pg_policy WHERE polrelid = 'tickets'::regclass) AS policy FROM pg_class WHERE oid = 'tickets'::regclass",
    );
    if (!secured.rows[0]?.on || !secured.rows[0]?.policy) {
      push({
        group: GROUP,
        name,
        target: '≤ 10 % CPU over the owner',
        value: 'not measured',
        ok: false,
        detail: 'tickets has no row-level security: migrations not applied?',
      });
      return;
    }
    const companyId = dataset.companyId;
    const users = await knex('users')
      .whereIn(
        'id',
        dataset.agents.map((agent) => agent.id),
      )
      .select('id', 'profile', 'allTicket', 'allowGroup', 'allUserChat', 'userClosePendingTicket');
    const settings = Object.fromEntries(
      (await knex('settings').where({ companyId }).select('key', 'value')).map((row: { key: string; value: string }) => [
        row.key,
        row.value,
      ]),
    );
    const cases: Array<{ viewer: Viewer; filters: TicketListFilters }> = dataset.agents.map((agent) => ({
      viewer: viewerOf({
        ...users.find((user: { id: number }) => user.id === agent.id),
        queues: agent.queueIds.map((id) => ({ id })),
      }),
      filters: { status: 'open', showAll: false, queueIds: agent.queueIds, pageNumber: 1 },
    }));
    const options = { settings, mask: false };
    const list = (db: Knex, at: number, rowSecurity: boolean) => {
      const { viewer, filters } = cases[at % cases.length] as (typeof cases)[number];
      return listTickets(db, companyId, viewer, filters, { ...options, rowSecurity });
    };
    const inTenant = <T>(work: () => Promise<T>) => runInTenant({ companyId }, work);
    // the first tenant transaction (SDK 1.22): knex's BEGIN, then the role and company, then COMMIT
    const firstTenantTransaction = (at: number) =>
      knex.transaction(async (trx) => {
        await trx.raw('SELECT set_config(?, ?, true), set_config(?, ?, true)', [
          'role',
          TENANT_DB_ROLE,
          TENANT_COMPANY_SETTING,
          String(companyId),
        ]);
        return list(trx, at, false);
      });
    const modes: Array<[string, (at: number) => Promise<unknown>]> = [
      ['owner (as the route ran before)', (at) => list(knex, at, false)],
      [
        'the route today: tenantStatement (one statement, the scope in its round trip, policies on)',
        (at) => list(knex, at, true),
      ],
      [
        'tenantTransaction (the scope and BEGIN in one round trip, COMMIT)',
        (at) => inTenant(() => tenantTransaction((trx) => list(trx, at, false), { knex })),
      ],
      ['the first tenantTransaction (BEGIN, the scope, COMMIT: three round trips)', (at) => firstTenantTransaction(at)],
    ];
    for (let at = 0; at < cases.length; at++) {
      const answers = await Promise.all(modes.map(([, run]) => run(at)));
      if (answers.some((answer) => answer !== answers[0])) {
        push({
          group: GROUP,
          name,
          target: '≤ 10 % CPU over the owner',
          value: 'answers differ',
          ok: false,
          detail: `agent ${at}: the modes' pages differ`,
        });
        return;
      }
    }
    const means = modes.map(() => [] as number[]);
    const cpu = modes.map(() => ({ node: 0, postgres: 0, calls: 0, others: 0, seconds: 0 }));
    const all = modes.map(() => [] as number[]);
    for (let round = 0; round < RLS_ROUNDS; round++) {
      for (let k = 0; k < modes.length; k++) {
        const index = (round + k) % modes.length;
        const run = (modes[index] as (typeof modes)[number])[1];
        const window = CpuWindow.start(process.pid);
        const started = performance.now();
        for (let call = 0; call < RLS_CALLS; call++) {
          const before = performance.now();
          await run(round * RLS_CALLS + call);
          all[index]?.push(performance.now() - before);
        }
        means[index]?.push((performance.now() - started) / RLS_CALLS);
        const used = window.end();
        const spent = cpu[index] as (typeof cpu)[number];
        spent.node += used.server;
        spent.postgres += used.postgres;
        spent.calls += RLS_CALLS;
        spent.others += Math.max(0, used.machineBusy - used.server - used.postgres);
        spent.seconds += used.seconds;
      }
    }
    // CPU a call (this process and the Postgres backend, seconds → ms) is what bounds the open tab's
    // throughput at 32 connections; the time a call also counts the extra round trips' waits, which a busy
    // machine stretches (each is a wake-up of two processes)
    const cpuMs = cpu.map((spent) => ((spent.node + spent.postgres) * 1000) / spent.calls);
    const timeMs = all.map((times) => percentile(times, 50));
    const [owner, tenant, transaction, firstTransaction] = cpuMs as [number, number, number, number];
    const [ownerTime, tenantTime] = timeMs as [number, number];
    const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)} %`;
    const overhead = (tenant / owner - 1) * 100;
    const us = (value: number) => `${Math.round(value * 1000).toLocaleString('en-US')} µs`;
    const detail = modes.map(([label], index) => {
      const spent = cpu[index] as (typeof cpu)[number];
      return (
        `${label}: CPU a call ${us(cpuMs[index] as number)} (Node ${us((spent.node * 1000) / spent.calls)} + Postgres ${us((spent.postgres * 1000) / spent.calls)}); ` +
        `time a call p50 ${us(timeMs[index] as number)}, p95 ${us(percentile(all[index] as number[], 95))}, mean of rounds ${us(percentile(means[index] as number[], 50))}`
      );
    });
    const others = cpu.reduce((sum, spent) => sum + spent.others, 0) / cpu.reduce((sum, spent) => sum + spent.seconds, 0);
    detail.push(
      `over the owner: tenantStatement CPU ${signed(overhead)}, time a call p50 ${signed((tenantTime / ownerTime - 1) * 100)}; tenantTransaction CPU ${signed((transaction / owner - 1) * 100)}; the first tenantTransaction CPU ${signed((firstTransaction / owner - 1) * 100)}; other processes used ${others.toFixed(2)} of ${os.cpus().length} cores meanwhile`,
    );
    push({
      group: GROUP,
      name,
      target: '≤ 10 % CPU over the owner',
      value: `CPU ${signed(overhead)} (${us(owner)} → ${us(tenant)} a call)`,
      ok: overhead <= 10,
      detail: detail.join('<br>'),
    });
  } finally {
    await knex.destroy();
  }
}

/** Which code was measured: the commit, and how many files of the inbox differ from it. */
function codeVersion(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const changed = git('status', '--porcelain', '--', 'modules/inbox', 'server', 'plugin-sdk')
      .split('\n')
      .filter(Boolean).length;
    return `server built from ${git('rev-parse', '--short', 'HEAD')}${changed > 0 ? ` plus ${changed} uncommitted files (inbox work in progress)` : ''}`;
  } catch {
    return 'server version unknown';
  }
}

function failed(name: string, target: string, answer: { status: number; body: string }): Figure {
  return {
    group: GROUP,
    name,
    target,
    value: `not measured: HTTP ${answer.status}`,
    ok: false,
    detail: answer.body.replaceAll('|', '\\|'),
  };
}

/** Runs the wanted inbox sections on one server process; generates (or reuses) the data set first. */
export async function inboxBenchmarks(options: SectionOptions & { wants: (section: InboxSection) => boolean }): Promise<void> {
  const log = options.log ?? console.log;
  const push = reportTo(options);
  const dataset = await ensureInboxDataset(log);
  // row-level security's comparison needs the data set only, not the server: a figure of its own section
  if (options.wants('inbox-rls')) {
    log('inbox-rls…');
    await rowLevelSecurity(dataset, (figure) => push({ ...figure, group: RLS_GROUP }));
  }
  if (!INBOX_SECTIONS.some((section) => section !== 'inbox-rls' && options.wants(section))) return;
  const { counts } = dataset;
  push({
    group: GROUP,
    name: 'Data set (bench/inbox-data.ts): one company',
    target: '100,000 tickets, 1,000,000 messages, 20 queues, 50 agents',
    value: `${counts.tickets.toLocaleString('en-US')} tickets, ${counts.messages.toLocaleString('en-US')} messages`,
    ok: counts.tickets >= 100_000 && counts.messages >= 1_000_000,
    detail:
      `${counts.pending.toLocaleString('en-US')} pending / ${counts.open.toLocaleString('en-US')} open / ${counts.closed.toLocaleString('en-US')} closed; ` +
      `${counts.contacts.toLocaleString('en-US')} contacts, ${dataset.queueIds.length} queues, ${dataset.agents.length} agents + 1 admin` +
      (dataset.generatedInSeconds !== null ? `; generated in ${dataset.generatedInSeconds.toFixed(0)} s` : '') +
      `; ${codeVersion()}`,
  });
  await removeLoopbackData(dataset.companyId); // an interrupted earlier run's rows, then a vacuum
  const server = await startServer(options.port, {
    BALCAO_PLUGINS: LOOPBACK_PLUGIN,
  });
  try {
    const adminToken = await login(server.url, dataset.adminEmail);
    const agentTokens = new Map<number, string>();
    for (const agent of dataset.agents) agentTokens.set(agent.id, await login(server.url, agent.email));
    const session: Session = { server, dataset, adminToken, agentTokens };
    const sections: Array<[InboxSection, (session: Session, push: (figure: Figure) => void) => Promise<void>]> = [
      ['inbox-tickets', openTab],
      ['inbox-search', search],
      ['inbox-messages', messages],
      ['inbox-receive', receive],
    ];
    for (const [section, measure] of sections) {
      if (!options.wants(section)) continue;
      log(`${section}…`);
      await measure(session, push);
    }
  } finally {
    await server.stop();
  }
}
