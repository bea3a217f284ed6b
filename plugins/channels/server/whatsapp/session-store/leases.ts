/**
 * Session leases: which process runs a WhatsApp connection's Baileys session.
 *
 * A lease is a row of `whatsapp_session_leases`: (ownerId, epoch) may run the connection until `expiresAt`,
 * on the **database clock** (every process compares against the same clock, none trusts its own). Acquiring
 * is one statement that succeeds only on an expired lease (or one the caller already owns) and adds 1 to the
 * epoch, so concurrent acquirers get exactly one winner and a stale holder never matches again. Each process
 * renews all its leases every ttl/3 in one statement; a lease the renewal no longer finds as (ownerId, epoch)
 * and live is **lost**.
 *
 * Fencing: every write of the session's secrets runs in {@link SessionLease.fenced}, a transaction that
 * first reads the lease row `FOR SHARE`. It fails unless the row is still this (ownerId, epoch) and live; and
 * while it runs, a takeover (whose UPDATE needs the row lock) waits for it to commit. So a process that lost
 * its lease — paused, partitioned — can't write over the new holder's secrets.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { preparedStatementName } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';

/** Why a lease was lost: taken by another acquisition (or revoked), its row deleted (the connection was), or expired. */
export type LeaseLostReason = 'superseded' | 'deleted' | 'expired';

