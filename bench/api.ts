/**
 * `npm run bench -- api`: the message API's target (issue 26): `POST /api/messages/send` with an API key, through
 * the SDK's loopback channel (`@balcao/plugin-sdk/testing/loopback`: its driver posts every message to the
 * provider stand-in in this process, which keeps one message per idempotency key), at 32 connections, on the
 * server bundle against the bench database. Each request sends to one of BENCH_API_NUMBERS numbers (default
 * 2,000) in turn, so the run makes contacts and tickets at first and then writes on existing tickets, as a
 * notification system does; every request carries its own Idempotency-Key.
 */

import { LOOPBACK_PLUGIN, LOOPBACK_URL_VARIABLE, startLoopbackProvider } from '@balcao/plugin-sdk/testing/loopback';
import autocannon from 'autocannon';
import { CpuWindow, cpuPerRequest, login, ms, reportTo, type SectionOptions, startServer, withBenchDb } from './lib';

const NUMBERS = Number(process.env.BENCH_API_NUMBERS ?? 2_000);
const CONNECTIONS = 32;
const GROUP = 'api';

/** Acme's loopback connection (the campaigns bench makes the same one). */
async function loopbackConnection(): Promise<number> {
  return withBenchDb(async (db) => {
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
}

export async function apiBenchmarks(options: SectionOptions): Promise<void> {
  const push = reportTo(options);
  const log = options.log ?? console.log;
  const provider = await startLoopbackProvider();
  const whatsappId = await loopbackConnection();
  const server = await startServer(options.port, {
    BALCAO_PLUGINS: LOOPBACK_PLUGIN,
    [LOOPBACK_URL_VARIABLE]: provider.url,
    // the measure is the send's own cost, not the limit's refusals
    MESSAGE_API_RATE_LIMIT: '10000000',
    CAMPAIGN_DISPATCHER: 'off',
    WHATSAPP_VERSION: '2,3000,1023223821',
    WHATSAPP_WS_URL: 'ws://127.0.0.1:9/ws/chat',
  });
  try {
    const admin = await login(server.url, 'admin@acme.test');
    const created = await fetch(`${server.url}/api/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Bench ${Date.now()}`, scopes: ['messages:send'] }),
    });
    if (created.status !== 201) throw new Error(`POST /api/api-keys: ${created.status} ${await created.text()}`);
    const key = ((await created.json()) as { key: string }).key;
    const run = `${Date.now()}`;
    let sent = 0;
    const measure = (duration: number) =>
      autocannon({
        url: `${server.url}/api/messages/send`,
        method: 'POST',
        connections: CONNECTIONS,
        duration,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (request) => {
              sent += 1;
              const number = `55119${String(sent % NUMBERS).padStart(8, '0')}`;
              return {
                ...request,
                headers: { ...request.headers, 'idempotency-key': `bench-${run}-${sent}` },
                body: JSON.stringify({ number, body: `Bench ${sent}`, whatsappId }),
              };
            },
          },
        ],
      });
    log('api: warm-up (contacts and tickets of the numbers made)…');
    await measure(5);
    // the bench database runs with autovacuum off; a live database's autovacuum would have analysed the
    // tables the warm-up filled, and without it the planner still believes Acme has no tickets (a nested loop
    // over its messages per send)
    await withBenchDb((db) => db.query('ANALYZE messages, tickets, contacts, contact_identities'));
    log('api: 15 s at 32 connections…');
    const before = provider.messages.length;
    const cpu = CpuWindow.start(server.child.pid ?? 0);
    const result = await measure(15);
    const used = cpu.end();
    const rps = result.requests.average;
    const failures = result.non2xx + result.errors + result.timeouts;
    push({
      group: GROUP,
      name: `POST /api/messages/send with an API key, loopback channel, ${CONNECTIONS} connections, 15 s (autocannon and the provider stand-in in the bench process)`,
      target: '≥ 1,000 req/s, p99 ≤ 50 ms',
      value: `${Math.round(rps).toLocaleString('en-US')} req/s, p99 ${ms(result.latency.p99)} ms`,
      ok: rps >= 1_000 && result.latency.p99 <= 50 && failures === 0,
      detail: `p50 ${ms(result.latency.p50)} ms, p97.5 ${ms(result.latency.p97_5)} ms; non-2xx/errors: ${failures}; the provider received ${provider.messages.length - before} messages; the machine is shared with other work, so figures vary between runs<br>${cpuPerRequest(used, result.requests.total)}`,
    });
  } finally {
    await server.stop();
    await provider.close();
    await withBenchDb(async (db) => {
      await db.query(`UPDATE api_keys SET revoked_at = now() WHERE name LIKE 'Bench %' AND revoked_at IS NULL`);
    });
  }
}
