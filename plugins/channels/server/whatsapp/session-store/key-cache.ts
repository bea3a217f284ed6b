/**
 * The in-memory cache in front of one session's signal keys: least recently used first out, bounded by
 * entries and by bytes, and emptied of what nobody read for `idleMs` (an idle session costs next to nothing).
 *
 * It holds the **encoded** text of each value (or `null`: known to be absent), never the object handed to
 * Baileys: Baileys may change an object it read, and such a change must not reach the cache unless it is
 * written (and committed). Decoding per hit costs microseconds; the round trip it saves, a millisecond.
 */

/** Bounds of a {@link KeyCache}. */
export interface KeyCacheOptions {
  /** At most this many keys (default 2,000). */
  maxEntries?: number;
  /** At most this many bytes of encoded values, roughly (default 1 MiB). A value over an eighth is not kept. */
  maxBytes?: number;
  /** Keys not read or written for this long are dropped (default 5 minutes, as Baileys' own key cache). */
  idleMs?: number;
}

/** What a cache holds and how it served, for tests and metrics. */
export interface KeyCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
}

interface Entry {
  /** encoded value, or null when the key is known to be absent */
  text: string | null;
  cost: number;
  touchedAt: number;
}

// Map entry, key string and bookkeeping, roughly
const ENTRY_OVERHEAD = 80;

export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly maxValueBytes: number;
  readonly idleMs: number;
  private bytes = 0;
  private hits = 0;
  private misses = 0;

  constructor(
    options: KeyCacheOptions = {},
    private readonly now: () => number = () => performance.now(),
  ) {
    this.maxEntries = options.maxEntries ?? 2_000;
    this.maxBytes = options.maxBytes ?? 1024 * 1024;
    this.maxValueBytes = Math.floor(this.maxBytes / 8);
    this.idleMs = options.idleMs ?? 5 * 60_000;
  }

  /** The encoded value, `null` if known absent, `undefined` if not cached. */
  get(key: string): string | null | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    // most recently used last: Map iteration order is insertion order
    this.entries.delete(key);
    entry.touchedAt = this.now();
    this.entries.set(key, entry);
    return entry.text;
  }

  /** Keeps a value read from the database (or `null`: absent there). */
  set(key: string, text: string | null): void {
    this.delete(key);
    const cost = ENTRY_OVERHEAD + key.length + (text?.length ?? 0);
    if (cost > this.maxValueBytes) return;
    this.entries.set(key, { text, cost, touchedAt: this.now() });
    this.bytes += cost;
    this.evict();
  }

  /**
   * After a committed write: replaces the value of a key the cache holds, and nothing else — a batch of 800
   * fresh pre-keys must not push out the sessions in use.
   */
  update(key: string, text: string | null): void {
    if (this.entries.has(key)) this.set(key, text);
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.cost;
  }

  /** Drops the keys idle for `idleMs` (the oldest are first in the map). */
  sweep(): void {
    const before = this.now() - this.idleMs;
    for (const [key, entry] of this.entries) {
      if (entry.touchedAt > before) break;
      this.entries.delete(key);
      this.bytes -= entry.cost;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  stats(): KeyCacheStats {
    return { entries: this.entries.size, bytes: this.bytes, hits: this.hits, misses: this.misses };
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= entry.cost;
    }
  }
}
