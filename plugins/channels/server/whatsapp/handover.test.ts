import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whatsappHost } from './host';
import { whatsappMessageId } from './outbox';
import { eventually, phoneNumbers, usePeerEverywhere, WhatsAppKit } from './testing/kit';
import { muteLibsignalConsole, type PeerAccount, startWhatsAppPeer, type WhatsAppPeer } from './testing/peer';

/**
 * Several server processes on one database (two test apps sharing its database and Redis key space stand for
 * two processes): one session per connection, handed over when its process stops or stalls, and nothing lost
 * or doubled on the way.
 */

muteLibsignalConsole();
// quick claims, so that a released session moves within the test's time; the lease keeps a life that a
// loaded machine (a whole suite on two cores) can renew in time — a stall is made by expiring it outright
process.env.WHATSAPP_LEASE_TTL_MS = '8000';
process.env.WHATSAPP_CLAIM_INTERVAL_MS = '200';

let peer: WhatsAppPeer;
/** Holds the database and answers the API; runs no session itself (role web), like a web process. */
let base: TestApp;
let kit: WhatsAppKit;
const phone = phoneNumbers('5521');

beforeAll(async () => {
  peer = await startWhatsAppPeer();
  usePeerEverywhere(peer);
  base = await createTestApp({ config: { role: 'web' } });
  kit = new WhatsAppKit(base);
});
afterAll(async () => {
  await base?.close();
  await peer?.stop();
  delete process.env.WHATSAPP_LEASE_TTL_MS;
  delete process.env.WHATSAPP_CLAIM_INTERVAL_MS;
});

/** A worker process on the base's database and Redis: it runs sessions. */
async function workerProcess(): Promise<{ app: TestApp; kit: WhatsAppKit }> {
  const app = await createTestApp({
    seed: false,
    config: { databaseUrl: base.config.databaseUrl, redisPrefix: base.config.redisPrefix },
  });
  return { app, kit: new WhatsAppKit(app) };
}

/** How many of the account's devices are connected to the peer right now. */
const liveSockets = (account: PeerAccount) =>
  peer.connections.filter((c) => c.account === account.pn && c.state === 'logged-in').length;

/** A company paired through the worker `one`, its account. */
async function paired(one: WhatsAppKit) {
  const company = await kit.company();
  const account = peer.account(phone());
  await kit.pair(peer, company, account);
  await eventually(() => one.session(company.whatsappId)?.connected, 10_000, 'the worker to run the session');
  // and it took the phone's first history (as a session that ran a while has): a device that never did waits
  // up to 20 s for it at its next login before it hands over any message, which no test should wait for
  await eventually(
    async () => {
      const row = await kit.knex('whatsappAuthCreds').where({ whatsappId: company.whatsappId }).first('creds');
      return (row?.creds?.processedHistoryMessages?.length ?? 0) > 0;
    },
    10_000,
    'the first history to be taken',
  );
  return { company, account };
}

describe('one owner per session', () => {
  it('hands a session over when its process stops: no QR, nothing lost, never two sockets', async () => {
    const one = await workerProcess();
    const { company, account } = await paired(one.kit);
    const two = await workerProcess();
    try {
      let most = 0;
      const watch = setInterval(() => {
        most = Math.max(most, liveSockets(account));
      }, 5);
      // the second process can't take it while the first holds it
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(two.kit.session(company.whatsappId)).toBeUndefined();

      const customer = peer.contact(phone());
      const logins = account.loginCount;
      await one.app.close();
      const id = await customer.sendText(account, 'no meio da troca');
      await eventually(() => two.kit.session(company.whatsappId)?.connected, 10_000, 'the second process to connect');
      expect(account.loginCount).toBe(logins + 1);
      const row = await kit.connectionWhen(company.whatsappId, (r) => r.status === 'CONNECTED');
      expect(row.qrcode).toBe('');
      await eventually(() => kit.knex('messages').where({ channelMessageId: id }).first());
      clearInterval(watch);
      expect(most).toBe(1);
      const lease = await kit.knex('whatsappSessionLeases').where({ whatsappId: company.whatsappId }).first();
      expect(Number(lease.epoch)).toBe(2);
    } finally {
      await two.app.close();
    }
  });

  it('takes over a session whose lease ran out (its process stalled): the stale session stops at once', async () => {
    const one = await workerProcess();
    const two = await workerProcess();
    try {
      const company = await kit.company();
      const account = peer.account(phone());
      await kit.pair(peer, company, account);
      const stale = one.kit.session(company.whatsappId) ?? two.kit.session(company.whatsappId);
      expect(stale?.connected).toBe(true);
      // the lease runs out without a renewal (the database's clock decides); whichever process claims it
      // first (a truly stalled one doesn't) runs it under a new epoch, and the stale session ends
      await kit
        .knex('whatsappSessionLeases')
        .where({ whatsappId: company.whatsappId })
        .update({ expiresAt: kit.knex.raw("now() - interval '1 second'") });
      const current = () => one.kit.session(company.whatsappId) ?? two.kit.session(company.whatsappId);
      await eventually(() => current() !== stale && current()?.connected, 10_000, 'the takeover');
      expect(current()?.epoch).toBe(2);
      expect(stale?.connected).toBe(false);
      await eventually(() => liveSockets(account) === 1);
      // the new owner carries the conversation
      const customer = peer.contact(phone());
      const id = await customer.sendText(account, 'depois da troca');
      await eventually(() => kit.knex('messages').where({ channelMessageId: id }).first());
    } finally {
      await one.app.close();
      await two.app.close();
    }
  });
});