/** What the leases log: pino, Fastify's logger and Baileys' `ILogger` fit. */
export interface SessionStoreLogger {
  warn(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

/**
 * Thrown by a fenced write when its lease is no longer held: lost (`reason` says how) or released by this
 * process. The session must stop its socket without logging out; the secrets belong to the new holder now.
 */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';

  constructor(
    readonly connectionId: number,
    readonly epoch: number,
    readonly reason: LeaseLostReason | 'released',
  ) {
    super(`the session lease of connection ${connectionId} (epoch ${epoch}) is no longer held: ${reason}`);
  }
}

/** Who holds a connection's lease, as the database says now. */
export interface LeaseHolder {
  whatsappId: number;
  companyId: number;
  ownerId: string;
  epoch: number;
  expiresAt: Date;
  /** Not expired (database clock): the owner may be running the session. */
  live: boolean;
}

/** A connection that should run and has no live lease. */
export interface ConnectionWithoutLease {
  whatsappId: number;
  companyId: number;
  /** The last lease, expired or released; null if the connection never ran. */
  previous: { ownerId: string; epoch: number; expiresAt: Date } | null;
}

/**
 * Which connections should run, for {@link SessionLeases.expired}: given ids, or those of `whatsapps` matching
 * every given filter (channels, statuses, companies).
 */
export type ConnectionsToRun =
  | { whatsappIds: readonly number[] }
  | { channels?: readonly string[]; statuses?: readonly string[]; companyIds?: readonly number[] };

/** A lease held by this process: one connection, one epoch. */
export interface SessionLease {
  readonly connectionId: number;
  readonly companyId: number;
  readonly ownerId: string;
  readonly epoch: number;
  /** Expiry as of the last acquisition or renewal (database clock). */
  readonly expiresAt: Date;
  /** Lost: another process may run the connection now. */
  readonly lost: boolean;
  /** Released by this process (it stopped the session, or the process is stopping). */
  readonly released: boolean;
  /** Aborted, with a {@link LeaseLostError}, when the lease is lost or released: stop what depends on it. */
  readonly signal: AbortSignal;
  /**
   * Calls `listener` once, at once, when the lease is lost (not when released). Stop the socket without logging
   * out. Returns the unsubscribe.
   */
  onLost(listener: (error: LeaseLostError) => void): () => void;
  /**
   * Expires the lease now (the row stays, so epochs keep increasing) and tells {@link SessionLeases.onReleased}
   * listeners, so that another process may take the connection at once. Waits for fenced writes in flight.
   * Idempotent; does nothing once lost.
   */
  release(): Promise<void>;
  /**
   * Runs `fn` in a transaction that holds the fence: the lease row, read `FOR SHARE`, is this (ownerId, epoch)
   * and live, and stays so until commit. Otherwise throws {@link LeaseLostError} (and the lease is lost).
   */
  fenced<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
  /**
   * The same fence in one statement, for writes that fit one (a round trip instead of five: the auth keys
   * every inbound message rewrites). `writes` are data-modifying CTEs (`name AS (INSERT …)`) that write only
   * `WHERE EXISTS (SELECT 1 FROM held)`; the statement reads the lease row `FOR SHARE` in a CTE `held`, so
   * a takeover waits for it, and nothing is written unless the lease is this (ownerId, epoch) and live —
   * else it throws {@link LeaseLostError} as `fenced` does.
   */
  fencedWrite(writes: string[], bindings: readonly unknown[]): Promise<void>;
}

/** The leases of one process. */
export interface SessionLeases {
  readonly ownerId: string;
  readonly ttlMs: number;
  /** How often the held leases are renewed (ttl/3 unless told). */
  readonly renewEveryMs: number;
  /**
   * Takes the connection's lease if it is expired, free or this process's own (then superseding the held
   * one, which is lost). Null when another process holds a live lease, or the connection doesn't exist (in
   * this company).
   */
  acquire(companyId: number, connectionId: number): Promise<SessionLease | null>;
  /** The live lease this process holds for the connection, if any (no database call). */
  held(connectionId: number): SessionLease | undefined;
  /** The connection's lease row, for routing (which process runs it): null if it never ran. */
  holder(connectionId: number): Promise<LeaseHolder | null>;
  /** Connections among `connections` whose lease is expired or missing: oldest expiry first, at most `limit`. */
  expired(connections: ConnectionsToRun, limit?: number): Promise<ConnectionWithoutLease[]>;
  /** Renews every held lease now, in one statement (the timer does so every `renewEveryMs`). */
  renew(): Promise<void>;
  /**
   * Calls `listener` after a lease of this process is released, so the caller can tell the other processes
   * (the feature broadcast) that the connection is free. Returns the unsubscribe.
   */
  onReleased(listener: (released: { whatsappId: number; companyId: number; epoch: number }) => void): () => void;
  /** Stops renewing and releases every held lease (process stopping). */
  close(): Promise<void>;
}

/** Options of {@link createSessionLeases}. */
export interface SessionLeasesOptions {
  /** Unique per process lifetime (see {@link newLeaseOwnerId}): two processes with one id would both win. */
  ownerId: string;
  /** A lease lives this long past its last renewal (database clock). */
  ttlMs: number;
  /** Default ttl/3: two renewals may fail before the lease expires. */
  renewEveryMs?: number;
  /** False: no timer; the caller renews with `renew()` (tests standing for a stalled process). */
  autoRenew?: boolean;
  log?: SessionStoreLogger;
}

/** An owner id unique to this process lifetime: host, pid and a random part (pids are reused). */
export function newLeaseOwnerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

const TTL = `? * interval '1 millisecond'`;

interface LeaseRow {
  owner_id: string;
  epoch: number | string;
  expires_at: Date;
  live: boolean;
}

/** Why a lease row read under the fence or by a renewal is not (ownerId, epoch) and live; null if it is. */
function lostReason(row: LeaseRow | undefined, ownerId: string, epoch: number): LeaseLostReason | null {
  if (!row) return 'deleted';
  if (row.owner_id !== ownerId || Number(row.epoch) !== epoch) return 'superseded';
  return row.live ? null : 'expired';
}

class Lease implements SessionLease {
  lost = false;
  released = false;
  private readonly controller = new AbortController();
  private readonly lostListeners = new Set<(error: LeaseLostError) => void>();
  /** performance.now() when the statement that last confirmed the lease started: the ttl counts from there at worst. */
  confirmedAt: number;

