import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { connectRedis, type RedisClient } from '../infra/redis';
import { Scheduler } from './job-runner';

/**
 * The core scheduler on real Redis: two schedulers with their own Redis connections stand for two worker
 * processes. A schedule's job is enqueued once per period across both (a Redis key per period slot).
 */
const EVERY_MS = 50;
const RUN_MS = 700;
const log = pino({ level: 'silent' });
const clients: RedisClient[] = [];
const prefixes: string[] = [];
beforeAll(async () => {
  const { redisUrl } = loadConfig({ ...process.env, NODE_ENV: 'test' });
  clients.push(await connectRedis(redisUrl, 'sched-test-1'), await connectRedis(redisUrl, 'sched-test-2'));
});
afterAll(async () => {
  const [redis] = clients;
  for (const prefix of prefixes) {
    for await (const keys of redis?.scanIterator({ MATCH: `${prefix}:*` }) ?? []) if (keys.length) await redis?.del(keys);
  }
  await Promise.all(clients.map((client) => client.quit()));
});

/** Runs one schedule per process for RUN_MS; answers the enqueues of each and how many period slots passed. */
async function runTwoProcesses(names: [string, string]): Promise<{ enqueued: [number, number]; slots: number }> {
  const prefix = `bt${randomBytes(5).toString('hex')}`;
  prefixes.push(prefix);
  const [one, two] = clients.map((client) => new Scheduler(client as RedisClient, prefix, log));
  const enqueued: [number, number] = [0, 0];
  const start = Date.now();
  one?.every(names[0], EVERY_MS, async () => {
    enqueued[0]++;
  });
  two?.every(names[1], EVERY_MS, async () => {
    enqueued[1]++;
  });
  await new Promise((resolve) => setTimeout(resolve, RUN_MS));
  const end = Date.now();
  // a tick already past its timer finishes its Redis round trip: close() waits for it
  await Promise.all([one?.close(), two?.close()]);
  return { enqueued, slots: Math.floor(end / EVERY_MS) - Math.floor(start / EVERY_MS) + 1 };
}

describe('Scheduler', () => {
  it('enqueues a schedule once per period across two processes', async () => {
    const { enqueued, slots } = await runTwoProcesses(['core:auto-close', 'core:auto-close']);
    const total = enqueued[0] + enqueued[1];
    // never more than one per period slot, whoever wins it …
    expect(total).toBeLessThanOrEqual(slots);
    // … and it does repeat, period after period
    expect(total).toBeGreaterThanOrEqual(Math.floor(slots / 2));
  });

  it('(control) two different schedules each run every period: the bound above is the deduplication', async () => {
    const { enqueued, slots } = await runTwoProcesses(['core:a', 'core:b']);
    expect(enqueued[0] + enqueued[1]).toBeGreaterThan(slots + 2);
  });

  it('stops ticking when closed', async () => {
    const prefix = `bt${randomBytes(5).toString('hex')}`;
    prefixes.push(prefix);
    const scheduler = new Scheduler(clients[0] as RedisClient, prefix, log);
    let runs = 0;
    scheduler.every('core:stop', EVERY_MS, async () => {
      runs++;
    });
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS * 3));
    await scheduler.close();
    const atClose = runs;
    expect(atClose).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS * 3));
    expect(runs).toBe(atClose);
  });

  it('waits, on close, for a tick still enqueueing', async () => {
    const prefix = `bt${randomBytes(5).toString('hex')}`;
    prefixes.push(prefix);
    const scheduler = new Scheduler(clients[0] as RedisClient, prefix, log);
    let finished = false;
    let started = false;
    scheduler.every('core:slow', 60_000, async () => {
      started = true;
      await new Promise((resolve) => setTimeout(resolve, 300));
      finished = true;
    });
    while (!started) await new Promise((resolve) => setTimeout(resolve, 5));
    await scheduler.close();
    expect(finished).toBe(true);
  });

  it('keeps ticking after a failing enqueue', async () => {
    const prefix = `bt${randomBytes(5).toString('hex')}`;
    prefixes.push(prefix);
    const scheduler = new Scheduler(clients[0] as RedisClient, prefix, log);
    let attempts = 0;
    scheduler.every('core:flaky', EVERY_MS, async () => {
      attempts++;
      throw new Error('enqueue failed');
    });
    const deadline = Date.now() + 3_000;
    while (attempts < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await scheduler.close();
    expect(attempts).toBeGreaterThanOrEqual(3);
  });
});
