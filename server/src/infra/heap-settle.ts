import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Starting the server allocates far more than it keeps: the bundle is parsed, every route's validators and
 * serializers are generated as source and compiled, the plugins' modules run their set-up. Measured on the
 * bundle with every plugin loaded: ~98 MB of old space in use when ready, ~38 MB of it live. V8 only collects
 * old space when it grows, and an idle server hardly allocates, so that garbage stayed resident for the life
 * of the process (idle RSS 210 MB against the 150 MB budget, docs/benchmarks.md "Plugin host"); and the young
 * generation, grown to its maximum (2 × 16 MB) by the start's allocation rate, stayed at that size.
 *
 * So once the server is ready, two full collections: the first compacts old space (the startup garbage is
 * spread over most pages, so without compaction the pages stay mapped), the second, a few seconds later when
 * the allocation rate has dropped, lets V8 shrink the young generation (it does so at a full collection when
 * little is being allocated). Each pause is tens of milliseconds, once, at start (measured: 210 → 136 MB).
 *
 * Node exposes no collection without `--expose-gc`; the flag is turned on only long enough to take the
 * function from a new context (V8 installs `gc` in contexts created while it is on), so that a plain
 * `node main.mjs` — how production and the bench run the bundle — settles too.
 */
export function collectGarbage(options: { compact: boolean }): void {
  const gc = gcFunction();
  if (!options.compact) {
    gc();
    return;
  }
  v8.setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    v8.setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

let cachedGc: (() => void) | undefined;

function gcFunction(): () => void {
  if (cachedGc) return cachedGc;
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') {
    cachedGc = exposed;
    return exposed;
  }
  v8.setFlagsFromString('--expose-gc');
  try {
    cachedGc = vm.runInNewContext('gc') as () => void;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
  return cachedGc;
}

/** How long after ready each collection of `settleHeapAfterStartup` runs. */
export const HEAP_SETTLE_DELAYS_MS = { compact: 2_000, shrink: 8_000 };

/**
 * Schedules the two collections after start (see `collectGarbage`). The timers don't keep the process alive,
 * and the returned function cancels them (a process stopping before they ran).
 */
export function settleHeapAfterStartup(delays = HEAP_SETTLE_DELAYS_MS): () => void {
  const compact = setTimeout(() => collectGarbage({ compact: true }), delays.compact);
  const shrink = setTimeout(() => collectGarbage({ compact: false }), delays.shrink);
  compact.unref();
  shrink.unref();
  return () => {
    clearTimeout(compact);
    clearTimeout(shrink);
  };
}