describe('nothing lost, nothing doubled', () => {
  it('stores every message written while no process ran, once, when one starts again', async () => {
    const one = await workerProcess();
    const { account } = await paired(one.kit);
    const customer = peer.contact(phone());
    await one.app.close();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await customer.sendText(account, `mensagem ${i}`));
    const again = await workerProcess();
    try {
      const stored = async () =>
        Number((await kit.knex('messages').whereIn('channelMessageId', ids).count({ n: '*' }).first())?.n);
      await eventually(async () => (await stored()) === 5, 10_000, 'the five messages');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await stored()).toBe(5);
    } finally {
      await again.app.close();
    }
  });

  it('sends a message again after a crash with the same WhatsApp id (the phone keeps one)', async () => {
    const one = await workerProcess();
    try {
      const { company, account } = await paired(one.kit);
      const customer = peer.contact(phone());
      const inbound = await customer.sendText(account, 'oi');
      const message = await eventually(() => kit.knex('messages').where({ channelMessageId: inbound }).first());
      const queueId = await kit.queue(company.companyId);
      await kit.call(company.admin, 'PUT', `/tickets/${message.ticketId}`, { status: 'open', userId: company.admin.id, queueId });
      const sent = await kit.call(company.admin, 'POST', `/messages/${message.ticketId}`, { body: 'uma vez só' });
      const messageId = sent.body.messages[0].id as number;
      const waId = whatsappMessageId(company.whatsappId, messageId);
      await customer.waitFor((m) => m.id === waId);
      // a crash between WhatsApp taking it and the outbox noting it: the row is queued again and goes again
      await kit
        .knex('whatsappOutbox')
        .where({ whatsappId: company.whatsappId, channelMessageId: waId })
        .update({ state: 'queued' });
      one.kit.session(company.whatsappId)?.sender.wake();
      await eventually(async () => (await kit.knex('whatsappOutbox').where({ channelMessageId: waId }).first()).state === 'sent');
      const copies = customer.received.filter((m) => m.id === waId);
      // the same id every time: the customer's phone shows it once
      expect(copies.length).toBeGreaterThanOrEqual(1);
      expect(new Set(copies.map((m) => m.id)).size).toBe(1);
      expect(whatsappHost(one.kit.ctx).session(company.whatsappId)?.connected).toBe(true);
    } finally {
      await one.app.close();
    }
  });
});

describe('a fair share per process', () => {
  it('gives a process that starts its share of the sessions: each runs half, every session stays up, none runs twice', async () => {
    const one = await workerProcess();
    const two = { current: null as Awaited<ReturnType<typeof workerProcess>> | null };
    try {
      const pairs: Array<Awaited<ReturnType<typeof paired>>> = [];
      for (let i = 0; i < 4; i += 1) pairs.push(await paired(one.kit));
      // every session that should run (this file's earlier ones too) is the first process's now
      const runnable = await eventually(async () => {
        const rows = await kit.knex('whatsapps').whereIn('status', ['OPENING', 'qrcode', 'PAIRING', 'CONNECTED']).count('* as n');
        const n = Number(rows[0]?.n ?? 0);
        return whatsappHost(one.kit.ctx).running.length === n ? n : null;
      });
      let most = 0;
      const watch = setInterval(() => {
        for (const { account } of pairs) most = Math.max(most, liveSockets(account));
      }, 5);
      two.current = await workerProcess();
      const second = two.current;
      const counts = (): [number, number] => [
        whatsappHost(one.kit.ctx).running.length,
        whatsappHost(second.kit.ctx).running.length,
      ];
      await eventually(
        () => {
          const [first, other] = counts();
          return first + other === runnable && Math.abs(first - other) <= 1 ? true : null;
        },
        30_000,
        `the sessions shared (now ${counts().join(' and ')} of ${runnable})`,
      );
      // each of this test's sessions is connected in exactly one process and carries messages
      for (const { company, account } of pairs) {
        const here = () => one.kit.session(company.whatsappId) ?? second.kit.session(company.whatsappId);
        await eventually(() => here()?.connected, 15_000, 'the session to be connected');
        const customer = peer.contact(phone());
        const id = await customer.sendText(account, 'depois da partilha');
        await eventually(() => kit.knex('messages').where({ channelMessageId: id }).first());
      }
      clearInterval(watch);
      expect(most).toBe(1);
    } finally {
      await two.current?.app.close();
      await one.app.close();
    }
  });
});
