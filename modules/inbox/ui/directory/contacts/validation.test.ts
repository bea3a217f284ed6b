import { describe, expect, it } from 'vitest';
import { isMaskedNumber, validateContactEmail, validateContactName, validateContactNumber } from './validation';

describe('contact dialog validation (docs/product/tickets-and-inbox.md#validation)', () => {
  it('requires a name of 2 to 250 characters', () => {
    expect(validateContactName('')).toBe('required');
    expect(validateContactName('A')).toBe('tooShort');
    expect(validateContactName('Al')).toBeNull();
    expect(validateContactName('x'.repeat(250))).toBeNull();
    expect(validateContactName('x'.repeat(251))).toBe('tooLong');
  });

  it('requires a number of 8 to 50 digits, whatever the punctuation', () => {
    expect(validateContactNumber('')).toBe('required');
    expect(validateContactNumber('1234-567')).toBe('tooShort');
    expect(validateContactNumber('+55 (41) 9986-0848')).toBeNull();
    expect(validateContactNumber('1'.repeat(50))).toBeNull();
    expect(validateContactNumber('1'.repeat(51))).toBe('tooLong');
  });

  it('lets a contact stored without a number keep none, but still checks a number typed for it', () => {
    expect(validateContactNumber('', { optional: true })).toBeNull();
    expect(validateContactNumber('   ', { optional: true })).toBeNull();
    expect(validateContactNumber('1234', { optional: true })).toBe('tooShort');
    expect(validateContactNumber('5511999990000', { optional: true })).toBeNull();
  });

  it('accepts no e-mail, or a valid one', () => {
    expect(validateContactEmail('')).toBeNull();
    expect(validateContactEmail('ana@example.com')).toBeNull();
    expect(validateContactEmail('ana@')).toBe('invalidEmail');
    expect(validateContactEmail('ana example.com')).toBe('invalidEmail');
  });

  it('recognises numbers masked for LGPD', () => {
    expect(isMaskedNumber('*******34')).toBe(true);
    expect(isMaskedNumber('5541998608434')).toBe(false);
    expect(isMaskedNumber(null)).toBe(false);
  });
});
