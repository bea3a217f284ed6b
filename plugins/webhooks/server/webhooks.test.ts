import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { runInTenant } from '@balcao/plugin-sdk/server';
import {
  badInputWalk,
  connectSocket,
  crossTenantWalk,
  nextEvent,
  ownRoutes,
  routeContractProblems,
  seedTenantFixtures,
} from '@balcao/plugin-sdk/testing';
import { startWorker, type WorkerProcess } from '@balcao/plugin-sdk/testing/loopback';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailDisableNotices, NOTICE_RETRY_MS } from './services/disable-mail';
import { GIVE_UP_AFTER_MS, WebhookDispatcher } from './services/dispatcher';
import { ENDPOINTS_CHANGED_TOPIC, outboxOf } from './services/outbox';
import { sweepDeliveries } from './services/retention';
import { fakeClock, type WebhooksKit, webhooksKit } from './testing/kit';
import { type SmtpStandIn, startSmtpStandIn } from './testing/smtp';

/**
 * The webhooks end to end on the real core, Postgres and Redis, against a real HTTP receiver stand-in:
 * endpoints and their secret, signed deliveries checked with docs/api.md's own verification snippet,
 * retries on 500 and timeouts, the endpoint disabled after a day of failures (the dispatcher's clock is the
 * test's), the log and redelivery, the bus events mapped, a worker process killed with SIGKILL mid-delivery,
 * the refusals and the SDK's walkers (one app for all: the walk runs last, its endpoints never delivered to).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');

/** docs/api.md's verification snippet, run as written. */
type Verify = (secret: string, rawBody: string, header: string, toleranceSeconds?: number, nowSeconds?: number) => boolean;
function documentedVerifier(): Verify {
  const doc = readFileSync(path.join(ROOT, 'docs/api.md'), 'utf8');
  const snippet = /```js\n([\s\S]*?function verifyBalcaoSignature[\s\S]*?)```/.exec(doc)?.[1];
  if (!snippet) throw new Error('docs/api.md has no verification snippet');
  return new Function('require', `${snippet}\nreturn verifyBalcaoSignature;`)(createRequire(import.meta.url)) as Verify;
}

let kit: WebhooksKit;
let smtp: SmtpStandIn;
let worker: WorkerProcess | null = null;
const verify = documentedVerifier();

beforeAll(async () => {
  smtp = await startSmtpStandIn();
  kit = await webhooksKit({ smtpUrl: smtp.url });
  // the company's own address beside its admin's (the demo gives it the admin's, which is mailed once)
  await kit.knex('companies').where({ id: kit.companyId }).update({ email: 'contato@acme.test' });
});
afterAll(async () => {
  await worker?.kill9();
  await kit?.close();
  await smtp?.close();
});

async function until<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function createEndpoint(pathName: string, events: string[], name = 'Receiver') {
  const created = await kit.api('POST', '/webhooks', { name, url: `${kit.receiver.url}${pathName}`, events });
  expect(created.status).toBe(201);
  return created.body as { webhook: { id: number }; secret: string };
}

async function deliveries(id: number) {
  return (await kit.api('GET', `/webhooks/${id}/deliveries`)).body.deliveries as Array<Record<string, unknown>>;
}

const receivedOn = (pathName: string) => kit.receiver.received.filter((delivery) => delivery.path === pathName);

