import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Claimed-rows loops: the machinery of work that must happen exactly once across worker processes and
 * crashes, kept as rows in Postgres rather than as timers (docs/plugin-authoring.md "Claimed rows"). Each
 * worker runs a few lanes; a lane claims due rows with `FOR UPDATE SKIP LOCKED` and a lease (a token and a
 * time), works them, and when nothing is due waits — a wait that doubles up to a ceiling and that a wake-up
 * (a notify from any process) cuts short. A process killed at any instant leaves rows whose lease runs out,
 * and the next claim takes them again; what the work recorded under the token tells it where it stopped.
 */

/** What a loop reads the time from (tests hand in their own). */
export interface Clock {
  now(): Date;
}

/** The machine's clock. */
export const systemClock: Clock = { now: () => new Date() };

/** Thrown inside a transaction when a claim is no longer this process's (its lease passed): rolls it back. */
export class LostClaim extends Error {}

/** A fresh lease token: the rows a claim takes carry it until their outcome is written. */
export function leaseToken(): string {
  return randomUUID();
}

/** What `claimDueRows` claims and how. */
export interface ClaimDueRows {
  /** The table (snake_case, as in SQL): it has `id`, `lease_until`, `lease_token` and `attempts`. */
  table: string;
  /**
   * What makes a row due, as SQL with `?` bindings (not the lease: a row whose lease is held is left out
   * here), e.g. `status = 'PENDENTE' AND due_at <= ?`.
   */
  due: string;
  dueBindings: readonly Knex.RawBinding[];
  /** The claim's order, in SQL (the due index's, so the claim walks it). */
  orderBy: string;
  limit: number;
  now: Date;
  leaseMs: number;
  token: string;
  /** The columns the claim answers, in SQL, of the table aliased `s`. */
  returning: string;
}

/**
 * Claims up to `limit` due rows whose lease is free or over, skipping rows another claim holds: each gets
 * the lease (`lease_until` = now + leaseMs, `lease_token`) and one more attempt. Answers the rows as
 * `returning` reads them. Run it inside a transaction when the claim must be one with other writes.
 */
export async function claimDueRows<Row>(knex: Knex | Knex.Transaction, claim: ClaimDueRows): Promise<Row[]> {
  const leaseUntil = new Date(claim.now.getTime() + claim.leaseMs);
  const claimed = (await knex.raw(
    `WITH picked AS (
       SELECT id FROM ${claim.table}
       WHERE ${claim.due} AND (lease_until IS NULL OR lease_until < ?)
       ORDER BY ${claim.orderBy} LIMIT ? FOR UPDATE SKIP LOCKED
     )
     UPDATE ${claim.table} s SET lease_until = ?, lease_token = ?, attempts = s.attempts + 1
     FROM picked WHERE s.id = picked.id
     RETURNING ${claim.returning}`,
    [...claim.dueBindings, claim.now, claim.limit, leaseUntil, claim.token],
  )) as { rows: Row[] };
  return claimed.rows;
}

/** How a claim's lease is kept ahead while its rows are worked. */
export interface KeepLeaseOptions {
  leaseMs: number;
  clock: Clock;
  /** Writes the new `lease_until` on the rows still under the claim's token. */
  renew(leaseUntil: Date): Promise<unknown>;
  /** A renewal that failed (the next one tries again). */
  onError(error: unknown): void;
}

/**
 * Renews a claim's lease every third of it until stopped. A busy machine may take longer than a lease for
 * one batch; without renewal another lane would claim the rows meanwhile and work them twice. A dead
 * process renews nothing, so its rows still come back one lease after its last renewal.
 */
export function keepLeaseAhead(options: KeepLeaseOptions): { stop(): Promise<void> } {
  let pending: Promise<unknown> = Promise.resolve();
  const timer = setInterval(
    () => {
      pending = options.renew(new Date(options.clock.now().getTime() + options.leaseMs)).catch(options.onError);
    },
    Math.max(100, Math.floor(options.leaseMs / 3)),
  );
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await pending;
    },
  };
}

/** The lanes and waits of a `ClaimedRowsLoop`. */
export interface ClaimedRowsLoopOptions {
  /** Lanes per process (each works one claim at a time). */
  lanes: number;
  /** The first wait of an idle lane; each next idle wait doubles it. */
  idleMs: number;
  /** The longest idle wait (work or a wake-up starts again from `idleMs`). */
  maxIdleMs: number;
  /** One pass: claim and work; answers how many rows it worked (0: nothing due now). */
  pass(): Promise<number>;
  /** A pass that threw (the lane goes on after an idle wait). */
  onError(error: unknown): void;
}

/** Lanes that run passes while there is work, back off while there is none, and wake on demand. */
export class ClaimedRowsLoop {
  private stopped = true;
  private lanes: Promise<void>[] = [];
  private wakers: Array<() => void> = [];
  private idleMs = 0;
  /** Wake-ups so far: a lane that was woken during its pass looks again instead of waiting. */
  private wakes = 0;

  constructor(private readonly options: ClaimedRowsLoopOptions) {}

  /** Starts the lanes (worker processes only). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.lanes = Array.from({ length: this.options.lanes }, () => this.lane());
  }

  /** Stops the lanes after their pass in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await Promise.allSettled(this.lanes);
    this.lanes = [];
  }

  /** Ends idle waits at once, and the next one starts from the shortest. */
  wake(): void {
    this.wakes += 1;
    this.idleMs = 0;
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }

  private idle(): Promise<void> {
    this.idleMs = Math.min(this.options.maxIdleMs, this.idleMs === 0 ? this.options.idleMs : this.idleMs * 2);
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.idleMs);
      timer.unref();
      const wakers = this.wakers;
      function done() {
        clearTimeout(timer);
        const index = wakers.indexOf(done);
        if (index >= 0) wakers.splice(index, 1);
        resolve();
      }
      this.wakers.push(done);
    });
  }

  private async lane(): Promise<void> {
    while (!this.stopped) {
      let worked = 0;
      const wakesBefore = this.wakes;
      try {
        worked = await this.options.pass();
      } catch (error) {
        this.options.onError(error);
      }
      if (worked > 0) this.idleMs = 0;
      // a wake-up during the pass may name rows its claim came too early for
      else if (!this.stopped && this.wakes === wakesBefore) await this.idle();
    }
  }
}
