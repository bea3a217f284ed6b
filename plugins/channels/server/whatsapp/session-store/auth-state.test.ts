import { randomBytes } from 'node:crypto';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { addTransactionCapability, Curve, proto, type SignalDataSet, type SignalDataTypeMap } from '@whiskeysockets/baileys';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SessionStoreKit, silentLogger, sleep } from '../testing/session-store';
import { deleteAuthState, hasCreds, usePostgresAuthState } from './auth-state';
import { SIGNAL_KEY_TYPES, type SignalKeyType } from './codec';
import { LeaseLostError, type SessionLease } from './leases';

let t: TestApp;
let kit: SessionStoreKit;
beforeAll(async () => {
  t = await createTestApp();
  kit = await new SessionStoreKit(t).init();
});
afterEach(async () => kit.closeAll());
afterAll(async () => t?.close());

/** A connection and its lease held by a process of its own. */
async function heldConnection(options: { ttlMs?: number; autoRenew?: boolean } = {}) {
  const connectionId = await kit.connection();
  const leases = kit.process('holder', options);
  const lease = (await leases.acquire(kit.companyId, connectionId)) as SessionLease;
  return { whatsappId: connectionId, leases, lease };
}

/** One value of every key type of Baileys 7, as Baileys writes them. */
function everyKeyType(): Required<{ [T in SignalKeyType]: { [id: string]: SignalDataTypeMap[T] } }> {
  return {
    'pre-key': { '1': Curve.generateKeyPair(), '2': Curve.generateKeyPair() },
    session: { '5511999990000.0': randomBytes(1_200), '123456789012345_1.3': randomBytes(900) },
    'sender-key': {
      '120363000000000000@g.us::5511999990000::0': Buffer.from(JSON.stringify([{ senderKeyId: 1 }]), 'utf-8'),
    },
    'sender-key-memory': {
      '120363000000000000@g.us': { '5511999990000:3@s.whatsapp.net': true, '5511999990001@s.whatsapp.net': false },
    },
    'app-state-sync-key': {
      AAAAAPqs: proto.Message.AppStateSyncKeyData.fromObject({
        keyData: randomBytes(32),
        fingerprint: { rawId: 1_234_567, currentIndex: 3, deviceIndexes: [0, 3, 7] },
        timestamp: 1_700_000_000_123,
      }),
    },
    'app-state-sync-version': {
      regular_high: {
        version: 42,
        hash: randomBytes(128),
        indexValueMap: { 'Zm9vYmFy+/=': { valueMac: new Uint8Array(randomBytes(32)) }, YmF6: { valueMac: randomBytes(32) } },
      },
    },
    'lid-mapping': { '5511999990000': '123456789012345', '123456789012345_reverse': '5511999990000' },
    'device-list': { '5511999990000': ['0', '3', '12'] },
    tctoken: {
      '5511999990000@s.whatsapp.net': { token: randomBytes(24), timestamp: '1700000000', senderTimestamp: 1_700_000_001 },
    },
    'identity-key': { '5511999990000.0': new Uint8Array(randomBytes(33)) },
  };
}

/** Byte arrays as Buffers and protobuf messages as their bytes, for comparing what went in with what came out. */
function comparable(value: unknown): unknown {
  if (value instanceof proto.Message.AppStateSyncKeyData) {
    return { proto: Buffer.from(proto.Message.AppStateSyncKeyData.encode(value).finish()).toString('hex') };
  }
  if (value instanceof Uint8Array) return { bytes: Buffer.from(value).toString('hex') };
  if (Array.isArray(value)) return value.map(comparable);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, comparable(v)]));
  return value;
}

async function keyCount(connectionId: number): Promise<number> {
  const row = await kit.knex('whatsappAuthKeys').where({ whatsappId: connectionId }).count({ count: '*' }).first();
  return Number(row?.count);
}

/** The statements on the auth tables (and the transactions they ran in) while `fn` runs. */
async function statementsOf(fn: () => unknown) {
  const statements: Array<{ sql: string; tx: string | undefined }> = [];
  const listener = (query: { sql: string; __knexTxId?: string }) => {
    statements.push({ sql: query.sql, tx: query.__knexTxId });
  };
  kit.knex.on('query', listener);
  try {
    await Promise.resolve()
      .then(fn)
      .catch(() => {});
  } finally {
    kit.knex.off('query', listener);
  }
  return statements.filter((statement) => /whatsapp_(auth|session)|^(begin|commit|rollback)/i.test(statement.sql));
}

