/**
 * `npm run bench -- webhooks`: the webhooks' target (issue 26): while inbound messages go through
 * `inbox.receive` (the bench loopback channel's `POST /api/bench/inbound`, bench/fixtures/loopback-channel)
 * at BENCH_WEBHOOKS_RATE messages a second (default 1,000), five endpoints of the company subscribe to
 * `message.received` — three answering at once, one answering after 2 s, one answering 500 — so every
 * message is an event fanned out to five deliveries. The inbox's receive p99 is measured without any
 * endpoint, then with the five, on the same server bundle (ROLE all: the dispatcher shares the process and
 * the two cores), and the deliveries the receivers got meanwhile are counted.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { LOOPBACK_PLUGIN, LOOPBACK_URL_VARIABLE } from '@balcao/plugin-sdk/testing/loopback';
import { REPO_ROOT } from '@balcao/server';
import { CpuWindow, login, ms, paceInbound, percentile, reportTo, type SectionOptions, startServer, withBenchDb } from './lib';

const INBOUND_PLUGIN = path.join(REPO_ROOT, 'bench', 'fixtures', 'loopback-channel');
/** The campaigns' loopback channel: Acme's connection for the run is one of its (nothing leaves the machine). */
const RECEIVER_NAMES = ['fast-1', 'fast-2', 'fast-3', 'slow', 'failing'];
const RATE = Number(process.env.BENCH_WEBHOOKS_RATE ?? 1_000);
const SECONDS = Number(process.env.BENCH_WEBHOOKS_SECONDS ?? 10);
const CONTACTS = 300;
const GROUP = 'webhooks';

/** Five receivers on one loopback server, by path: what each answers and how many it got. */
async function startReceivers() {
  const counts = new Map<string, number>();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const name = (request.url ?? '/').slice(1);
      counts.set(name, (counts.get(name) ?? 0) + 1);
      if (name === 'failing') response.writeHead(500).end();
      // the loopback channel's provider: it reads the sent message's id from the answer
      else if (name === 'messages')
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `p${counts.get(name)}` }));
      else if (name === 'slow') setTimeout(() => response.writeHead(200).end(), 2_000).unref();
      else response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Sends RATE messages a second for `seconds` (a batch every 50 ms); answers every receive()'s duration. */
async function receiveAt(url: string, token: string, whatsappId: number, seconds: number, tag: string) {
  return paceInbound({
    url,
    token,
    whatsappId,
    rate: RATE,
    seconds,
    message: (sequence, tick, index) => {
      const n = sequence % CONTACTS;
      return {
        id: `wh-${tag}-${tick}-${index}`,
        identifier: `bench-webhooks-${n}`,
        name: `Cliente Webhook ${n}`,
        number: `5500777${String(n).padStart(5, '0')}`,
        body: `Mensagem ${tick}-${index}`,
      };
    },
  });
}

