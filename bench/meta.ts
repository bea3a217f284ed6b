/**
 * `npm run bench -- meta`: the Meta channels' webhook targets (issue 29) on the server bundle against the
 * bench database, with the Graph stand-in (plugins/meta/server/testing) in the bench process. A WhatsApp
 * Cloud connection of Acme is connected through the API (its token checked against the stand-in); then
 * the stand-in delivers signed webhooks of 100 messages each at 1,500 messages/s (one delivery every
 * 66.7 ms) for DURATION_S seconds, from a pool of contacts. Measured: the webhook's answer time, the time
 * from a delivery's start to each of its messages reaching the admin's socket (`appMessage` create), and
 * that every message is stored exactly once.
 */
import { companySocket } from '@balcao/plugin-sdk/testing';
import { GraphStandIn } from '../plugins/meta/server/testing/graph-stand-in';
import { CpuWindow, cpuPerRequest, login, ms, percentile, reportTo, type SectionOptions, startServer, withBenchDb } from './lib';

const GROUP = 'meta';
const PER_DELIVERY = 100;
const RATE = 1_500;
const DURATION_S = Number(process.env.BENCH_META_SECONDS ?? 10);
const CONTACTS = 1_000;

export async function metaBenchmarks(options: SectionOptions): Promise<void> {
  const push = reportTo(options);
  const log = options.log ?? console.log;
  const graph = new GraphStandIn();
  await graph.start();
  const phone = graph.addPhoneNumber();
  const server = await startServer(options.port, {
    META_GRAPH_URL: graph.url,
    META_APP_ID: graph.app.id,
    META_APP_SECRET: graph.app.secret,
    META_VERIFY_TOKEN: graph.app.verifyToken,
    OUTBOUND_HTTP_ALLOW: '127.0.0.1/32',
    META_SECRETS_KEY: 'fedcba9876543210'.repeat(4),
    WHATSAPP_WS_URL: 'ws://127.0.0.1:9/ws/chat',
  });
  const api = `${server.url}/api`;
  const socket = { current: null as ReturnType<typeof companySocket> | null };
  try {
    const admin = await login(server.url, 'admin@acme.test');
    const headers = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' };
    const created = await fetch(`${api}/whatsapp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: `Bench Cloud ${Date.now()}`,
        channel: 'whatsappapi',
        channelConfig: { phoneNumberId: phone.id, businessAccountId: phone.businessAccountId, token: phone.token },
      }),
    });
    if (created.status !== 201) throw new Error(`POST /whatsapp: ${created.status} ${await created.text()}`);
    const connection = (await created.json()) as { id: number; companyId: number };
    const started = await fetch(`${api}/whatsappsession/${connection.id}`, {
      method: 'POST',
      headers: { authorization: headers.authorization },
    });
    if (started.status !== 200) throw new Error(`POST /whatsappsession: ${started.status} ${await started.text()}`);

    const run = Date.now().toString(36);
    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    let seen = 0;
    let duplicates = 0;
    const arrived = new Set<string>();
    let allArrived: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      allArrived = resolve;
    });
    const total = Math.round((RATE * DURATION_S) / PER_DELIVERY) * PER_DELIVERY;
    const live = companySocket(server.url, connection.companyId, admin);
    socket.current = live;
    await new Promise<void>((resolve, reject) => {
      live.once('connect', () => resolve());
      live.once('connect_error', reject);
    });
    live.on(`company-${connection.companyId}-appMessage`, (event: { action: string; message?: { body: string } }) => {
      if (event.action !== 'create' || !event.message?.body.startsWith(`bench ${run} `)) return;
      const key = event.message.body;
      if (arrived.has(key)) {
        duplicates += 1;
        return;
      }
      arrived.add(key);
      const at = sentAt.get(key);
      if (at !== undefined) latencies.push(performance.now() - at);
      seen += 1;
      if (seen === total) allArrived();
    });

    const answers: number[] = [];
    const statuses = new Map<number, number>();
    const deliveries = total / PER_DELIVERY;
    const intervalMs = (PER_DELIVERY / RATE) * 1000;
    const cpu = CpuWindow.start(server.child.pid ?? 0);
    const began = performance.now();
    log(`meta: ${deliveries} deliveries of ${PER_DELIVERY} messages at ${RATE} msg/s…`);
    const inFlight: Promise<void>[] = [];
    for (let index = 0; index < deliveries; index++) {
      const due = began + index * intervalMs;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const messages = Array.from({ length: PER_DELIVERY }, (_, offset) => {
        const n = index * PER_DELIVERY + offset;
        const from = `55119${String(n % CONTACTS).padStart(8, '0')}`;
        return {
          from,
          id: `wamid.bench.${run}.${n}`,
          timestamp: String(Math.floor(Date.now() / 1000)),
          type: 'text',
          text: { body: `bench ${run} ${n}` },
        };
      });
      const payload = {
        object: 'whatsapp_business_account',
        entry: [
          {
            id: phone.businessAccountId,
            changes: [
              { field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: phone.id }, messages } },
            ],
          },
        ],
      };
      const at = performance.now();
      for (const message of messages) sentAt.set(message.text.body, at);
      inFlight.push(
        graph.deliver(`${api}/meta/webhooks/whatsapp`, payload).then((answer) => {
          answers.push(answer.ms);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        }),
      );
    }
    await Promise.all(inFlight);
    const sendSeconds = (performance.now() - began) / 1000;
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 60_000))]);
    const used = cpu.end();

    const stored = await withBenchDb(async (db) => {
      const rows = await db.query(
        `SELECT count(*)::int AS count, count(DISTINCT channel_message_id)::int AS distinct FROM messages WHERE whatsapp_id = $1 AND channel_message_id LIKE $2`,
        [connection.id, `wamid.bench.${run}.%`],
      );
      return rows.rows[0] as { count: number; distinct: number };
    });
    const storedOnce = stored.count === total && stored.distinct === total && duplicates === 0;
    const answerP99 = percentile(answers, 99);
    const socketP99 = percentile(latencies, 99);
    const accepted = statuses.get(200) ?? 0;
    push({
      group: GROUP,
      name: `WhatsApp Cloud webhook: ${deliveries} signed deliveries of ${PER_DELIVERY} messages at ${RATE.toLocaleString('en-US')} messages/s from ${CONTACTS.toLocaleString('en-US')} contacts (the stand-in in the bench process)`,
      target: 'answer p99 ≤ 50 ms',
      value: `answer p99 ${ms(answerP99)} ms`,
      ok: answerP99 <= 50 && accepted === deliveries,
      detail: `p50 ${ms(percentile(answers, 50))} ms; ${accepted} of ${deliveries} answered 200; sent in ${sendSeconds.toFixed(1)} s`,
    });
    push({
      group: GROUP,
      name: 'The same messages, delivery → stored → the admin socket (appMessage create)',
      target: 'every message stored once, p99 ≤ 100 ms',
      value: `${seen.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} on the socket, p99 ${ms(socketP99)} ms`,
      ok: storedOnce && seen === total && socketP99 <= 100,
      detail: `p50 ${ms(percentile(latencies, 50))} ms, p95 ${ms(percentile(latencies, 95))} ms; stored ${stored.count} rows, ${stored.distinct} distinct ids, ${duplicates} duplicate events<br>${cpuPerRequest(used, seen).replace('per request', 'per message')}; the machine is shared with other work, so figures vary between runs`,
    });
  } finally {
    socket.current?.close();
    await server.stop();
    await graph.close();
  }
}