  constructor(
    private readonly manager: LeaseManager,
    readonly connectionId: number,
    readonly companyId: number,
    readonly ownerId: string,
    readonly epoch: number,
    public expiresAt: Date,
    startedAt: number,
  ) {
    this.confirmedAt = startedAt;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get usable(): boolean {
    return !this.lost && !this.released;
  }

  onLost(listener: (error: LeaseLostError) => void): () => void {
    if (this.lost) {
      // already lost: the caller still learns it, once
      queueMicrotask(() => listener(this.controller.signal.reason as LeaseLostError));
      return () => {};
    }
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** Marks the lease lost (once) and tells its listeners at once. Returns the error to throw. */
  markLost(reason: LeaseLostReason): LeaseLostError {
    if (!this.usable) return this.endError();
    const error = new LeaseLostError(this.connectionId, this.epoch, reason);
    this.lost = true;
    this.manager.forget(this);
    this.controller.abort(error);
    this.manager.log?.warn({ whatsappId: this.connectionId, epoch: this.epoch, reason }, 'WhatsApp session lease lost');
    const listeners = [...this.lostListeners];
    this.lostListeners.clear();
    for (const listener of listeners) {
      try {
        listener(error);
      } catch (listenerError) {
        this.manager.log?.warn({ err: listenerError, whatsappId: this.connectionId }, 'a lease-lost listener failed');
      }
    }
    return error;
  }

  markReleased(): void {
    if (!this.usable) return;
    this.released = true;
    this.lostListeners.clear();
    this.manager.forget(this);
    this.controller.abort(new LeaseLostError(this.connectionId, this.epoch, 'released'));
  }

  private endError(): LeaseLostError {
    const reason = this.controller.signal.reason;
    return reason instanceof LeaseLostError ? reason : new LeaseLostError(this.connectionId, this.epoch, 'released');
  }

  async release(): Promise<void> {
    if (!this.usable) return;
    await this.manager.releaseAll([this]);
  }

  async fencedWrite(writes: string[], bindings: readonly unknown[]): Promise<void> {
    if (!this.usable) throw this.endError();
    const sql = `WITH lease AS (
         SELECT owner_id, epoch, expires_at, expires_at > clock_timestamp() AS live
         FROM whatsapp_session_leases WHERE whatsapp_id = ? FOR SHARE
       ), held AS (SELECT 1 FROM lease WHERE owner_id = ? AND epoch = ? AND live)${writes.map((write) => `, ${write}`).join('')}
       SELECT (SELECT row_to_json(lease) FROM lease) AS lease`;
    const { rows } = await this.manager.knex
      .raw(sql, [this.connectionId, this.ownerId, this.epoch, ...bindings] as Knex.RawBinding[])
      // every inbound message writes its sender's Signal session with the same text: prepared once per
      // connection, not parsed and planned for each message
      .options({ name: preparedStatementName('wa_fenced', sql) });
    const reason = lostReason((rows[0] as { lease: LeaseRow | null } | undefined)?.lease ?? undefined, this.ownerId, this.epoch);
    if (reason) throw this.markLost(reason);
    // released by this process while the statement waited: what it wrote was still under the lease
    if (!this.usable) throw this.endError();
  }

  async fenced<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    if (!this.usable) throw this.endError();
    return this.manager.knex.transaction(async (trx) => {
      const { rows } = await trx.raw(
        `SELECT owner_id, epoch, expires_at, expires_at > clock_timestamp() AS live
         FROM whatsapp_session_leases WHERE whatsapp_id = ? FOR SHARE`,
        [this.connectionId],
      );
      const reason = lostReason(rows[0] as LeaseRow | undefined, this.ownerId, this.epoch);
      if (reason) throw this.markLost(reason);
      // released by this process while the fence waited: the row may still say it is ours
      if (!this.usable) throw this.endError();
      return fn(trx);
    });
  }
}

class LeaseManager implements SessionLeases {
  private readonly leases = new Map<number, Lease>();
  private readonly releasedListeners = new Set<(released: { whatsappId: number; companyId: number; epoch: number }) => void>();
  private readonly timer: NodeJS.Timeout | null;
  private renewing: Promise<void> | null = null;
  private closed = false;
  readonly ownerId: string;
  readonly ttlMs: number;
  readonly renewEveryMs: number;
  readonly log: SessionStoreLogger | undefined;