export async function webhooksBenchmarks(options: SectionOptions): Promise<void> {
  const push = reportTo(options);
  const log = options.log ?? console.log;
  const receivers = await startReceivers();
  const whatsappId = await withBenchDb(async (db) => {
    const company = (await db.query(`SELECT id FROM companies WHERE name = 'Acme'`)).rows[0] as { id: number };
    const found = await db.query(`SELECT id FROM whatsapps WHERE company_id = $1 AND channel = 'loopback'`, [company.id]);
    const existing = found.rows[0] as { id: number } | undefined;
    if (existing) return existing.id;
    const made = await db.query(
      `INSERT INTO whatsapps (company_id, name, channel, status, token) VALUES ($1, 'Bench loopback', 'loopback', 'CONNECTED', 'bench-loopback') RETURNING id`,
      [company.id],
    );
    return (made.rows[0] as { id: number }).id;
  });
  const server = await startServer(options.port, {
    // the SDK's loopback channel moved out of the campaigns plugin: its replies go to the receivers' server,
    // counted apart
    BALCAO_PLUGINS: `${INBOUND_PLUGIN},${LOOPBACK_PLUGIN}`,
    [LOOPBACK_URL_VARIABLE]: receivers.url,
    CAMPAIGN_DISPATCHER: 'off',
    OUTBOUND_HTTP_ALLOW: '127.0.0.1',
  });
  const endpointIds: number[] = [];
  let token = '';
  try {
    token = await login(server.url, 'admin@acme.test');
    log('webhooks: warm-up (contacts and tickets made)…');
    await receiveAt(server.url, token, whatsappId, 3, `warm${Date.now()}`);
    log(`webhooks: ${SECONDS} s at ${RATE}/s without endpoints…`);
    const quiet = await receiveAt(server.url, token, whatsappId, SECONDS, `quiet${Date.now()}`);

    for (const name of RECEIVER_NAMES) {
      const res = await fetch(`${server.url}/api/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ name: `Bench ${name}`, url: `${receivers.url}/${name}`, events: ['message.received'] }),
      });
      if (res.status !== 201) throw new Error(`POST /api/webhooks: ${res.status} ${await res.text()}`);
      endpointIds.push(((await res.json()) as { webhook: { id: number } }).webhook.id);
    }
    log(`webhooks: ${SECONDS} s at ${RATE}/s fanned out to 5 endpoints…`);
    const load = os.loadavg()[0] ?? 0;
    const cpu = CpuWindow.start(server.child.pid ?? 0);
    const busy = await receiveAt(server.url, token, whatsappId, SECONDS, `busy${Date.now()}`);
    const used = cpu.end();
    const deliveredDuring = RECEIVER_NAMES.reduce((sum, name) => sum + (receivers.counts.get(name) ?? 0), 0);
    const outbox = await withBenchDb(async (db) => {
      const rows = (
        await db.query(
          `SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ANY($1::int[]) GROUP BY status`,
          [endpointIds],
        )
      ).rows as Array<{ status: string; n: number }>;
      return Object.fromEntries(rows.map((row) => [row.status, row.n])) as Record<string, number>;
    });
    const written = Object.values(outbox).reduce((sum, n) => sum + n, 0);
    const p99Quiet = percentile(quiet.durations, 99);
    const p99Busy = percentile(busy.durations, 99);
    const others = Math.max(0, used.machineBusy - used.server - used.postgres - used.bench) / used.seconds;
    push({
      group: GROUP,
      name: `Inbound receive while each message is fanned out to 5 webhook endpoints (3 fast, 1 answering in 2 s, 1 answering 500), ${RATE.toLocaleString('en-US')} messages/s for ${SECONDS} s, one server process (ROLE all)`,
      target: 'receive p99 unchanged within noise',
      value: `p99 ${ms(p99Busy)} ms with, ${ms(p99Quiet)} ms without`,
      ok: p99Busy <= p99Quiet * 1.25 + 2,
      detail:
        `receive() p50 ${ms(percentile(busy.durations, 50))} ms with, ${ms(percentile(quiet.durations, 50))} ms without; ` +
        `${busy.durations.length.toLocaleString('en-US')} and ${quiet.durations.length.toLocaleString('en-US')} received in ${busy.seconds.toFixed(1)} and ${quiet.seconds.toFixed(1)} s (the sender waited ${busy.behind} and ${quiet.behind} times; failures ${busy.failures + quiet.failures})<br>` +
        `${written.toLocaleString('en-US')} deliveries written (one batched insert per batch of events); the receivers got ${deliveredDuring.toLocaleString('en-US')} during the run ` +
        `(${(deliveredDuring / busy.seconds).toFixed(0)}/s: ${RECEIVER_NAMES.map((name) => `${name} ${receivers.counts.get(name) ?? 0}`).join(', ')}); pending at its end ${outbox.pending ?? 0}<br>` +
        `CPU over the run: server ${(used.server / used.seconds).toFixed(2)}, Postgres ${(used.postgres / used.seconds).toFixed(2)}, other processes ${others.toFixed(2)} of ${os.cpus().length} cores; load average ${load.toFixed(1)} at its start`,
    });
  } finally {
    for (const id of endpointIds) {
      await fetch(`${server.url}/api/webhooks/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }).catch(
        () => {},
      );
    }
    await server.stop();
    await receivers.close();
  }
}