describe('keys', () => {
  it('round-trip every key type of Baileys 7 (Buffers, protobufs, strings, lists), and a null deletes', async () => {
    const { whatsappId: connectionId, lease } = await heldConnection();
    const auth = await usePostgresAuthState(kit.knex, lease);
    const written = everyKeyType();
    await auth.state.keys.set(written);
    expect(await keyCount(connectionId)).toBe(13);

    // read back by this session (its cache) and by a session that never saw them (the database)
    const uncached = await usePostgresAuthState(kit.knex, lease, { cache: false });
    for (const type of SIGNAL_KEY_TYPES) {
      const ids = Object.keys(written[type]);
      for (const reader of [auth, uncached]) {
        const read = await reader.state.keys.get(type, [...ids, 'absent']);
        expect(Object.keys(read).sort(), type).toEqual([...ids].sort());
        expect(comparable(read), type).toEqual(comparable(written[type]));
      }
    }
    const [sample] = Object.values(await uncached.state.keys.get('session', ['5511999990000.0']));
    expect(Buffer.isBuffer(sample)).toBe(true);
    const appStateKey = (await uncached.state.keys.get('app-state-sync-key', ['AAAAAPqs'])).AAAAAPqs;
    expect(appStateKey).toBeInstanceOf(proto.Message.AppStateSyncKeyData);

    await auth.state.keys.set({
      session: { '5511999990000.0': null },
      'pre-key': { '1': null },
      'lid-mapping': { nothing: null },
    });
    for (const reader of [auth, uncached]) {
      expect(await reader.state.keys.get('session', ['5511999990000.0', '123456789012345_1.3'])).toEqual({
        '123456789012345_1.3': written.session['123456789012345_1.3'],
      });
      expect(Object.keys(await reader.state.keys.get('pre-key', ['1', '2']))).toEqual(['2']);
    }
    expect(await keyCount(connectionId)).toBe(11);
  });

  it('write a batch of 200 keys in one fenced statement: the fence, one DELETE, one upsert', async () => {
    const { whatsappId: connectionId, lease } = await heldConnection();
    const auth = await usePostgresAuthState(kit.knex, lease);
    const sessions = (count: number, from = 0) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`55119${from + i}.0`, randomBytes(1_500)]));
    await auth.state.keys.set({ session: sessions(20) });

    const batch: SignalDataSet = {
      session: { ...sessions(150, 1_000), ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`55119${i}.0`, null])) },
      'pre-key': Object.fromEntries(Array.from({ length: 30 }, (_, i) => [String(i + 1), Curve.generateKeyPair()])),
    };
    const startedAt = performance.now();
    const statements = await statementsOf(() => auth.state.keys.set(batch));
    const elapsedMs = performance.now() - startedAt;
    console.info(`a batch of 200 keys (150 sessions of 1.5 kB, 30 pre-keys, 20 deletions): ${elapsedMs.toFixed(1)} ms`);

    // one round trip: the fence (FOR SHARE), the deletions and the upsert are CTEs of one statement
    expect(statements).toHaveLength(1);
    expect(statements[0]?.sql).toMatch(/FOR SHARE[\s\S]*DELETE FROM whatsapp_auth_keys[\s\S]*INSERT INTO whatsapp_auth_keys/);
    expect(await keyCount(connectionId)).toBe(180);
  });

  it('write nothing of a batch that fails part-way, nor of one whose fence fails', async () => {
    const { whatsappId: connectionId, lease } = await heldConnection({ ttlMs: 300, autoRenew: false });
    const auth = await usePostgresAuthState(kit.knex, lease);
    const existing = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`old${i}`, randomBytes(64)]));
    await auth.state.keys.set({ session: existing });
    const before = await kit
      .knex('whatsappAuthKeys')
      .where({ whatsappId: connectionId })
      .orderBy('keyId')
      .select('keyId', 'value');

    // the deletions run first and succeed; the upsert then fails on its last key (Postgres refuses NUL in text)
    const poisoned: SignalDataSet = {
      session: {
        ...Object.fromEntries(Object.keys(existing).map((id) => [id, null])),
        ...Object.fromEntries(Array.from({ length: 149 }, (_, i) => [`new${i}`, randomBytes(64)])),
        'bad\u0000id': randomBytes(64),
      },
    };
    await expect(auth.state.keys.set(poisoned)).rejects.toThrow();
    expect(
      await kit.knex('whatsappAuthKeys').where({ whatsappId: connectionId }).orderBy('keyId').select('keyId', 'value'),
    ).toEqual(before);

    // the lease expires and another process takes the connection: a whole batch is refused
    await sleep(400);
    const other = await kit.process('other').acquire(kit.companyId, connectionId);
    expect(other?.epoch).toBe(2);
    const late = { session: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`late${i}`, randomBytes(64)])) };
    await expect(auth.state.keys.set(late)).rejects.toBeInstanceOf(LeaseLostError);
    await expect(auth.saveCreds()).rejects.toBeInstanceOf(LeaseLostError);
    expect(await keyCount(connectionId)).toBe(50);
    expect(await hasCreds(kit.knex, connectionId)).toBe(false);
  });

  it('commit a Baileys transaction (addTransactionCapability) as one fenced transaction', async () => {
    const { whatsappId: connectionId, lease } = await heldConnection();
    const auth = await usePostgresAuthState(kit.knex, lease);
    const keys = addTransactionCapability(auth.state.keys, silentLogger, { maxCommitRetries: 1, delayBetweenTriesMs: 0 });
    const statements = await statementsOf(() =>
      keys.transaction(async () => {
        await keys.set({ session: { 'a.0': randomBytes(100) } });
        await keys.set({ 'identity-key': { 'a.0': randomBytes(33) }, 'device-list': { a: ['0'] } });
        await keys.set({ session: { 'b.0': randomBytes(100) } });
      }, 'a.0'),
    );
    expect(statements.filter((statement) => /FOR SHARE/.test(statement.sql))).toHaveLength(1);
    expect(statements).toHaveLength(1);
    expect(await keyCount(connectionId)).toBe(4);
  });
});