  constructor(
    readonly knex: Knex,
    options: SessionLeasesOptions,
  ) {
    if (!options.ownerId) throw new Error('a lease owner id is required');
    if (!Number.isInteger(options.ttlMs) || options.ttlMs < 100) throw new Error('ttlMs must be a whole number ≥ 100');
    this.ownerId = options.ownerId;
    this.ttlMs = options.ttlMs;
    this.renewEveryMs = options.renewEveryMs ?? Math.floor(options.ttlMs / 3);
    if (!(this.renewEveryMs > 0 && this.renewEveryMs < this.ttlMs)) throw new Error('renewEveryMs must be between 0 and ttlMs');
    this.log = options.log;
    this.timer =
      options.autoRenew === false
        ? null
        : setInterval(() => {
            this.renew().catch((error: unknown) => this.log?.warn({ err: error }, 'WhatsApp session leases: renewal failed'));
          }, this.renewEveryMs);
    // a lease manager alone must not keep a process alive
    this.timer?.unref();
  }

  async acquire(companyId: number, connectionId: number): Promise<SessionLease | null> {
    if (this.closed) throw new Error('the session leases are closed');
    const startedAt = performance.now();
    let rows: Array<{ epoch: number | string; expires_at: Date }>;
    try {
      ({ rows } = await this.knex.raw(
        `WITH connection AS (
           SELECT id, company_id FROM whatsapps WHERE id = ? AND company_id = ?
         )
         INSERT INTO whatsapp_session_leases AS lease (whatsapp_id, company_id, owner_id, epoch, expires_at, updated_at)
         SELECT id, company_id, ?, 1, clock_timestamp() + ${TTL}, clock_timestamp() FROM connection
         ON CONFLICT (whatsapp_id) DO UPDATE
           SET owner_id = excluded.owner_id, company_id = excluded.company_id, epoch = lease.epoch + 1,
               expires_at = clock_timestamp() + ${TTL}, updated_at = clock_timestamp()
           -- clock_timestamp(), not now(): after waiting for a fenced write or a release, compare with the time it is
           WHERE lease.expires_at <= clock_timestamp() OR lease.owner_id = excluded.owner_id
         RETURNING epoch, expires_at`,
        [connectionId, companyId, this.ownerId, this.ttlMs, this.ttlMs],
      ));
    } catch (error) {
      // the connection was deleted between the read and the insert
      if ((error as { code?: string }).code === '23503') return null;
      throw error;
    }
    const row = rows[0];
    if (!row) return null;
    const lease = new Lease(this, connectionId, companyId, this.ownerId, Number(row.epoch), row.expires_at, startedAt);
    // this process acquired it again (a restart of the session): the older lease object is stale
    this.leases.get(connectionId)?.markLost('superseded');
    if (this.closed) {
      // closed while acquiring: give it back
      this.leases.set(connectionId, lease);
      await this.releaseAll([lease]);
      return null;
    }
    this.leases.set(connectionId, lease);
    this.log?.debug({ whatsappId: connectionId, epoch: lease.epoch }, 'WhatsApp session lease acquired');
    return lease;
  }

  held(connectionId: number): SessionLease | undefined {
    return this.leases.get(connectionId);
  }

  /** Called by a lease that ended (lost or released): no more renewals. */
  forget(lease: Lease): void {
    if (this.leases.get(lease.connectionId) === lease) this.leases.delete(lease.connectionId);
  }

  async holder(connectionId: number): Promise<LeaseHolder | null> {
    const { rows } = await this.knex.raw(
      `SELECT company_id, owner_id, epoch, expires_at, expires_at > clock_timestamp() AS live
       FROM whatsapp_session_leases WHERE whatsapp_id = ?`,
      [connectionId],
    );
    const row = rows[0] as (LeaseRow & { company_id: number }) | undefined;
    if (!row) return null;
    return {
      whatsappId: connectionId,
      companyId: row.company_id,
      ownerId: row.owner_id,
      epoch: Number(row.epoch),
      expiresAt: row.expires_at,
      live: row.live,
    };
  }

