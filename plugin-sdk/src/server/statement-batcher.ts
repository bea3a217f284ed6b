/**
 * Runs many small statements of one kind (writes or reads) as few: each is submitted on its own and answered
 * on its own, but while statements are in flight the ones that arrive meanwhile wait and then leave
 * together, as one statement over all of them (`runMany`). One alone (a quiet moment) goes at once as its
 * own statement (`runOne`): batching adds no wait, it only gathers what would have queued anyway.
 *
 * Why: on a busy inbox most of Postgres' cost of an inbound message is per statement, not per row — the
 * commit (a WAL flush), the executor's start and end, the locks, the round trip — and so is much of the
 * server's (encoding, the socket write, parsing). One statement of 20 rows costs a fraction of 20
 * statements (docs/benchmarks.md, "Inbox"; docs/plugin-authoring.md).
 *
 * A batch that fails (any error: a deadlock, a row a concurrent statement deleted) is undone as a whole by
 * Postgres, and its writes then run one by one, so each gets exactly the answer or error it would have got
 * alone.
 */
export interface BatcherOptions<Item, Result> {
  /** One write as its own statement. */
  runOne: (item: Item) => Promise<Result>;
  /** Several writes as one statement: one result per item, in their order. */
  runMany: (items: Item[]) => Promise<Result[]>;
  /**
   * Whether `item` must not share a statement with `earlier` (one statement sees none of its own rows: a
   * redelivery of a message in the same batch, or a reply to it, must wait for the batch before it). A
   * batch ends at the first such item, so writes keep their order.
   */
  conflicts: (earlier: Item, item: Item) => boolean;
  /** Statements of this batcher in flight at once. */
  maxInFlight: number;
  /** Writes in one statement at most. */
  maxBatch: number;
}

interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/** What a batcher did: statements run, items they carried (batches of one included), the largest batch, failed batches. */
export interface BatcherStats {
  statements: number;
  writes: number;
  largest: number;
  fallbacks: number;
}

export class StatementBatcher<Item, Result> {
  private readonly queue: Array<Waiting<Item, Result>> = [];
  private inFlight = 0;
  /** What this batcher did: what the tests and the bench read. */
  readonly stats: BatcherStats = { statements: 0, writes: 0, largest: 0, fallbacks: 0 };

  /** The stats of several batchers (a statement's variants) taken together. */
  static totals(batchers: Iterable<{ stats: BatcherStats }>): BatcherStats {
    const totals: BatcherStats = { statements: 0, writes: 0, largest: 0, fallbacks: 0 };
    for (const { stats } of batchers) {
      totals.statements += stats.statements;
      totals.writes += stats.writes;
      totals.largest = Math.max(totals.largest, stats.largest);
      totals.fallbacks += stats.fallbacks;
    }
    return totals;
  }

  constructor(private readonly options: BatcherOptions<Item, Result>) {}

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.take();
      this.inFlight += 1;
      void this.run(batch).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  /** The next batch: waiting writes in order, up to maxBatch, ending before the first that conflicts. */
  private take(): Array<Waiting<Item, Result>> {
    const batch: Array<Waiting<Item, Result>> = [];
    while (batch.length < this.options.maxBatch && this.queue.length > 0) {
      const next = this.queue[0] as Waiting<Item, Result>;
      if (batch.some((taken) => this.options.conflicts(taken.item, next.item))) break;
      batch.push(next);
      this.queue.shift();
    }
    return batch;
  }

  private async run(batch: Array<Waiting<Item, Result>>): Promise<void> {
    this.stats.statements += 1;
    this.stats.writes += batch.length;
    this.stats.largest = Math.max(this.stats.largest, batch.length);
    if (batch.length > 1) {
      let results: Result[];
      try {
        results = await this.options.runMany(batch.map((waiting) => waiting.item));
      } catch {
        // undone as a whole: each write again on its own (below), to its own answer or error
        this.stats.fallbacks += 1;
        return this.runEach(batch);
      }
      batch.forEach((waiting, index) => {
        if (index < results.length) waiting.resolve(results[index] as Result);
        else waiting.reject(new Error(`statement batcher: no result for write ${index + 1} of ${batch.length}`));
      });
      return;
    }
    return this.runEach(batch);
  }

  private async runEach(batch: Array<Waiting<Item, Result>>): Promise<void> {
    await Promise.all(
      batch.map(async (waiting) => {
        try {
          waiting.resolve(await this.options.runOne(waiting.item));
        } catch (error) {
          waiting.reject(error);
        }
      }),
    );
  }
}

/**
 * `make(instance)` once per instance (a knex instance, say: one app's batchers share its pool), kept as long
 * as the instance lives.
 */
export function perInstance<Instance extends object, Value>(make: (instance: Instance) => Value): (instance: Instance) => Value {
  const made = new WeakMap<Instance, Value>();
  return (instance) => {
    let value = made.get(instance);
    if (value === undefined) {
      value = make(instance);
      made.set(instance, value);
    }
    return value;
  };
}
