import { describe, expect, it } from 'vitest';
import { KeyCache } from './key-cache';

describe('the key cache', () => {
  it('tells a miss (undefined) from a key known absent (null)', () => {
    const cache = new KeyCache();
    expect(cache.get('session|a')).toBeUndefined();
    cache.set('session|a', null);
    expect(cache.get('session|a')).toBeNull();
    cache.set('session|a', '"x"');
    expect(cache.get('session|a')).toBe('"x"');
    expect(cache.stats()).toMatchObject({ entries: 1, hits: 2, misses: 1 });
  });

  it('drops the least recently used past its entry bound', () => {
    const cache = new KeyCache({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c']) cache.set(id, id);
    cache.get('a');
    cache.set('d', 'd');
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual(['a', 'c', 'd']);
    expect(cache.stats().entries).toBe(3);
  });

  it('stays under its byte bound and never keeps a value over an eighth of it', () => {
    const cache = new KeyCache({ maxBytes: 8_000 });
    cache.set('big', 'x'.repeat(1_000));
    expect(cache.get('big')).toBeUndefined();
    for (let i = 0; i < 100; i += 1) cache.set(`k${i}`, 'y'.repeat(500));
    expect(cache.stats().bytes).toBeLessThanOrEqual(8_000);
    expect(cache.get('k99')).toBe('y'.repeat(500));
    expect(cache.get('k0')).toBeUndefined();
  });

  it('after a write, updates only keys it holds (a batch of fresh pre-keys pushes nothing out)', () => {
    const cache = new KeyCache({ maxEntries: 2 });
    cache.set('session|a', '1');
    cache.set('session|b', null);
    for (let i = 0; i < 800; i += 1) cache.update(`pre-key|${i}`, '{}');
    cache.update('session|a', '2');
    cache.update('session|b', '3');
    expect([cache.get('session|a'), cache.get('session|b'), cache.get('pre-key|1')]).toEqual(['2', '3', undefined]);
  });

  it('forgets what nobody touched for idleMs', () => {
    let now = 0;
    const cache = new KeyCache({ idleMs: 1_000 }, () => now);
    cache.set('a', 'a');
    cache.set('b', 'b');
    now = 600;
    cache.get('a');
    now = 1_200;
    cache.sweep();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('a');
    now = 5_000;
    cache.sweep();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });
});
