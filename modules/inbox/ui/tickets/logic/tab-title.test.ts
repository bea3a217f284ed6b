import { describe, expect, it } from 'vitest';
import { circledNumber, unreadMark } from './tab-title';

describe('the tab title with unread tickets (docs/product/tickets-and-inbox.md#constants-and-limits)', () => {
  it('uses a circled digit from 1 to 20', () => {
    expect(unreadMark(1)).toBe('①');
    expect(unreadMark(9)).toBe('⑨');
    expect(unreadMark(10)).toBe('⑩');
    expect(unreadMark(20)).toBe('⑳');
  });

  it('uses the count in brackets beyond 20, and nothing for none', () => {
    expect(unreadMark(21)).toBe('(21)');
    expect(unreadMark(150)).toBe('(150)');
    expect(unreadMark(0)).toBe('');
    expect(circledNumber(0)).toBeNull();
    expect(circledNumber(2.5)).toBeNull();
  });
});