describe('the key cache', () => {
  it('serves reads after the first from memory, and a committed write from memory too', async () => {
    const { lease } = await heldConnection();
    const auth = await usePostgresAuthState(kit.knex, lease);
    await auth.state.keys.set({ session: { 'a.0': Buffer.from('v1') } });
    await auth.state.keys.get('session', ['a.0', 'none.0']);
    const reads = await statementsOf(async () => {
      expect(await auth.state.keys.get('session', ['a.0', 'none.0'])).toEqual({ 'a.0': Buffer.from('v1') });
      await auth.state.keys.set({ session: { 'a.0': Buffer.from('v2'), 'none.0': Buffer.from('n') } });
      expect(await auth.state.keys.get('session', ['a.0', 'none.0'])).toEqual({
        'a.0': Buffer.from('v2'),
        'none.0': Buffer.from('n'),
      });
    });
    expect(reads.filter((statement) => /^select key_id/i.test(statement.sql.trim()))).toHaveLength(0);
  });

  it('never serves a value whose write failed', async () => {
    const { whatsappId: connectionId, lease } = await heldConnection({ ttlMs: 300, autoRenew: false });
    const auth = await usePostgresAuthState(kit.knex, lease);
    await auth.state.keys.set({ session: { 'a.0': Buffer.from('committed') } });
    expect(await auth.state.keys.get('session', ['a.0'])).toEqual({ 'a.0': Buffer.from('committed') });

    await expect(
      auth.state.keys.set({ session: { 'a.0': Buffer.from('failed'), 'bad\u0000id': Buffer.from('x') } }),
    ).rejects.toThrow();
    expect(await auth.state.keys.get('session', ['a.0'])).toEqual({ 'a.0': Buffer.from('committed') });

    // a write refused by the fence (the lease lost meanwhile) is not served either
    await sleep(400);
    const taken = (await kit.process('other').acquire(kit.companyId, connectionId)) as SessionLease;
    await expect(auth.state.keys.set({ session: { 'a.0': Buffer.from('fenced out') } })).rejects.toBeInstanceOf(LeaseLostError);
    expect(await auth.state.keys.get('session', ['a.0'])).toEqual({ 'a.0': Buffer.from('committed') });
    const next = await usePostgresAuthState(kit.knex, taken);
    expect(await next.state.keys.get('session', ['a.0'])).toEqual({ 'a.0': Buffer.from('committed') });
  });

  it('hands out copies: a value Baileys changes in memory is not what the next read gets', async () => {
    const { lease } = await heldConnection();
    const auth = await usePostgresAuthState(kit.knex, lease);
    await auth.state.keys.set({
      'app-state-sync-version': { regular: { version: 1, hash: Buffer.alloc(4), indexValueMap: {} } },
    });
    const first = (await auth.state.keys.get('app-state-sync-version', ['regular'])).regular;
    if (!first) throw new Error('missing');
    first.version = 99;
    first.indexValueMap.x = { valueMac: Buffer.alloc(1) };
    expect((await auth.state.keys.get('app-state-sync-version', ['regular'])).regular).toMatchObject({
      version: 1,
      indexValueMap: {},
    });
  });

  it('stays within its bounds, forgets idle keys, and is dropped with the lease', async () => {
    const { lease } = await heldConnection();
    const auth = await usePostgresAuthState(kit.knex, lease, { cache: { maxEntries: 100, idleMs: 200 } });
    const ids = Array.from({ length: 300 }, (_, i) => `s${i}.0`);
    await auth.state.keys.set({ session: Object.fromEntries(ids.map((id) => [id, randomBytes(500)])) });
    // keys written without being read first don't enter the cache (a bulk write pushes nothing out)
    expect(auth.cacheStats().entries).toBe(0);
    expect(Object.keys(await auth.state.keys.get('session', ids))).toHaveLength(300);
    expect(auth.cacheStats().entries).toBe(100);
    await sleep(400);
    expect(auth.cacheStats()).toMatchObject({ entries: 0, bytes: 0 });

    await auth.state.keys.get('session', ids.slice(0, 10));
    expect(auth.cacheStats().entries).toBe(10);
    await lease.release();
    expect(auth.cacheStats().entries).toBe(0);
  });
});

