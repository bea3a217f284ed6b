import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import knexFactory from 'knex';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionStoreKit, sleep, waitFor } from '../testing/session-store';
import { deleteAuthState } from './auth-state';
import { LeaseLostError, type SessionLease } from './leases';

let t: TestApp;
let kit: SessionStoreKit;
beforeAll(async () => {
  t = await createTestApp();
  kit = await new SessionStoreKit(t).init();
});
afterEach(async () => kit.closeAll());
afterAll(async () => t?.close());

/** A write under the lease's fence (what an auth write does): marks the connection's creds row. */
const fencedWrite = (lease: SessionLease, mark = 'write') =>
  lease.fenced((trx) =>
    trx.raw(
      `INSERT INTO whatsapp_auth_creds (whatsapp_id, company_id, creds) VALUES (?, ?, ?::jsonb)
       ON CONFLICT (whatsapp_id) DO UPDATE SET creds = excluded.creds`,
      [lease.connectionId, lease.companyId, JSON.stringify({ mark })],
    ),
  );

const credsMark = async (connectionId: number) =>
  (await kit.knex('whatsappAuthCreds').where({ whatsappId: connectionId }).first())?.creds?.mark as string | undefined;

describe('acquiring', () => {
  it('gives a free connection to exactly one of ten concurrent processes, and an expired one too', async () => {
    const connectionId = await kit.connection();
    const processes = Array.from({ length: 10 }, (_, i) => kit.process(`p${i}`));
    const first = await Promise.all(processes.map((leases) => leases.acquire(kit.companyId, connectionId)));
    const winners = first.filter((lease) => lease !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]?.epoch).toBe(1);
    expect(await processes[0]?.holder(connectionId)).toMatchObject({
      whatsappId: connectionId,
      companyId: kit.companyId,
      ownerId: winners[0]?.ownerId,
      epoch: 1,
      live: true,
    });

    await winners[0]?.release();
    const second = await Promise.all(processes.map((leases) => leases.acquire(kit.companyId, connectionId)));
    const takers = second.filter((lease) => lease !== null);
    expect(takers).toHaveLength(1);
    expect(takers[0]?.epoch).toBe(2);
  });

  it('adds 1 to the epoch on every acquisition, a re-acquisition by the holder included (the older lease is lost)', async () => {
    const connectionId = await kit.connection();
    const a = kit.process('a');
    const b = kit.process('b');
    const first = await a.acquire(kit.companyId, connectionId);
    const lostFirst = vi.fn();
    first?.onLost(lostFirst);
    const again = await a.acquire(kit.companyId, connectionId);
    expect([first?.epoch, again?.epoch]).toEqual([1, 2]);
    expect(first?.lost).toBe(true);
    expect(lostFirst).toHaveBeenCalledTimes(1);
    expect(lostFirst.mock.calls[0]?.[0]).toMatchObject({ reason: 'superseded', epoch: 1 });
    expect(a.held(connectionId)).toBe(again);
    await expect(fencedWrite(first as SessionLease)).rejects.toBeInstanceOf(LeaseLostError);
    await fencedWrite(again as SessionLease);

    expect(await b.acquire(kit.companyId, connectionId)).toBeNull();
    await again?.release();
    expect((await b.acquire(kit.companyId, connectionId))?.epoch).toBe(3);
    await b.held(connectionId)?.release();
    expect((await a.acquire(kit.companyId, connectionId))?.epoch).toBe(4);
  });

  it('answers null for a connection that does not exist or is another company’s', async () => {
    const connectionId = await kit.connection();
    const a = kit.process('a');
    expect(await a.acquire(kit.companyId + 1_000_000, connectionId)).toBeNull();
    expect(await a.acquire(kit.companyId, 2_000_000_000)).toBeNull();
    expect(await a.holder(connectionId)).toBeNull();
  });
});

