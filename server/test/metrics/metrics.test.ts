import type { AddressInfo } from 'node:net';
import { runInTenant } from '@balcao/plugin-sdk/server';
import { connectSocket, createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureInbound, inboxServiceOf, registerFixtureDriver } from '../../../modules/inbox/server/testing/fixture-driver';
import { registerMetricsRoute } from '../../src/metrics/metrics-routes';
import { listenWorkerHttp } from '../../src/platform/worker-http';

/**
 * `GET /metrics` (docs/operations.md "Metrics") on one app with `METRICS_TOKEN` set: the token, the
 * core's metrics (latency by route pattern, sockets, queue depths, jobs, event-loop lag) and the inbox's
 * message counters, counted where every message passes; and a worker's own small listener.
 */
const TOKEN = 'metrics-test-token-0123456789abcdef';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { metricsToken: TOKEN } });
});
afterAll(async () => {
  await t?.close();
});

async function scrape(): Promise<string> {
  const response = await t.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
}

/** The value of the first sample of `name` carrying every label given, or 0 when no such series exists yet. */
async function sample(name: string, labels: Record<string, string> = {}, text?: string): Promise<number> {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = (text ?? (await scrape()))
    .split('\n')
    .find((row) => row.startsWith(`${name}{`) && wanted.every((pair) => row.slice(0, row.indexOf('}')).includes(pair)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('the metrics route', () => {
  it('answers 401 without the token or with another, and 404 on a process without METRICS_TOKEN', async () => {
    expect((await t.inject({ method: 'GET', url: '/metrics' })).json()).toEqual({ error: 'ERR_UNAUTHENTICATED' });
    const wrong = await t.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
    // a session's token is not the scraper's
    const admin = await t.login('admin@acme.test');
    expect((await t.inject({ method: 'GET', url: '/metrics', token: admin.token })).statusCode).toBe(401);

    const bare = Fastify();
    registerMetricsRoute(bare, null, null);
    const absent = await bare.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect([absent.statusCode, absent.json()]).toEqual([404, { error: 'ERR_NOT_FOUND' }]);
    await bare.close();
  });

  it('times requests by route pattern, never by raw URL, and counts unmatched ones together', async () => {
    const admin = await t.login('admin@acme.test');
    for (const id of [999_001, 999_002]) {
      expect((await t.inject({ method: 'GET', url: `${t.config.apiPrefix}/tickets/${id}`, token: admin.token })).statusCode).toBe(
        404,
      );
    }
    await t.inject({ method: 'GET', url: `${t.config.apiPrefix}/no-such-route-${Date.now()}` });
    const text = await scrape();
    const route = `${t.config.apiPrefix}/tickets/:id`;
    expect(await sample('balcao_http_request_duration_seconds_count', { method: 'GET', route, status_code: '404' }, text)).toBe(
      2,
    );
    expect(text).not.toContain('999001');
    expect(text).not.toContain('no-such-route');
    expect(await sample('balcao_http_request_duration_seconds_count', { route: 'unmatched' }, text)).toBeGreaterThanOrEqual(1);
    // every series says which role of process it comes from; Node's event-loop lag is there
    expect(text).toMatch(/^balcao_http_request_duration_seconds_count\{[^}]*role="all"/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds\{role="all"\} \d/m);
  });

  it('counts socket connections and reports every queue depth', async () => {
    const url = await t.listen();
    const admin = await t.login('admin@acme.test');
    const before = await sample('balcao_socket_connections');
    const socket = await connectSocket(url, t.demo.companies.acme, admin.token);
    try {
      expect(await sample('balcao_socket_connections')).toBe(before + 1);
    } finally {
      socket.close();
    }
    const text = await scrape();
    for (const state of ['waiting', 'active', 'delayed', 'failed']) {
      expect(text).toContain(`balcao_job_queue_depth{queue="inbox",state="${state}",role="all"}`);
    }
    // a worker-capable process declares its WhatsApp sessions gauge (none run here)
    expect(text).toContain('# TYPE balcao_whatsapp_sessions gauge');
  });
});

describe('message counters', () => {
  it('counts a stored inbound message once per channel, not its redelivery', async () => {
    const acme = t.demo.companies.acme;
    const before = await sample('balcao_messages_inbound_total', { channel: 'webchat' });
    const input = fixtureInbound(acme, 7001, { channel: 'webchat', number: '5511977770001', body: 'olá' });
    expect((await inboxServiceOf(t).receive(input)).created).toBe(true);
    expect((await inboxServiceOf(t).receive(input)).created).toBe(false);
    expect(await sample('balcao_messages_inbound_total', { channel: 'webchat' })).toBe(before + 1);
  });

  it('counts outbound delivery attempts by channel and outcome, and the delivery jobs that ran them', async () => {
    const acme = t.demo.companies.acme;
    const { driver, unregister } = registerFixtureDriver(t, 'whatsapp');
    try {
      const received = await inboxServiceOf(t).receive(fixtureInbound(acme, 7002, { number: '5511977770002' }));
      const sent = { channel: 'whatsapp', status: 'sent' };
      const failed = { channel: 'whatsapp', status: 'failed' };
      const job = { queue: 'inbox', job: 'deliver-message', outcome: 'completed' };
      const [sentBefore, failedBefore, jobsBefore] = [
        await sample('balcao_messages_outbound_total', sent),
        await sample('balcao_messages_outbound_total', failed),
        await sample('balcao_jobs_total', job),
      ];
      const send = (body: string) =>
        runInTenant({ companyId: acme }, () => inboxServiceOf(t).send({ ticketId: received.ticketId, body }));
      await send('um');
      await expect.poll(() => sample('balcao_messages_outbound_total', sent)).toBe(sentBefore + 1);
      driver.failNext(1);
      await send('dois');
      await expect.poll(() => sample('balcao_messages_outbound_total', failed)).toBe(failedBefore + 1);
      expect(await sample('balcao_messages_outbound_total', sent)).toBe(sentBefore + 1);
      await expect.poll(() => sample('balcao_jobs_total', job)).toBe(jobsBefore + 2);
    } finally {
      unregister();
    }
  });
});

describe("a worker's listener", () => {
  it('answers /healthz, /readyz and /metrics (with the token) through the app, and 404 to anything else', async () => {
    const server = await listenWorkerHttp(t.balcao.app, '127.0.0.1', 0);
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ok', db: 'ok', redis: 'ok' });
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('balcao_job_queue_depth');
      expect((await fetch(`${base}${t.config.apiPrefix}/plugins`)).status).toBe(404);
      expect((await fetch(`${base}/healthz`, { method: 'POST' })).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