describe('creds', () => {
  it('start fresh for a new connection and round-trip through BufferJSON, odd push names included', async () => {
    const { whatsappId: connectionId, lease } = await heldConnection();
    const auth = await usePostgresAuthState(kit.knex, lease);
    expect(auth.state.creds).toMatchObject({ registered: false, nextPreKeyId: 1 });
    expect(Buffer.isBuffer(auth.state.creds.noiseKey.private)).toBe(true);
    expect(await hasCreds(kit.knex, connectionId)).toBe(false);

    auth.state.creds.me = { id: '5511999990000:12@s.whatsapp.net', lid: '123456789012345:12@lid', name: 'Ana \u0000 \ud83d' };
    auth.state.creds.registered = true;
    auth.state.creds.routingInfo = randomBytes(12);
    await auth.saveCreds();
    expect(await hasCreds(kit.knex, connectionId)).toBe(true);

    const loaded = await usePostgresAuthState(kit.knex, lease);
    expect(loaded.state.creds).toEqual(auth.state.creds);
    expect(comparable(loaded.state.creds)).toEqual(comparable(auth.state.creds));
    expect(loaded.state.creds.me?.name).toBe('Ana \u0000 \ud83d');
    expect(Buffer.isBuffer(loaded.state.creds.signedPreKey.keyPair.public)).toBe(true);
  });

  it('saves the latest creds when saves overlap', async () => {
    const { whatsappId: connectionId, lease } = await heldConnection();
    const auth = await usePostgresAuthState(kit.knex, lease);
    const saves: Array<Promise<void>> = [];
    for (let i = 1; i <= 20; i += 1) {
      auth.state.creds.accountSyncCounter = i;
      saves.push(auth.saveCreds());
    }
    await Promise.all(saves);
    const row = await kit.knex('whatsappAuthCreds').where({ whatsappId: connectionId }).first();
    expect(row.creds.accountSyncCounter).toBe(20);
  });
});

describe('removal', () => {
  it('clear deletes the creds and every key; later writes through that state do nothing', async () => {
    const { whatsappId: connectionId, lease } = await heldConnection();
    const auth = await usePostgresAuthState(kit.knex, lease);
    await auth.state.keys.set(everyKeyType());
    await auth.saveCreds();
    await auth.clear();
    expect(await hasCreds(kit.knex, connectionId)).toBe(false);
    expect(await keyCount(connectionId)).toBe(0);
    expect(await auth.state.keys.get('session', ['5511999990000.0'])).toEqual({});
    await auth.saveCreds();
    await auth.state.keys.set({ session: { 'x.0': randomBytes(8) } });
    expect(await hasCreds(kit.knex, connectionId)).toBe(false);
    expect(await keyCount(connectionId)).toBe(0);
  });

  it('deleteAuthState deletes without the lease and fences its holder out', async () => {
    const { whatsappId: connectionId, lease } = await heldConnection();
    const auth = await usePostgresAuthState(kit.knex, lease);
    await auth.state.keys.set(everyKeyType());
    await auth.saveCreds();
    await deleteAuthState(kit.knex, connectionId);
    expect(await hasCreds(kit.knex, connectionId)).toBe(false);
    expect(await keyCount(connectionId)).toBe(0);
    await expect(auth.state.keys.set({ session: { 'x.0': randomBytes(8) } })).rejects.toMatchObject({ reason: 'superseded' });
    expect(await keyCount(connectionId)).toBe(0);
    expect(lease.lost).toBe(true);
  });

  it('deleting the connection deletes its lease, creds and keys', async () => {
    const { whatsappId: connectionId, lease } = await heldConnection();
    const auth = await usePostgresAuthState(kit.knex, lease);
    await auth.state.keys.set(everyKeyType());
    await auth.saveCreds();
    await kit.knex('whatsapps').where({ id: connectionId }).delete();
    expect(await kit.leaseRow(connectionId)).toBeUndefined();
    expect(await hasCreds(kit.knex, connectionId)).toBe(false);
    expect(await keyCount(connectionId)).toBe(0);
    await expect(auth.saveCreds()).rejects.toMatchObject({ reason: 'deleted' });
  });
});