describe('endpoints', () => {
  it('shows the secret once, seals it, and manages the endpoint', async () => {
    const { webhook, secret } = await createEndpoint('/crud', ['ticket.created'], 'CRM');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const listed = await kit.api('GET', '/webhooks');
    expect(listed.body.webhooks).toEqual([expect.objectContaining({ id: webhook.id, name: 'CRM', active: true })]);
    expect(JSON.stringify(listed.body)).not.toContain(secret.slice(6));
    const stored = await kit.knex('webhookEndpoints').where({ id: webhook.id }).first();
    expect(stored.secretSealed).not.toContain(secret.slice(6));

    const changed = await kit.api('PUT', `/webhooks/${webhook.id}`, {
      name: 'CRM 2',
      url: `${kit.receiver.url}/crud`,
      events: ['ticket.created', 'ticket.closed'],
    });
    expect(changed.body).toMatchObject({ name: 'CRM 2', events: ['ticket.created', 'ticket.closed'] });
    const rotated = await kit.api('POST', `/webhooks/${webhook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(secret);

    expect((await kit.api('DELETE', `/webhooks/${webhook.id}`)).status).toBe(204);
    expect((await kit.api('GET', `/webhooks/${webhook.id}`)).body).toEqual({ error: 'ERR_NO_WEBHOOK_FOUND' });
  });

  it('refuses addresses it must not reach and bad bodies', async () => {
    const attempt = (url: string) => kit.api('POST', '/webhooks', { name: 'x', url, events: ['ticket.created'] });
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.5/hook',
      'http://[::1]:8080/',
      'http://[fd00:ec2::254]/',
    ]) {
      expect((await attempt(url)).body, url).toEqual({ error: 'ERR_WEBHOOK_URL_BLOCKED' });
    }
    expect((await attempt('https://user:pass@example.com/hook')).body).toEqual({ error: 'ERR_WEBHOOK_URL_INVALID' });
    expect((await attempt('https://exa mple.com/hook')).body).toEqual({ error: 'ERR_WEBHOOK_URL_INVALID' });
    expect((await attempt('ftp://example.com/hook')).status).toBe(400);
    const noEvents = await kit.api('POST', '/webhooks', { name: 'x', url: 'https://example.com/h', events: [] });
    expect(noEvents.body.error).toBe('ERR_VALIDATION');
    const unknownEvent = await kit.api('POST', '/webhooks', {
      name: 'x',
      url: 'https://example.com/h',
      events: ['ticket.deleted'],
    });
    expect(unknownEvent.body.error).toBe('ERR_VALIDATION');
    expect(await kit.knex('webhookEndpoints').where({ name: 'x' })).toEqual([]);
  });

  it('refuses an endpoint past the per-company limit, switched-off ones counted', async () => {
    // the test app's configuration, lowered for this test only
    const config = kit.ctx.config as { WEBHOOKS_MAX_PER_COMPANY: number };
    const limit = config.WEBHOOKS_MAX_PER_COMPANY;
    config.WEBHOOKS_MAX_PER_COMPANY = 2;
    const made: number[] = [];
    try {
      made.push((await createEndpoint('/cap', ['ticket.created'])).webhook.id);
      const off = await kit.api('POST', '/webhooks', {
        name: 'Off',
        url: `${kit.receiver.url}/cap`,
        events: ['ticket.created'],
        active: false,
      });
      made.push(off.body.webhook.id);
      const over = await kit.api('POST', '/webhooks', {
        name: 'Over',
        url: `${kit.receiver.url}/cap`,
        events: ['ticket.created'],
      });
      expect(over).toEqual({ status: 409, body: { error: 'ERR_WEBHOOK_LIMIT_REACHED' } });
      expect(await kit.knex('webhookEndpoints').where({ companyId: kit.companyId, name: 'Over' })).toEqual([]);
    } finally {
      config.WEBHOOKS_MAX_PER_COMPANY = limit;
      for (const id of made) await kit.api('DELETE', `/webhooks/${id}`);
    }
  });

  it('is for admins of a plan with useExternalApi only, and keeps deliveries to their endpoint', async () => {
    const agent = await kit.t.login('agent@acme.test');
    expect((await kit.api('GET', '/webhooks', undefined, agent.token)).status).toBe(403);
    const lite = await kit.t.login('admin@lite.test');
    expect((await kit.api('GET', '/webhooks', undefined, lite.token)).body).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED' });

    const first = await createEndpoint('/one', ['ticket.created']);
    const second = await createEndpoint('/two', ['ticket.created']);
    const delivery = (await kit.api('POST', `/webhooks/${first.webhook.id}/test`)).body;
    // a delivery named through another endpoint's path is not found
    const crossed = await kit.api('POST', `/webhooks/${second.webhook.id}/deliveries/${delivery.id}/redeliver`);
    expect(crossed.body).toEqual({ error: 'ERR_NO_WEBHOOK_DELIVERY_FOUND' });
    await kit.api('DELETE', `/webhooks/${first.webhook.id}`);
    await kit.api('DELETE', `/webhooks/${second.webhook.id}`);
  });
});

describe('deliveries', () => {
  it('signs an event so that the documented snippet verifies it', async () => {
    const { webhook, secret } = await createEndpoint('/signed', ['contact.created']);
    const contact = await kit.api('POST', '/contacts', { name: 'Webhook Person', number: '5511987650001' });
    expect(contact.status).toBe(201);
    expect(await kit.dispatcher.runOnce()).toBe(1);

    const [received] = receivedOn('/signed');
    if (!received) throw new Error('nothing received');
    const body = JSON.parse(received.rawBody);
    expect(body).toEqual({
      id: received.headers['balcao-delivery'],
      event: 'contact.created',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      companyId: kit.companyId,
      data: { contactId: contact.body.id },
    });
    expect(received.headers['balcao-event']).toBe('contact.created');
    expect(received.headers['content-type']).toBe('application/json');
    const header = received.headers['balcao-signature'] ?? '';
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(secret, received.rawBody, header)).toBe(true);
    // another secret, an altered body or an old delivery replayed is refused by the same code
    expect(verify(`${secret}x`, received.rawBody, header)).toBe(false);
    expect(verify(secret, received.rawBody.replace('contact.created', 'contact.createe'), header)).toBe(false);
    expect(verify(secret, received.rawBody, header, 300, Date.now() / 1000 + 301)).toBe(false);

    expect(await deliveries(webhook.id)).toEqual([
      expect.objectContaining({
        event: 'contact.created',
        status: 'delivered',
        attempts: 1,
        responseStatus: 200,
        nextAttemptAt: null,
      }),
    ]);
    await kit.api('DELETE', `/webhooks/${webhook.id}`);
  });

  it('retries a 500 and a timeout on the schedule, with one delivery id, then delivers', async () => {
    const { webhook } = await createEndpoint('/flaky', ['ticket.created']);
    kit.receiver.behave('/flaky', { status: 500 });
    await kit.api('POST', `/webhooks/${webhook.id}/test`);
    const clock = fakeClock(new Date());
    kit.dispatcher.clock = clock;
    const quick = new WebhookDispatcher(kit.ctx, { ...kit.dispatcher.options, timeoutMs: 300 });
    quick.clock = clock;
    try {
      expect(await kit.dispatcher.runOnce()).toBe(1);
      let [log] = await deliveries(webhook.id);
      expect(log).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500, error: 'status' });
      expect(Date.parse(String(log?.nextAttemptAt)) - clock.now().getTime()).toBe(60_000);
      // not due yet
      expect(await kit.dispatcher.runOnce()).toBe(0);

      kit.receiver.behave('/flaky', { status: 200, delayMs: 3_000 });
      clock.advance(60_000);
      expect(await quick.runOnce()).toBe(1);
      [log] = await deliveries(webhook.id);
      expect(log).toMatchObject({ status: 'pending', attempts: 2, responseStatus: null, error: 'timeout' });
      expect(Date.parse(String(log?.nextAttemptAt)) - clock.now().getTime()).toBe(5 * 60_000);

      kit.receiver.behave('/flaky', { status: 204 });
      clock.advance(5 * 60_000);
      expect(await kit.dispatcher.runOnce()).toBe(1);
      [log] = await deliveries(webhook.id);
      expect(log).toMatchObject({ status: 'delivered', attempts: 3, responseStatus: 204, error: null });
      const ids = new Set(receivedOn('/flaky').map((delivery) => delivery.headers['balcao-delivery']));
      expect(receivedOn('/flaky')).toHaveLength(3);
      expect(ids.size).toBe(1);
    } finally {
      await quick.close();
      await kit.api('DELETE', `/webhooks/${webhook.id}`);
    }
  });

  it('gives a delivery up after 24 h and disables an endpoint failing for 24 h, telling its admins', async () => {
    const { webhook } = await createEndpoint('/down', ['ticket.created']);
    kit.receiver.behave('/down', { status: 503 });
    await kit.api('POST', `/webhooks/${webhook.id}/test`);
    const start = new Date();
    const clock = fakeClock(start);
    kit.dispatcher.clock = clock;
    const url = await kit.t.listen();
    const socket: Socket = await connectSocket(url, kit.companyId, kit.adminToken);
    try {
      // every retry of the first delivery, each when it falls due
      for (;;) {
        expect(await kit.dispatcher.runOnce()).toBe(1);
        const [log] = await deliveries(webhook.id);
        if (log?.status !== 'pending') break;
        clock.advance(Date.parse(String(log.nextAttemptAt)) - clock.now().getTime());
      }
      const [given] = await deliveries(webhook.id);
      // 0, 1 min, 6 min, 36 min, 2 h 36, 6 h 36, 14 h 36, 22 h 36: the next would be past the day
      expect(given).toMatchObject({ status: 'failed', attempts: 8, nextAttemptAt: null });
      expect((await kit.api('GET', `/webhooks/${webhook.id}`)).body.active).toBe(true);

      // a day after its first failure, one more failure switches it off
      clock.advance(start.getTime() + GIVE_UP_AFTER_MS - clock.now().getTime());
      await kit.api('POST', `/webhooks/${webhook.id}/test`);
      const told = nextEvent<{ action: string; webhook: { id: number } }>(
        socket,
        `company-${kit.companyId}-webhook`,
        (payload) => payload.action === 'disabled',
      );
      expect(await kit.dispatcher.runOnce()).toBe(1);
      expect((await told).webhook.id).toBe(webhook.id);
      const off = (await kit.api('GET', `/webhooks/${webhook.id}`)).body;
      expect(off).toMatchObject({ active: false, disabledAt: clock.now().toISOString() });

      // and by e-mail, through the test app's worker (the job the disable enqueued), in Portuguese: the
      // endpoint was saved without a language; the admin and the company's address, nobody else
      const mails = await until(() => {
        const got = smtp.inbox.filter((mail) => mail.text.includes(`${kit.receiver.url}/down`));
        return got.length >= 2 && got;
      }, 'the disable mails');
      expect(mails.map((mail) => mail.to).sort()).toEqual(['admin@acme.test', 'contato@acme.test']);
      expect(mails[0]?.subject).toBe('Balcão — um webhook foi desativado após falhar por 24 horas');
      expect(mails[0]?.text).toContain('O webhook "Receiver" da empresa Acme');
      // the job marks the notice sent once the mail server has taken both: the mails may arrive first
      const notice = await until(async () => {
        const [row] = await kit.knex('webhookDisableNotices').where({ endpointId: webhook.id });
        return row?.status === 'sent' && row;
      }, 'the notice marked sent');
      expect(notice).toMatchObject({ status: 'sent', error: null, attempts: 1 });
      // once per disable: another pass, with time gone by, mails nothing more
      expect(await mailDisableNotices(kit.ctx, fakeClock(new Date(Date.now() + 3_600_000)))).toBe(0);
      expect(smtp.inbox.filter((mail) => mail.text.includes(`${kit.receiver.url}/down`))).toHaveLength(2);

      // off: a test is refused (nothing would send it); a redelivery waits unsent; switched on again, it goes
      expect(await kit.api('POST', `/webhooks/${webhook.id}/test`)).toEqual({
        status: 409,
        body: { error: 'ERR_WEBHOOK_INACTIVE' },
      });
      const again = await kit.api('POST', `/webhooks/${webhook.id}/deliveries/${given?.id}/redeliver`);
      expect(again.status).toBe(201);
      const sent = receivedOn('/down').length;
      expect(await kit.dispatcher.runOnce()).toBe(0);
      kit.receiver.behave('/down', { status: 200 });
      const on = await kit.api('PUT', `/webhooks/${webhook.id}`, {
        name: 'Receiver',
        url: `${kit.receiver.url}/down`,
        events: ['ticket.created'],
        active: true,
      });
      expect(on.body).toMatchObject({ active: true, failingSince: null, disabledAt: null });
      expect(await kit.dispatcher.runOnce()).toBe(1);
      expect(receivedOn('/down')).toHaveLength(sent + 1);
    } finally {
      socket.close();
      await kit.api('DELETE', `/webhooks/${webhook.id}`);
    }
  });

  it("mails a disable in the saving admin's language, and tries an address the mail server refused again", async () => {
    // saved from an interface in Spanish: the endpoint keeps the language for its mail
    const created = await kit.t.inject({
      method: 'POST',
      url: '/api/webhooks',
      token: kit.adminToken,
      headers: { 'accept-language': 'es-ES,es;q=0.9,en;q=0.8' },
      payload: { name: 'CRM es', url: `${kit.receiver.url}/es`, events: ['ticket.created'] },
    });
    const endpointId = created.json().webhook.id as number;
    expect((await kit.knex('webhookEndpoints').where({ id: endpointId }).first()).language).toBe('es');
    // the disable as the dispatcher writes it, due in an hour: only this test's clock reaches it
    const later = fakeClock(new Date(Date.now() + 3_600_000));
    const [notice] = await kit
      .knex('webhookDisableNotices')
      .insert({
        companyId: kit.companyId,
        endpointId,
        endpointName: 'CRM es',
        endpointUrl: `${kit.receiver.url}/es`,
        language: 'es',
        disabledAt: new Date(),
        nextAttemptAt: later.now(),
      })
      .returning('id');
    const ofThis = () => smtp.inbox.filter((mail) => mail.text.includes(`${kit.receiver.url}/es`));
    smtp.refuse.add('contato@acme.test');
    try {
      expect(await mailDisableNotices(kit.ctx, later)).toBe(1);
      let row = await kit.knex('webhookDisableNotices').where({ id: notice.id }).first();
      expect(row).toMatchObject({ status: 'pending', attempts: 1, mailedTo: ['admin@acme.test'] });
      expect(row.error).toMatch(/450|mailbox unavailable/);
      expect(new Date(row.nextAttemptAt).getTime() - later.now().getTime()).toBe(NOTICE_RETRY_MS[0]);
      expect(ofThis().map((mail) => mail.to)).toEqual(['admin@acme.test']);
      expect(ofThis()[0]?.subject).toBe('Balcão — un webhook fue desactivado tras fallar durante 24 horas');
      expect(ofThis()[0]?.text).toContain('El webhook "CRM es" de la empresa Acme');

      // not due before its wait; then the refused address only
      expect(await mailDisableNotices(kit.ctx, later)).toBe(0);
      smtp.refuse.delete('contato@acme.test');
      later.advance(NOTICE_RETRY_MS[0] ?? 0);
      expect(await mailDisableNotices(kit.ctx, later)).toBe(1);
      row = await kit.knex('webhookDisableNotices').where({ id: notice.id }).first();
      expect(row).toMatchObject({ status: 'sent', attempts: 2, error: null });
      expect(ofThis().map((mail) => mail.to)).toEqual(['admin@acme.test', 'contato@acme.test']);
      expect(smtp.inbox.some((mail) => mail.to.endsWith('@lite.test'))).toBe(false);
    } finally {
      smtp.refuse.clear();
      await kit.api('DELETE', `/webhooks/${endpointId}`);
    }
  });

  it('never sends a delivery past its day, fails it, and prunes final rows past the retention', async () => {
    const { webhook } = await createEndpoint('/stale', ['ticket.created']);
    const body = { name: 'Receiver', url: `${kit.receiver.url}/stale`, events: ['ticket.created'] };
    await kit.api('POST', `/webhooks/${webhook.id}/test`);
    // switched off before it went out, and on again a day and a minute later
    await kit.api('PUT', `/webhooks/${webhook.id}`, { ...body, active: false });
    const clock = fakeClock(new Date(Date.now() + GIVE_UP_AFTER_MS + 60_000));
    kit.dispatcher.clock = clock;
    try {
      await kit.api('PUT', `/webhooks/${webhook.id}`, { ...body, active: true });
      expect(await kit.dispatcher.runOnce()).toBe(0);
      expect(receivedOn('/stale')).toEqual([]);
      expect(await sweepDeliveries(kit.ctx, clock.now())).toMatchObject({ expired: 1 });
      const [expired] = await deliveries(webhook.id);
      expect(expired).toMatchObject({ status: 'failed', error: 'expired', attempts: 0, nextAttemptAt: null });

      // kept for WEBHOOKS_RETENTION_DAYS, then deleted with its data
      kit.dispatcher.clock = { now: () => new Date() };
      const days = (count: number) => new Date(Date.now() + count * 86_400_000);
      const retention = kit.ctx.config.WEBHOOKS_RETENTION_DAYS;
      expect(await sweepDeliveries(kit.ctx, days(retention - 1))).toEqual({ expired: 0, pruned: 0 });
      expect(await sweepDeliveries(kit.ctx, days(retention + 1))).toEqual({ expired: 0, pruned: 1 });
      expect(await deliveries(webhook.id)).toEqual([]);
    } finally {
      await kit.api('DELETE', `/webhooks/${webhook.id}`);
    }
  });

  it('pages the log and redelivers as a new delivery', async () => {
    const { webhook } = await createEndpoint('/log', ['ticket.created']);
    kit.dispatcher.clock = { now: () => new Date() };
    for (let index = 0; index < 21; index += 1) await kit.api('POST', `/webhooks/${webhook.id}/test`);
    const first = (await kit.api('GET', `/webhooks/${webhook.id}/deliveries`)).body;
    expect(first).toMatchObject({ count: 21, hasMore: true });
    expect(first.deliveries).toHaveLength(20);
    const second = (await kit.api('GET', `/webhooks/${webhook.id}/deliveries?pageNumber=2`)).body;
    expect(second).toMatchObject({ count: 21, hasMore: false });
    expect(second.deliveries).toHaveLength(1);
    while ((await kit.dispatcher.runOnce()) > 0);

    const original = second.deliveries[0];
    const again = await kit.api('POST', `/webhooks/${webhook.id}/deliveries/${original.id}/redeliver`);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ event: 'webhook.test', status: 'pending', redeliveryOf: original.id });
    expect(again.body.uuid).not.toBe(original.uuid);
    expect(await kit.dispatcher.runOnce()).toBe(1);
    const redelivered = receivedOn('/log').at(-1);
    expect(redelivered?.headers['balcao-delivery']).toBe(again.body.uuid);
    expect(JSON.parse(redelivered?.rawBody ?? '{}').data).toEqual({ webhookId: webhook.id, name: 'Receiver' });
    await kit.api('DELETE', `/webhooks/${webhook.id}`);
  });

  it('keeps delivering to other endpoints while one holds its requests', async () => {
    const slow = await createEndpoint('/slowpoke', ['ticket.created']);
    const fast = await createEndpoint('/quick', ['ticket.created']);
    kit.receiver.behave('/slowpoke', 'hang');
    // two for the hung receiver, first in line: one at a time goes to it, the other waits its turn
    await kit.api('POST', `/webhooks/${slow.webhook.id}/test`);
    await kit.api('POST', `/webhooks/${slow.webhook.id}/test`);
    for (let index = 0; index < 3; index += 1) await kit.api('POST', `/webhooks/${fast.webhook.id}/test`);
    // one lane of two slots: the hung request keeps one, the other carries every fast delivery in turn
    const lane = new WebhookDispatcher(kit.ctx, {
      lanes: 1,
      batch: 2,
      leaseMs: 30_000,
      timeoutMs: 3_000,
      endpointConcurrency: 1,
    });
    lane.start();
    try {
      await kit.receiver.waitFor(() => receivedOn('/quick').length === 3, 2_500);
      expect(receivedOn('/slowpoke')).toHaveLength(1);
      expect((await deliveries(slow.webhook.id)).map((row) => row.attempts).sort()).toEqual([0, 1]);
    } finally {
      await lane.close();
    }
    expect((await deliveries(slow.webhook.id)).map((row) => row.error)).toContain('timeout');
    await kit.api('DELETE', `/webhooks/${slow.webhook.id}`);
    await kit.api('DELETE', `/webhooks/${fast.webhook.id}`);
  });

  it("turns the bus's events into deliveries for subscribed endpoints only", async () => {
    const closedOnly = await createEndpoint('/closed', ['ticket.closed']);
    const updates = await createEndpoint('/updates', ['ticket.updated', 'message.received']);
    const ticket = { companyId: kit.companyId, ticketId: 77, userId: 3, queueId: null, whatsappId: null, isGroup: false };
    await runInTenant({ companyId: kit.companyId }, async () => {
      await kit.ctx.events.publish('ticket.updated', { ...ticket, status: 'open', previousStatus: 'pending' });
      await kit.ctx.events.publish('ticket.updated', { ...ticket, status: 'closed', previousStatus: 'open' });
    });
    expect((await deliveries(closedOnly.webhook.id)).map((row) => row.event)).toEqual(['ticket.closed']);
    expect((await deliveries(updates.webhook.id)).map((row) => row.event)).toEqual(['ticket.updated', 'ticket.updated']);
    const [row] = await kit.knex('webhookDeliveries').where({ endpointId: closedOnly.webhook.id });
    expect(row.data).toEqual({
      ticketId: 77,
      status: 'closed',
      previousStatus: 'open',
      userId: 3,
      queueId: null,
      whatsappId: null,
      isGroup: false,
    });
    await kit.api('DELETE', `/webhooks/${closedOnly.webhook.id}`);
    await kit.api('DELETE', `/webhooks/${updates.webhook.id}`);
  });
  it('writes no statement for an event no endpoint subscribes to, and follows endpoint changes of any process', async () => {
    const publish = (event: 'contact.created' | 'ticket.updated', contactId: number) =>
      runInTenant({ companyId: kit.companyId }, () =>
        event === 'contact.created'
          ? kit.ctx.events.publish('contact.created', { companyId: kit.companyId, contactId })
          : kit.ctx.events.publish('ticket.updated', {
              companyId: kit.companyId,
              ticketId: contactId,
              userId: null,
              queueId: null,
              whatsappId: null,
              isGroup: false,
              status: 'closed',
              previousStatus: 'open',
            }),
      );
    const statements = () => outboxOf(kit.ctx).batcher.stats.statements;
    const before = statements();
    await publish('contact.created', 901);
    await publish('contact.created', 902);
    expect(statements()).toBe(before);

    // made through the API: this process knows at once
    const { webhook } = await createEndpoint('/contacts', ['contact.created']);
    await publish('contact.created', 903);
    expect(await kit.knex('webhookDeliveries').where({ endpointId: webhook.id }).pluck('data')).toEqual([{ contactId: 903 }]);
    expect(statements()).toBe(before + 1);

    // changed by another process: its notice arrives over Redis, well before the cache's own expiry
    await kit
      .knex('webhookEndpoints')
      .where({ id: webhook.id })
      .update({ events: ['ticket.closed'] });
    await kit.ctx.broadcast.publish(ENDPOINTS_CHANGED_TOPIC, { companyId: kit.companyId });
    await until(
      async () => {
        await publish('ticket.updated', 904);
        return (await deliveries(webhook.id)).some((row) => row.event === 'ticket.closed');
      },
      'the change notice',
      2_000,
    );

    // deleted: nothing subscribes any more, nothing is written
    await kit.api('DELETE', `/webhooks/${webhook.id}`);
    const after = statements();
    await publish('ticket.updated', 905);
    expect(statements()).toBe(after);
  });
});

describe('a worker killed with SIGKILL mid-delivery', () => {
  it('loses nothing: every delivery arrives at least once, repeats carry the same id', { timeout: 90_000 }, async () => {
    const { webhook } = await createEndpoint('/crash', ['ticket.created']);
    const DELIVERIES = 30;
    for (let index = 0; index < DELIVERIES; index += 1) await kit.api('POST', `/webhooks/${webhook.id}/test`);
    // the receiver takes the first requests and never answers them; the first one kills the worker
    kit.receiver.behave('/crash', 'hang');
    const started = startWorker(kit.t, {
      OUTBOUND_HTTP_ALLOW: '127.0.0.1',
      WEBHOOKS_LEASE_MS: '1500',
      WEBHOOKS_LANES: '1',
      WEBHOOKS_BATCH: '5',
    });
    worker = started;
    const killed = new Promise<void>((resolve) => {
      kit.receiver.onRequest = (delivery) => {
        if (delivery.path !== '/crash') return;
        kit.receiver.onRequest = null;
        started.child.kill('SIGKILL');
        resolve();
      };
    });
    // it may deliver before it logs that it is ready: wait for the kill, or for a start that failed
    let dead = false;
    void killed.then(() => {
      dead = true;
    });
    await Promise.race([
      killed,
      started.ready.then(
        () => killed,
        (error: unknown) => (dead ? undefined : Promise.reject(error)),
      ),
    ]);
    await started.kill9();
    const inFlight = receivedOn('/crash').length;
    expect(inFlight).toBeGreaterThan(0);

    // a restarted dispatcher (this app's) takes the dead worker's claims over once their lease passes
    kit.receiver.behave('/crash', { status: 200 });
    kit.dispatcher.clock = { now: () => new Date() };
    kit.dispatcher.start();
    try {
      await expect
        .poll(
          async () =>
            Number(
              (await kit.knex('webhookDeliveries').where({ endpointId: webhook.id, status: 'delivered' }).count({ n: '*' }))[0]
                ?.n,
            ),
          {
            timeout: 30_000,
          },
        )
        .toBe(DELIVERIES);
    } finally {
      await kit.dispatcher.stop();
    }
    const stored = await kit.knex('webhookDeliveries').where({ endpointId: webhook.id }).pluck('uuid');
    const received = receivedOn('/crash').map((delivery) => delivery.headers['balcao-delivery']);
    expect(new Set(received)).toEqual(new Set(stored));
    // the ones the worker had sent when it died came twice, with the same id: the receiver's dedupe key
    expect(received.length).toBeGreaterThanOrEqual(DELIVERIES + 1);
    expect(received.length - new Set(received).size).toBeGreaterThanOrEqual(1);
    await kit.api('DELETE', `/webhooks/${webhook.id}`);
  });
});

describe('the SDK walkers', () => {
  it('keep the route contract, tenants apart and bad input refused', { timeout: 240_000 }, async () => {
    expect(routeContractProblems(kit.t, ownRoutes('webhooks'))).toEqual([]);
    const fixtures = await seedTenantFixtures(kit.t);
    const tenants = await crossTenantWalk(kit.t, fixtures, ownRoutes('webhooks'));
    for (const found of [
      tenants.gaps,
      tenants.control,
      tenants.lists,
      tenants.reads,
      tenants.writes,
      tenants.otherWrites,
      tenants.foreignIds,
    ])
      expect(found).toEqual([]);
    const input = await badInputWalk(kit.t, fixtures, ownRoutes('webhooks'));
    expect([...input.unbuildable, ...input.failures]).toEqual([]);
  });
});
