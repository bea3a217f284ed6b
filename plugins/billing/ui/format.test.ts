import { describe, expect, it } from 'vitest';
import { customPlanPrice } from '../shared/pricing';
import { brl, invoiceDate } from './format';

describe('how billing shows money, dates and the custom price', () => {
  it('writes BRL and dd/MM/yy HH:mm', () => {
    expect(brl('1234.5').replace(/\s/g, ' ')).toBe('R$ 1.234,50');
    expect(invoiceDate('2026-11-28')).toBe('28/11/26 00:00');
    expect(invoiceDate('2026-03-09T14:05:00')).toBe('09/03/26 14:05');
  });

  it('prices the custom plan from 3 users and 3 connections at 49, never under 3', () => {
    expect(customPlanPrice(3, 3)).toBe(49);
    expect(customPlanPrice(4, 3)).toBe(60);
    expect(customPlanPrice(3, 5)).toBe(89);
    expect(customPlanPrice(2, 3)).toBeNull();
    expect(customPlanPrice(3.5, 3)).toBeNull();
  });
});