  expired(connections: ConnectionsToRun, limit = 100): Promise<ConnectionWithoutLease[]> {
    return connectionsWithoutLease(this.knex, connections, limit);
  }

  renew(): Promise<void> {
    // one renewal at a time: a slow one is not stacked on
    this.renewing ??= this.renewHeld().finally(() => {
      this.renewing = null;
    });
    return this.renewing;
  }

  private async renewHeld(): Promise<void> {
    const held = [...this.leases.values()];
    if (held.length === 0) return;
    const startedAt = performance.now();
    let rows: Array<LeaseRow & { whatsapp_id: number; renewed_until: Date | null }>;
    try {
      ({ rows } = await this.knex.raw(
        `WITH held AS (
           SELECT * FROM unnest(?::int[], ?::bigint[]) AS held(whatsapp_id, epoch)
         ), renewed AS (
           UPDATE whatsapp_session_leases lease
           SET expires_at = clock_timestamp() + ${TTL}, updated_at = clock_timestamp()
           FROM held
           WHERE lease.whatsapp_id = held.whatsapp_id AND lease.epoch = held.epoch AND lease.owner_id = ?
             AND lease.expires_at > clock_timestamp()
           RETURNING lease.whatsapp_id, lease.expires_at
         )
         -- for the leases not renewed, the row as it was (missing, another owner or epoch, expired) says why
         SELECT held.whatsapp_id, renewed.expires_at AS renewed_until,
           current.owner_id, current.epoch, current.expires_at, current.expires_at > clock_timestamp() AS live
         FROM held
         LEFT JOIN renewed ON renewed.whatsapp_id = held.whatsapp_id
         LEFT JOIN whatsapp_session_leases current ON current.whatsapp_id = held.whatsapp_id`,
        [held.map((lease) => lease.connectionId), held.map((lease) => lease.epoch), this.ttlMs, this.ownerId],
      ));
    } catch (error) {
      this.log?.warn({ err: error, leases: held.length }, 'WhatsApp session leases: renewal failed');
      // unconfirmed for a whole ttl: another process may hold them by now (by the database clock); give up
      // on this process's clock, which can only make us stop early, never run late
      const now = performance.now();
      for (const lease of held) if (now - lease.confirmedAt >= this.ttlMs) lease.markLost('expired');
      return;
    }
    const byId = new Map(rows.map((row) => [row.whatsapp_id, row]));
    for (const lease of held) {
      // released or superseded locally while renewing: nothing to say about this one
      if (this.leases.get(lease.connectionId) !== lease) continue;
      const row = byId.get(lease.connectionId);
      if (row?.renewed_until) {
        lease.confirmedAt = startedAt;
        lease.expiresAt = row.renewed_until;
      } else {
        // the row not renewed: no row, another owner or epoch, or expired
        const current = row?.owner_id === undefined || row.owner_id === null ? undefined : row;
        lease.markLost(lostReason(current, lease.ownerId, lease.epoch) ?? 'expired');
      }
    }
  }

