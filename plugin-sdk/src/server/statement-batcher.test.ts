import { describe, expect, it } from 'vitest';
import { perInstance, StatementBatcher } from './statement-batcher';

describe('StatementBatcher', () => {
  it('sends a write alone when nothing is in flight, gathers the ones that wait, and ends a batch at a conflict', async () => {
    const statements: number[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batcher = new StatementBatcher<number, string>({
      runOne: async (item) => {
        statements.push([item]);
        await gate;
        return `one ${item}`;
      },
      runMany: async (items) => {
        statements.push(items);
        return items.map((item) => `many ${item}`);
      },
      // 13 must not share a statement with 12
      conflicts: (earlier, item) => earlier === 12 && item === 13,
      maxInFlight: 1,
      maxBatch: 3,
    });
    const answers = Promise.all([10, 11, 12, 13, 14].map((item) => batcher.submit(item)));
    release();
    expect(await answers).toEqual(['one 10', 'many 11', 'many 12', 'many 13', 'many 14']);
    expect(statements).toEqual([[10], [11, 12], [13, 14]]);
  });

  it('writes a failed batch again one by one: each gets its own answer or error', async () => {
    const batcher = new StatementBatcher<number, number>({
      runOne: async (item) => {
        if (item === 3) throw new Error('bad 3');
        return item * 10;
      },
      runMany: async () => {
        throw new Error('batch failed');
      },
      conflicts: () => false,
      maxInFlight: 1,
      maxBatch: 10,
    });
    const outcomes = await Promise.allSettled([1, 2, 3, 4].map((item) => batcher.submit(item)));
    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : String(outcome.reason)))).toEqual([
      10,
      20,
      'Error: bad 3',
      40,
    ]);
    expect(batcher.stats.fallbacks).toBe(1);
  });
});

describe('perInstance', () => {
  it('makes one value per instance, the same on every call', () => {
    let made = 0;
    const valueFor = perInstance((instance: { name: string }) => {
      made += 1;
      return { of: instance.name };
    });
    const a = { name: 'a' };
    const b = { name: 'b' };
    expect(valueFor(a)).toBe(valueFor(a));
    expect(valueFor(b)).toEqual({ of: 'b' });
    expect(made).toBe(2);
  });
});
