import { createKnex } from '@balcao/server';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../testing';
import { ClaimedRowsLoop, claimDueRows, keepLeaseAhead, leaseToken } from './claimed-rows';

/** Claims on a real Postgres table shaped as the dispatchers' (`due_at`, a lease, attempts). */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let knex: Knex;

beforeAll(async () => {
  database = await createTestDatabase();
  knex = createKnex(database.url, 4);
  await knex.raw(`CREATE TABLE claim_probe (
    id serial PRIMARY KEY, state text NOT NULL DEFAULT 'queued', due_at timestamptz NOT NULL,
    lease_until timestamptz, lease_token text, attempts int NOT NULL DEFAULT 0)`);
});
afterAll(async () => {
  await knex?.destroy();
  await database?.drop();
});

const NOW = new Date('2026-12-01T12:00:00Z');

function claim(trx: Knex | Knex.Transaction, now: Date, limit: number, token = leaseToken()) {
  return claimDueRows<{ id: number; attempts: number }>(trx, {
    table: 'claim_probe',
    due: "state = 'queued' AND due_at <= ?",
    dueBindings: [now],
    orderBy: 'due_at, id',
    limit,
    now,
    leaseMs: 60_000,
    token,
    returning: 's.id, s.attempts',
  });
}

describe('claimDueRows', () => {
  it('takes due rows once across concurrent claims, and takes them again when their lease is over', async () => {
    await knex('claim_probe').insert([
      ...Array.from({ length: 6 }, (_, i) => ({ due_at: new Date(NOW.getTime() - 1_000 * (i + 1)) })),
      { due_at: new Date(NOW.getTime() + 60_000) },
    ]);
    // two open transactions: the second skips what the first holds locked
    const first = await knex.transaction();
    const second = await knex.transaction();
    const a = await claim(first, NOW, 4);
    const b = await claim(second, NOW, 4);
    await first.commit();
    await second.commit();
    expect(a).toHaveLength(4);
    expect(b).toHaveLength(2);
    expect(new Set([...a, ...b].map((row) => row.id)).size).toBe(6);
    // the oldest due first
    const dueOrder = await knex('claim_probe').where('due_at', '<=', NOW).orderBy('due_at').pluck('id');
    expect(a.map((row) => row.id)).toEqual(dueOrder.slice(0, 4));

    // every lease held, the later row not due: nothing
    expect(await claim(knex, new Date(NOW.getTime() + 30_000), 10)).toEqual([]);
    // past the lease (and the later row due): all seven, the six for a second attempt
    const again = await claim(knex, new Date(NOW.getTime() + 61_000), 10);
    expect(again).toHaveLength(7);
    expect(again.map((row) => row.attempts).sort()).toEqual([1, 2, 2, 2, 2, 2, 2]);
  });
});

describe('keepLeaseAhead', () => {
  it('renews every third of the lease, from the clock, until stopped', async () => {
    vi.useFakeTimers();
    try {
      const renewed: Date[] = [];
      const lease = keepLeaseAhead({
        leaseMs: 300,
        clock: { now: () => NOW },
        renew: async (leaseUntil) => {
          renewed.push(leaseUntil);
        },
        onError: () => {},
      });
      await vi.advanceTimersByTimeAsync(99);
      expect(renewed).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(201);
      expect(renewed).toEqual([1, 2, 3].map(() => new Date(NOW.getTime() + 300)));
      await lease.stop();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(renewed).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('ClaimedRowsLoop', () => {
  it('runs passes in every lane while they work, waits when idle, and wakes at once', async () => {
    let work = 5;
    let passes = 0;
    let drained: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      drained = resolve;
    });
    let woken: () => void = () => {};
    const loop = new ClaimedRowsLoop({
      lanes: 2,
      // an idle wait far longer than the test: only a wake-up brings a lane back
      idleMs: 60_000,
      maxIdleMs: 60_000,
      pass: async () => {
        passes += 1;
        if (work === 0) {
          drained();
          return 0;
        }
        work -= 1;
        if (work === 0 && passes > 5) woken();
        return 1;
      },
      onError: () => {},
    });
    loop.start();
    await done;
    const idlePasses = passes;
    expect(idlePasses).toBeGreaterThanOrEqual(6);
    expect(work).toBe(0);

    // new work, then a wake-up: the lanes run again without waiting the minute
    const rerun = new Promise<void>((resolve) => {
      woken = resolve;
    });
    work = 3;
    loop.wake();
    await rerun;
    await loop.stop();
    expect(work).toBe(0);
    expect(passes).toBeGreaterThan(idlePasses);
  });

  it('keeps a lane going after a pass that throws, and stops after the pass in flight', async () => {
    const errors: unknown[] = [];
    let passes = 0;
    let inSecond: () => void = () => {};
    const second = new Promise<void>((resolve) => {
      inSecond = resolve;
    });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const loop = new ClaimedRowsLoop({
      lanes: 1,
      idleMs: 10,
      maxIdleMs: 10,
      pass: async () => {
        passes += 1;
        if (passes === 1) throw new Error('boom');
        inSecond();
        await released;
        return 1;
      },
      onError: (error) => errors.push(error),
    });
    loop.start();
    await second;
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await Promise.resolve();
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(errors).toHaveLength(1);
    // the pass in flight ended, and no other began
    expect(passes).toBe(2);
  });
});
