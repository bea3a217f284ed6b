import { afterEach, describe, expect, it, vi } from 'vitest';
import { today } from './authenticator';

describe('today (due dates are calendar days of the server)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('turns at local midnight, though it keeps its text between calls', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 26, 23, 59, 59));
    expect(today()).toBe('2026-11-26');
    expect(today()).toBe('2026-11-26');
    vi.setSystemTime(new Date(2026, 10, 27, 0, 0, 1));
    expect(today()).toBe('2026-11-27');
    vi.setSystemTime(new Date(2026, 11, 31, 12, 0, 0));
    expect(today()).toBe('2026-12-31');
    // a clock set back (tests, an NTP step) is followed too
    vi.setSystemTime(new Date(2026, 0, 5, 8, 0, 0));
    expect(today()).toBe('2026-01-05');
  });
});