  /** Expires these leases now in one statement and tells the release listeners of each one released. */
  async releaseAll(leases: Lease[]): Promise<void> {
    const releasing = leases.filter((lease) => lease.usable);
    if (releasing.length === 0) return;
    // no more renewals or fenced writes from here on, whatever the statement answers
    for (const lease of releasing) lease.markReleased();
    const { rows } = await this.knex.raw(
      `UPDATE whatsapp_session_leases lease SET expires_at = clock_timestamp(), updated_at = clock_timestamp()
       FROM unnest(?::int[], ?::bigint[]) AS released(whatsapp_id, epoch)
       WHERE lease.whatsapp_id = released.whatsapp_id AND lease.epoch = released.epoch AND lease.owner_id = ?
         AND lease.expires_at > clock_timestamp()
       RETURNING lease.whatsapp_id`,
      [releasing.map((lease) => lease.connectionId), releasing.map((lease) => lease.epoch), this.ownerId],
    );
    const released = new Set((rows as Array<{ whatsapp_id: number }>).map((row) => row.whatsapp_id));
    for (const lease of releasing) {
      if (!released.has(lease.connectionId)) continue;
      this.log?.debug({ whatsappId: lease.connectionId, epoch: lease.epoch }, 'WhatsApp session lease released');
      for (const listener of this.releasedListeners) {
        try {
          listener({ whatsappId: lease.connectionId, companyId: lease.companyId, epoch: lease.epoch });
        } catch (error) {
          this.log?.warn({ err: error, whatsappId: lease.connectionId }, 'a lease-released listener failed');
        }
      }
    }
  }

  onReleased(listener: (released: { whatsappId: number; companyId: number; epoch: number }) => void): () => void {
    this.releasedListeners.add(listener);
    return () => this.releasedListeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.renewing?.catch(() => {});
    await this.releaseAll([...this.leases.values()]);
  }
}

/**
 * Creates the session leases of this process: `ownerId` unique to the process lifetime, leases living `ttlMs`
 * past their last renewal, renewed every ttl/3 while the process runs. Close it when the process stops.
 *
 * @example
 * const leases = createSessionLeases(ctx.db.knex, { ownerId: newLeaseOwnerId(), ttlMs: 30_000, log: ctx.log });
 * const lease = await leases.acquire(companyId, connectionId);
 * if (lease) lease.onLost(() => session.stopWithoutLogout());
 */
export function createSessionLeases(knex: Knex, options: SessionLeasesOptions): SessionLeases {
  return new LeaseManager(knex, options);
}

/**
 * Connections among `connections` whose lease is expired or that never had one — those no process runs —
 * oldest expiry first (never-run ones before), at most `limit`.
 */
export async function connectionsWithoutLease(
  knex: Knex | Knex.Transaction,
  connections: ConnectionsToRun,
  limit = 100,
): Promise<ConnectionWithoutLease[]> {
  const filters: string[] = [];
  const bindings: Knex.RawBinding[] = [];
  if ('whatsappIds' in connections) {
    filters.push('w.id = ANY(?::int[])');
    bindings.push([...connections.whatsappIds]);
  } else {
    if (connections.channels) {
      filters.push('w.channel = ANY(?::text[])');
      bindings.push([...connections.channels]);
    }
    if (connections.statuses) {
      filters.push('w.status = ANY(?::text[])');
      bindings.push([...connections.statuses]);
    }
    if (connections.companyIds) {
      filters.push('w.company_id = ANY(?::int[])');
      bindings.push([...connections.companyIds]);
    }
  }
  const { rows } = await knex.raw(
    `SELECT w.id AS whatsapp_id, w.company_id, lease.owner_id, lease.epoch, lease.expires_at
     FROM whatsapps w
     LEFT JOIN whatsapp_session_leases lease ON lease.whatsapp_id = w.id
     WHERE (lease.whatsapp_id IS NULL OR lease.expires_at <= clock_timestamp())
       ${filters.map((filter) => `AND ${filter}`).join(' ')}
     ORDER BY lease.expires_at ASC NULLS FIRST, w.id
     LIMIT ?`,
    [...bindings, limit],
  );
  return (
    rows as Array<{
      whatsapp_id: number;
      company_id: number;
      owner_id: string | null;
      epoch: number | string | null;
      expires_at: Date | null;
    }>
  ).map((row) => ({
    whatsappId: row.whatsapp_id,
    companyId: row.company_id,
    previous:
      row.owner_id === null || row.epoch === null || row.expires_at === null
        ? null
        : { ownerId: row.owner_id, epoch: Number(row.epoch), expiresAt: row.expires_at },
  }));
}