describe('renewal and loss', () => {
  it('keeps a renewed lease past its ttl', async () => {
    const connectionId = await kit.connection();
    const a = kit.process('a', { ttlMs: 400 });
    const lease = (await a.acquire(kit.companyId, connectionId)) as SessionLease;
    const firstExpiry = lease.expiresAt.getTime();
    await sleep(1_000);
    expect(lease.lost).toBe(false);
    expect(lease.expiresAt.getTime()).toBeGreaterThan(firstExpiry);
    expect(await a.holder(connectionId)).toMatchObject({ ownerId: a.ownerId, epoch: 1, live: true });
    expect(await kit.process('b').acquire(kit.companyId, connectionId)).toBeNull();
    await fencedWrite(lease);
  });

  it('lets a stalled holder’s lease expire: another process takes it with a higher epoch, the old holder’s writes fail and it learns once', async () => {
    const connectionId = await kit.connection();
    // a process that stopped renewing (paused, partitioned)
    const stalled = kit.process('stalled', { ttlMs: 300, autoRenew: false });
    const old = (await stalled.acquire(kit.companyId, connectionId)) as SessionLease;
    const onLost = vi.fn();
    old.onLost(onLost);
    await fencedWrite(old, 'old holder');

    const other = kit.process('other', { ttlMs: 300 });
    expect(await other.acquire(kit.companyId, connectionId)).toBeNull();
    await sleep(400);
    expect(await other.holder(connectionId)).toMatchObject({ live: false, epoch: 1 });
    const taken = (await other.acquire(kit.companyId, connectionId)) as SessionLease;
    expect(taken.epoch).toBe(2);

    const failed = await fencedWrite(old, 'stale').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(LeaseLostError);
    expect(failed).toMatchObject({ connectionId, epoch: 1, reason: 'superseded' });
    await expect(fencedWrite(old, 'stale again')).rejects.toBeInstanceOf(LeaseLostError);
    await stalled.renew();
    expect(onLost).toHaveBeenCalledTimes(1);
    expect(onLost).toHaveBeenCalledWith(failed);
    expect(old.lost).toBe(true);
    expect(old.signal.aborted).toBe(true);
    expect(await credsMark(connectionId)).toBe('old holder');
    await fencedWrite(taken, 'new holder');
    expect(await credsMark(connectionId)).toBe('new holder');
  });

  it('reports at the next renewal a lease revoked (its secrets deleted) or whose connection was deleted', async () => {
    const revokedId = await kit.connection();
    const deletedId = await kit.connection();
    const a = kit.process('a', { ttlMs: 600 });
    const revoked = (await a.acquire(kit.companyId, revokedId)) as SessionLease;
    const deleted = (await a.acquire(kit.companyId, deletedId)) as SessionLease;
    const reasons: string[] = [];
    revoked.onLost((error) => reasons.push(`revoked:${error.reason}`));
    deleted.onLost((error) => reasons.push(`deleted:${error.reason}`));

    await deleteAuthState(kit.knex, revokedId);
    await kit.knex('whatsapps').where({ id: deletedId }).delete();
    expect(await kit.leaseRow(deletedId)).toBeUndefined();
    // renewed every 200 ms
    await waitFor(() => reasons.length === 2, 1_000);
    expect(reasons.sort()).toEqual(['deleted:deleted', 'revoked:superseded']);
    expect(a.held(revokedId)).toBeUndefined();
  });

  it('gives a lease up after a ttl without a confirmed renewal (the database unreachable), on its own clock', async () => {
    const connectionId = await kit.connection();
    const own = knexFactory({ client: 'pg', connection: t.balcao.core.knex.client.config.connection, pool: { min: 0, max: 2 } });
    const a = kit.process('a', { ttlMs: 450 }, own);
    const lease = (await a.acquire(kit.companyId, connectionId)) as SessionLease;
    const onLost = vi.fn();
    lease.onLost(onLost);
    const cutAt = performance.now();
    await own.destroy();
    await waitFor(() => onLost.mock.calls.length === 1, 2_000);
    expect(performance.now() - cutAt).toBeLessThan(450 + 300);
    expect(onLost.mock.calls[0]?.[0]).toMatchObject({ reason: 'expired' });
  });
});

describe('release', () => {
  it('lets another process acquire at once, tells the release listeners, and fences out the released lease', async () => {
    const connectionId = await kit.connection();
    const a = kit.process('a', { ttlMs: 60_000 });
    const b = kit.process('b');
    const lease = (await a.acquire(kit.companyId, connectionId)) as SessionLease;
    const onLost = vi.fn();
    lease.onLost(onLost);
    const released = vi.fn();
    a.onReleased(released);

    await lease.release();
    await lease.release();
    expect(released).toHaveBeenCalledTimes(1);
    expect(released).toHaveBeenCalledWith({ whatsappId: connectionId, companyId: kit.companyId, epoch: 1 });
    expect(await kit.leaseRow(connectionId)).toMatchObject({ epoch: 1, ownerId: a.ownerId });
    expect((await b.acquire(kit.companyId, connectionId))?.epoch).toBe(2);
    await expect(fencedWrite(lease)).rejects.toMatchObject({ reason: 'released' });
    expect(lease.signal.aborted).toBe(true);
    expect(onLost).not.toHaveBeenCalled();
  });

  it('close releases every lease of the process in one go and stops renewing', async () => {
    const ids = [await kit.connection(), await kit.connection()];
    const a = kit.process('a', { ttlMs: 60_000 });
    const b = kit.process('b');
    for (const id of ids) expect(await a.acquire(kit.companyId, id)).not.toBeNull();
    const released = vi.fn();
    a.onReleased(released);
    await a.close();
    expect(released).toHaveBeenCalledTimes(2);
    for (const id of ids) expect((await b.acquire(kit.companyId, id))?.epoch).toBe(2);
    await expect(a.acquire(kit.companyId, ids[0] as number)).rejects.toThrow(/closed/);
  });
});

