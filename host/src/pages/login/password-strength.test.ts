import { describe, expect, it } from 'vitest';
import { passwordScore, strengthLevel, WEAK_PASSWORD_MAX_SCORE } from './password-strength';

describe('password strength (docs/product/tickets-and-inbox.md#validation)', () => {
  it('gives one point each for 8+ characters, uppercase, lowercase, digit and symbol', () => {
    expect(passwordScore('')).toBe(0);
    expect(passwordScore('abc')).toBe(1);
    expect(passwordScore('abcdefgh')).toBe(2);
    expect(passwordScore('demo1234')).toBe(3);
    expect(passwordScore('Demo1234')).toBe(4);
    expect(passwordScore('Demo1234!')).toBe(5);
    expect(passwordScore('ABC')).toBe(1);
    expect(passwordScore('12345678')).toBe(2);
    expect(passwordScore('!@#$%^&*')).toBe(2);
  });

  it('calls 2 or lower weak, 3–4 medium and 5 strong', () => {
    expect(WEAK_PASSWORD_MAX_SCORE).toBe(2);
    expect([0, 1, 2].map(strengthLevel)).toEqual(['weak', 'weak', 'weak']);
    expect([3, 4].map(strengthLevel)).toEqual(['medium', 'medium']);
    expect(strengthLevel(5)).toBe('strong');
  });
});
