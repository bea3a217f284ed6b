/**
 * Baileys' `AuthenticationState` of one WhatsApp connection, in Postgres: the creds in
 * `whatsapp_auth_creds`, the signal keys in `whatsapp_auth_keys`, every write fenced by the session's lease
 * (leases.ts), a small per-session cache in front of the keys.
 *
 * Baileys' socket wraps `state.keys` in its own transaction layer (`addTransactionCapability`), which hands
 * a transaction's mutations to `keys.set` in one call: that call is one fenced Postgres transaction of at most
 * three statements (the fence, one DELETE of the nulls, one multi-row upsert), whatever the number of keys.
 */
import {
  type AuthenticationCreds,
  type AuthenticationState,
  initAuthCreds,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from '@whiskeysockets/baileys';
import type { Knex } from 'knex';
import { decodeSessionValue, decodeSignalKey, encodeSessionValue, type SignalKeyType } from './codec';
import { KeyCache, type KeyCacheOptions, type KeyCacheStats } from './key-cache';
import type { SessionLease, SessionStoreLogger } from './leases';

/** Options of {@link usePostgresAuthState}. */
export interface PostgresAuthStateOptions {
  /** Bounds of the key cache (defaults: 2,000 keys, 1 MiB, 5 minutes idle), or false for no cache. */
  cache?: KeyCacheOptions | false;
  log?: SessionStoreLogger;
}

/** A connection's auth state, for `makeWASocket({ auth: state })`. */
export interface PostgresAuthState {
  /** The creds (loaded, or fresh ones for a connection never paired) and the key store. */
  state: AuthenticationState;
  /**
   * Writes `state.creds` as they are when the write starts (fenced). Calls made while one is waiting are served
   * by it, so the last call's creds are always the ones written last. Rejects with `LeaseLostError` once the
   * lease is gone: await it (an `ev.on('creds.update', saveCreds)` would leave that rejection unhandled).
   */
  saveCreds(): Promise<void>;
  /**
   * Deletes the creds and every key (fenced; after the writes in flight): the connection logged out. Writes
   * through this state do nothing afterwards — start a new one for the next pairing.
   */
  clear(): Promise<void>;
  /** The key cache's size and hit counts. */
  cacheStats(): KeyCacheStats;
}

type KeyValues<T extends SignalKeyType> = { [id: string]: SignalDataTypeMap[T] };

const cacheKey = (type: string, id: string) => `${type}|${id}`;

/**
 * Loads a connection's auth state (fresh creds if it has none yet) for the holder of `lease`. Reads need no
 * fence: they come after the acquisition, which came after the previous holder's last commit. The cache lives
 * as long as the lease (dropped when it is released or lost).
 *
 * @example
 * const { state, saveCreds } = await usePostgresAuthState(knex, lease, { log });
 * const sock = makeWASocket({ auth: state });
 * sock.ev.on('creds.update', () => saveCreds().catch(onAuthWriteError));
 */
export async function usePostgresAuthState(
  knex: Knex,
  lease: SessionLease,
  options: PostgresAuthStateOptions = {},
): Promise<PostgresAuthState> {
  if (lease.signal.aborted) throw lease.signal.reason;
  const { connectionId, companyId } = lease;
  const log = options.log;

  const { rows } = await knex.raw('SELECT creds::text AS creds FROM whatsapp_auth_creds WHERE whatsapp_id = ?', [connectionId]);
  const stored = (rows[0] as { creds: string } | undefined)?.creds;
  const creds: AuthenticationCreds = stored ? decodeSessionValue<AuthenticationCreds>(stored) : initAuthCreds();

  const cache = options.cache === false ? new KeyCache({ maxEntries: 0, maxBytes: 0 }) : new KeyCache(options.cache);
  const sweeper = options.cache === false ? null : setInterval(() => cache.sweep(), Math.max(10, cache.idleMs / 2));
  sweeper?.unref();
  lease.signal.addEventListener(
    'abort',
    () => {
      if (sweeper) clearInterval(sweeper);
      cache.clear();
    },
    { once: true },
  );

  // Reads that began before a write completed must not put what they read into the cache afterwards (it may
  // predate the write). Writes note their keys here while reads are in flight; emptied when none is.
  let generation = 0;
  let readsInFlight = 0;
  const writtenAt = new Map<string, number>();
  const noteWritten = (keys: readonly string[]) => {
    generation += 1;
    if (readsInFlight > 0) for (const key of keys) writtenAt.set(key, generation);
  };

  let cleared = false;
  const writesInFlight = new Set<Promise<unknown>>();
  const tracked = <T>(write: Promise<T>): Promise<T> => {
    writesInFlight.add(write);
    const untrack = () => writesInFlight.delete(write);
    write.then(untrack, untrack);
    return write;
  };

  async function getKeys<T extends SignalKeyType>(type: T, ids: string[]): Promise<KeyValues<T>> {
    const found: KeyValues<T> = {};
    const missing: string[] = [];
    for (const id of ids) {
      const text = cache.get(cacheKey(type, id));
      if (text === undefined) missing.push(id);
      else if (text !== null) found[id] = decodeSignalKey(type, text);
    }
    if (missing.length === 0) return found;

    const startedAt = generation;
    readsInFlight += 1;
    let rows: Array<{ key_id: string; value: string }>;
    try {
      ({ rows } = await knex.raw(
        `SELECT key_id, value::text AS value FROM whatsapp_auth_keys
         WHERE whatsapp_id = ? AND type = ? AND key_id = ANY(?::text[])`,
        [connectionId, type, missing],
      ));
    } finally {
      readsInFlight -= 1;
    }
    const texts = new Map(rows.map((row) => [row.key_id, row.value]));
    for (const id of missing) {
      const text = texts.get(id) ?? null;
      const key = cacheKey(type, id);
      if ((writtenAt.get(key) ?? 0) <= startedAt) cache.set(key, text);
      if (text !== null) found[id] = decodeSignalKey(type, text);
    }
    if (readsInFlight === 0) writtenAt.clear();
    return found;
  }

  async function setKeys(data: SignalDataSet): Promise<void> {
    if (cleared) {
      log?.debug({ whatsappId: connectionId }, 'WhatsApp auth state cleared: key write ignored');
      return;
    }
    const upserts = { types: [] as string[], ids: [] as string[], values: [] as string[] };
    const deletes = { types: [] as string[], ids: [] as string[] };
    const written: Array<[key: string, text: string | null]> = [];
    for (const [type, values] of Object.entries(data)) {
      for (const [id, value] of Object.entries(values ?? {})) {
        if (value === null || value === undefined) {
          deletes.types.push(type);
          deletes.ids.push(id);
          written.push([cacheKey(type, id), null]);
        } else {
          const text = encodeSessionValue(value);
          upserts.types.push(type);
          upserts.ids.push(id);
          upserts.values.push(text);
          written.push([cacheKey(type, id), text]);
        }
      }
    }
    if (written.length === 0) return;

    // one statement, fence included: every inbound message rewrites its sender's session, and a round trip
    // is most of such a write's cost (a transaction of its own would take five)
    const writes: string[] = [];
    const bindings: unknown[] = [];
    if (deletes.ids.length > 0) {
      writes.push(`gone AS (
        DELETE FROM whatsapp_auth_keys k USING unnest(?::text[], ?::text[]) AS g(type, key_id)
        WHERE EXISTS (SELECT 1 FROM held) AND k.whatsapp_id = ? AND k.type = g.type AND k.key_id = g.key_id
        RETURNING 1)`);
      bindings.push(deletes.types, deletes.ids, connectionId);
    }
    if (upserts.ids.length > 0) {
      // a key both deleted and set in one batch can't be: Baileys hands the last value of each
      writes.push(`put AS (
        INSERT INTO whatsapp_auth_keys (company_id, whatsapp_id, type, key_id, value)
        SELECT ?, ?, k.type, k.key_id, k.value::jsonb FROM unnest(?::text[], ?::text[], ?::text[]) AS k(type, key_id, value)
        WHERE EXISTS (SELECT 1 FROM held)
        ON CONFLICT (whatsapp_id, type, key_id) DO UPDATE SET value = excluded.value
        RETURNING 1)`);
      bindings.push(companyId, connectionId, upserts.types, upserts.ids, upserts.values);
    }
    const write = tracked(lease.fencedWrite(writes, bindings));
    try {
      await write;
    } catch (error) {
      // rolled back — or, if the connection broke during COMMIT, maybe not: the database answers next time
      for (const [key] of written) cache.delete(key);
      throw error;
    } finally {
      noteWritten(written.map(([key]) => key));
    }
    for (const [key, text] of written) cache.update(key, text);
  }

  // saveCreds calls run one after another; those made while one waits share it (see PostgresAuthState)
  let credsTail: Promise<void> = Promise.resolve();
  let credsWaiting: Promise<void> | null = null;

  async function writeCreds(): Promise<void> {
    if (cleared) {
      log?.debug({ whatsappId: connectionId }, 'WhatsApp auth state cleared: creds write ignored');
      return;
    }
    // encoded now, before the first await: the creds as they are when this write starts
    const text = encodeSessionValue(creds);
    await lease.fenced((trx) =>
      trx.raw(
        `INSERT INTO whatsapp_auth_creds (whatsapp_id, company_id, creds, updated_at)
         VALUES (?, ?, ?::jsonb, clock_timestamp())
         ON CONFLICT (whatsapp_id) DO UPDATE SET creds = excluded.creds, updated_at = excluded.updated_at`,
        [connectionId, companyId, text],
      ),
    );
  }

  function saveCreds(): Promise<void> {
    if (credsWaiting) return credsWaiting;
    const save = credsTail
      .catch(() => {})
      .then(() => {
        credsWaiting = null;
        return writeCreds();
      });
    credsWaiting = save;
    credsTail = tracked(save);
    return save;
  }

  async function clear(): Promise<void> {
    cleared = true;
    await Promise.allSettled([...writesInFlight]);
    await lease.fenced(async (trx) => {
      await trx.raw('DELETE FROM whatsapp_auth_creds WHERE whatsapp_id = ?', [connectionId]);
      await trx.raw('DELETE FROM whatsapp_auth_keys WHERE whatsapp_id = ?', [connectionId]);
    });
    cache.clear();
  }

  const keys: SignalKeyStore = { get: getKeys, set: setKeys };
  return { state: { creds, keys }, saveCreds, clear, cacheStats: () => cache.stats() };
}

export { deleteAuthState, hasCreds } from './auth-rows';