describe('fencing', () => {
  it('makes a takeover wait for a fenced write in flight (FOR SHARE), which commits before the new holder starts', async () => {
    const connectionId = await kit.connection();
    const stalled = kit.process('stalled', { ttlMs: 300, autoRenew: false });
    const old = (await stalled.acquire(kit.companyId, connectionId)) as SessionLease;
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    let inFence = false;
    const write = old.fenced(async (trx) => {
      inFence = true;
      await gate;
      // the database's time of the write's last statement, just before its commit
      await trx.raw(
        `INSERT INTO whatsapp_auth_creds (whatsapp_id, company_id, creds, updated_at)
         VALUES (?, ?, '{"mark":"in flight"}'::jsonb, clock_timestamp())`,
        [connectionId, kit.companyId],
      );
    });
    await waitFor(() => inFence);

    // the lease expires while the write is in flight; another process tries to take the connection over
    await sleep(400);
    expect(await kit.process('observer').holder(connectionId)).toMatchObject({ live: false });
    let takenOver = false;
    const takeover = kit
      .process('other')
      .acquire(kit.companyId, connectionId)
      .then((lease) => {
        takenOver = true;
        return lease;
      });
    await sleep(300);
    expect(takenOver).toBe(false);

    openGate();
    await write;
    const lease = await takeover;
    expect(lease?.epoch).toBe(2);
    // the takeover's row was written (database clock) after the old holder's last write
    const creds = await kit.knex('whatsappAuthCreds').where({ whatsappId: connectionId }).first();
    const takenAt = (await kit.leaseRow(connectionId))?.updatedAt as Date;
    const writtenAt = creds?.updatedAt as Date;
    expect(takenAt.getTime()).toBeGreaterThanOrEqual(writtenAt.getTime());
    // the new holder reads the old holder's last write; the old holder writes no more
    expect(creds?.creds.mark).toBe('in flight');
    await expect(fencedWrite(old, 'late')).rejects.toBeInstanceOf(LeaseLostError);
    expect(await credsMark(connectionId)).toBe('in flight');
  });
});

describe('holder and expired', () => {
  it('lists the connections that should run and no process runs, never-run ones first', async () => {
    const { companyId } = kit;
    const [never, running, released, elsewhere] = [
      await kit.connection(),
      await kit.connection(),
      await kit.connection(),
      await kit.connection(),
    ] as [number, number, number, number];
    await kit.knex('whatsapps').whereIn('id', [never, running, released]).update({ status: 'CONNECTED' });
    const a = kit.process('a', { ttlMs: 60_000 });
    await a.acquire(companyId, running);
    await (await a.acquire(companyId, released))?.release();

    const byIds = await a.expired({ whatsappIds: [never, running, released] });
    expect(byIds).toEqual([
      { whatsappId: never, companyId, previous: null },
      { whatsappId: released, companyId, previous: { ownerId: a.ownerId, epoch: 1, expiresAt: expect.any(Date) } },
    ]);
    const byStatus = await a.expired({ channels: ['whatsapp'], statuses: ['CONNECTED'], companyIds: [companyId] });
    expect(byStatus.map((row) => row.whatsappId)).toEqual([never, released]);
    expect((await a.expired({ channels: ['whatsapp'], companyIds: [companyId] })).map((row) => row.whatsappId)).toContain(
      elsewhere,
    );
    expect(await a.expired({ whatsappIds: [never, released] }, 1)).toHaveLength(1);

    expect(await a.holder(running)).toMatchObject({ ownerId: a.ownerId, epoch: 1, live: true });
    expect(await a.holder(released)).toMatchObject({ ownerId: a.ownerId, epoch: 1, live: false });
    expect(await a.holder(never)).toBeNull();
  });
});
