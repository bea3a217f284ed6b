import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectGarbage, settleHeapAfterStartup } from './heap-settle';

const oldSpace = () => {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
  if (!space) throw new Error('no old space');
  return { reserved: space.space_size, used: space.space_used_size };
};

/**
 * Objects that live long enough to reach old space, then every other one dropped: every page half empty, which
 * V8's own heuristics leave as it is (it moves the survivors of a page only when most of it is free).
 */
async function fragmentOldSpace(megabytes: number): Promise<unknown[]> {
  const kept: unknown[] = [];
  const all: unknown[] = [];
  for (let i = 0; i < megabytes * 1024; i++) all.push({ index: i, payload: 'x'.repeat(900) + i });
  // survive two young collections: promoted
  collectGarbage({ compact: false });
  collectGarbage({ compact: false });
  for (let i = 0; i < all.length; i += 2) kept.push(all[i]);
  all.length = 0;
  await new Promise((resolve) => setTimeout(resolve, 10));
  return kept;
}

describe('settling the heap after start', () => {
  it('gives fragmented old space back when compacting, and keeps what is alive', async () => {
    const kept = await fragmentOldSpace(48);
    // half of ~48 MB is garbage spread over every page: a plain collection frees the objects but keeps the
    // pages mapped, a compacting one moves the survivors together and frees the pages it emptied (measured ~12 MB here, ~1 MB without compacting)
    collectGarbage({ compact: false });
    const plain = oldSpace();
    collectGarbage({ compact: true });
    const compacted = oldSpace();
    expect(plain.reserved - compacted.reserved).toBeGreaterThan(6 * 1024 * 1024);
    expect(kept).toHaveLength(48 * 512);
    expect((kept[1] as { index: number }).index).toBe(2);
  });

  it('does not leave `gc` exposed to code that did not have it', () => {
    const hadGc = typeof (globalThis as { gc?: unknown }).gc === 'function';
    collectGarbage({ compact: false });
    expect(typeof (globalThis as { gc?: unknown }).gc === 'function').toBe(hadGc);
    if (!hadGc) expect(vm.runInNewContext('typeof gc')).toBe('undefined');
  });

  it('runs after the delays unless cancelled', async () => {
    const kept = await fragmentOldSpace(32);
    collectGarbage({ compact: false });
    const cancelled = settleHeapAfterStartup({ compact: 1, shrink: 5 });
    cancelled();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = oldSpace();
    expect(before.reserved - before.used).toBeGreaterThan(4 * 1024 * 1024);
    const cancel = settleHeapAfterStartup({ compact: 1, shrink: 5 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(before.reserved - oldSpace().reserved).toBeGreaterThan(4 * 1024 * 1024);
    expect(kept.length).toBeGreaterThan(0);
    cancel();
  });
});
