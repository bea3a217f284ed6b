/**
 * A small in-memory cache with a time to live, a size bound and request coalescing (one load per key
 * at a time). Session data is read on every request, so it lives here, kept true by invalidation.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  private readonly inflight = new Map<K, Promise<V>>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > Date.now()) return hit.value;
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const promise = load()
      .then((value) => {
        // a clear() while loading means the loaded value may already be stale: don't keep it
        if (generation === this.generation) this.set(key, value);
        return value;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, promise);
    return promise;
  }

  set(key: K, value: V): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
    this.inflight.delete(key);
    this.generation++;
  }

  clear(): void {
    this.entries.clear();
    this.inflight.clear();
    this.generation++;
  }
}
