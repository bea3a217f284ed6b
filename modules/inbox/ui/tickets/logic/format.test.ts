import { describe, expect, it } from 'vitest';
import { daySeparator, firstLine, formatDay, formatDuration, formatHourMinute, formatTicketTime, truncate } from './format';

const at = (year: number, month: number, day: number, hour = 0, minute = 0) => new Date(year, month - 1, day, hour, minute);

describe('ticket times (docs/product/tickets-and-inbox.md#constants-and-limits)', () => {
  const now = at(2024, 5, 10, 18, 30);

  it('show HH:mm when the ticket was updated today', () => {
    expect(formatTicketTime(at(2024, 5, 10, 9, 5).toISOString(), now)).toBe('09:05');
    expect(formatTicketTime(at(2024, 5, 10, 0, 0).toISOString(), now)).toBe('00:00');
  });

  it('show dd/MM/yyyy on any other day, yesterday included', () => {
    expect(formatTicketTime(at(2024, 5, 9, 23, 59).toISOString(), now)).toBe('09/05/2024');
    expect(formatTicketTime(at(2023, 12, 31, 12).toISOString(), now)).toBe('31/12/2023');
  });

  it('show nothing for an unreadable date', () => {
    expect(formatTicketTime('not a date', now)).toBe('');
  });

  it('format hours and days with two digits', () => {
    expect(formatHourMinute(at(2024, 1, 2, 3, 4))).toBe('03:04');
    expect(formatDay(at(2024, 1, 2))).toBe('02/01/2024');
  });
});

describe('day separators of the message list', () => {
  it("are 'today' for today's messages and the day otherwise", () => {
    const now = at(2024, 5, 10, 12);
    expect(daySeparator(at(2024, 5, 10, 1).toISOString(), now)).toEqual({ today: true });
    expect(daySeparator(at(2024, 5, 8, 23).toISOString(), now)).toEqual({ today: false, day: '08/05/2024' });
  });
});

describe('truncation (previews 40, names 60, quick replies 90)', () => {
  it('keeps short texts and cuts long ones with an ellipsis', () => {
    expect(truncate('Olá, tudo bem?', 40)).toBe('Olá, tudo bem?');
    expect(truncate('a'.repeat(40), 40)).toBe('a'.repeat(40));
    expect(truncate('a'.repeat(41), 40)).toBe(`${'a'.repeat(40)}...`);
    expect(truncate('n'.repeat(61), 60)).toHaveLength(63);
  });

  it('counts characters, so an emoji is never split in half', () => {
    const text = `${'x'.repeat(39)}😀😀`;
    expect(truncate(text, 40)).toBe(`${'x'.repeat(39)}😀...`);
  });

  it('reads a missing text as empty', () => {
    expect(truncate(null, 40)).toBe('');
    expect(truncate(undefined, 40)).toBe('');
  });
});

describe('small formats', () => {
  it('shows a recording time as mm:ss', () => {
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(65.7)).toBe('01:05');
    expect(formatDuration(-3)).toBe('00:00');
  });

  it('takes the first line of a text', () => {
    expect(firstLine('um\ndois')).toBe('um');
    expect(firstLine(null)).toBe('');
  });
});
