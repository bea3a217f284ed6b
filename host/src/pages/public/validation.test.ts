import { describe, expect, it } from 'vitest';
import { checkConfirmation, checkEmail, checkLength, checkStrongPassword, validateSignup } from './validation';

describe('signup rules (docs/product/tickets-and-inbox.md#validation, docs/product/administration.md#validation)', () => {
  const valid = {
    companyName: 'Acme',
    name: 'Ana',
    email: 'ana@acme.test',
    password: '12345',
    phone: '+55 11 91234-5678',
    planId: 2,
  };

  it('accepts a complete form', () => {
    expect(validateSignup(valid)).toEqual({});
  });

  it('reports every missing field as required', () => {
    expect(validateSignup({})).toEqual({
      companyName: 'required',
      name: 'required',
      email: 'required',
      password: 'required',
      phone: 'required',
      planId: 'required',
    });
  });

  it('bounds names to 2–50 and the password to 5–50 characters', () => {
    expect(validateSignup({ ...valid, name: 'A', companyName: 'B', password: '1234' })).toEqual({
      name: 'tooShort',
      companyName: 'tooShort',
      password: 'tooShort',
    });
    expect(validateSignup({ ...valid, name: 'x'.repeat(51), companyName: 'y'.repeat(51), password: 'z'.repeat(51) })).toEqual({
      name: 'tooLong',
      companyName: 'tooLong',
      password: 'tooLong',
    });
    expect(checkLength('x'.repeat(50), 2, 50)).toBeNull();
    expect(checkLength('  A  ', 2, 50)).toBe('tooShort');
  });

  it('wants a valid e-mail', () => {
    expect(checkEmail('ana@acme')).toBe('invalidEmail');
    expect(checkEmail('ana acme.test')).toBe('invalidEmail');
    expect(checkEmail(' Ana@Acme.test ')).toBeNull();
  });
});

describe('password reset rules (docs/product/administration.md#validation)', () => {
  it('wants 8+ characters with an uppercase letter, a lowercase letter and a digit', () => {
    expect(checkStrongPassword('')).toBe('required');
    expect(checkStrongPassword('Abc1234')).toBe('weakPassword');
    expect(checkStrongPassword('abcdefg1')).toBe('weakPassword');
    expect(checkStrongPassword('ABCDEFG1')).toBe('weakPassword');
    expect(checkStrongPassword('Abcdefgh')).toBe('weakPassword');
    expect(checkStrongPassword('Abcdefg1')).toBeNull();
  });

  it('wants the confirmation to match', () => {
    expect(checkConfirmation('Abcdefg1', '')).toBe('required');
    expect(checkConfirmation('Abcdefg1', 'Abcdefg2')).toBe('passwordMismatch');
    expect(checkConfirmation('Abcdefg1', 'Abcdefg1')).toBeNull();
  });
});
