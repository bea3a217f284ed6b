import { describe, expect, it } from 'vitest';
import { cardTime, groupByLane, visibleWindow } from '../shared/format';

describe('cardTime', () => {
  const now = new Date(2026, 4, 10, 15, 30);
  it('shows HH:mm for today and dd/MM/yyyy for other days', () => {
    expect(cardTime(new Date(2026, 4, 10, 9, 5).toISOString(), now)).toBe('09:05');
    expect(cardTime(new Date(2026, 4, 9, 23, 59).toISOString(), now)).toBe('09/05/2026');
    expect(cardTime('not a date', now)).toBe('');
  });
});

describe('groupByLane', () => {
  it('groups cards by lane and keeps their order', () => {
    const groups = groupByLane([
      { id: 1, laneId: 2 },
      { id: 2, laneId: null },
      { id: 3, laneId: 2 },
    ]);
    expect(groups.get(2)?.map((card) => card.id)).toEqual([1, 3]);
    expect(groups.get(null)?.map((card) => card.id)).toEqual([2]);
  });
});

describe('visibleWindow', () => {
  it('renders only the rows in view plus the overscan, whatever the list length', () => {
    expect(visibleWindow(5_000, 100, 0, 600, 2)).toEqual({ start: 0, end: 8 });
    expect(visibleWindow(5_000, 100, 250_000, 600, 2)).toEqual({ start: 2_498, end: 2_508 });
    expect(visibleWindow(5_000, 100, 499_900, 600, 2)).toEqual({ start: 4_997, end: 5_000 });
    expect(visibleWindow(0, 100, 0, 600)).toEqual({ start: 0, end: 0 });
  });
});
