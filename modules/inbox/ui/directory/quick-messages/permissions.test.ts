import { describe, expect, it } from 'vitest';
import { canDeleteQuickMessage, canEditQuickMessage, normalizeVisibility } from './permissions';

const owner = { id: 1, profile: 'user' as const };
const other = { id: 2, profile: 'user' as const };
const admin = { id: 3, profile: 'admin' as const };

describe('canEditQuickMessage', () => {
  it('lets only the owner edit a message with visibility on that is not general', () => {
    const record = { visao: true, geral: false, userId: 1 };
    expect(canEditQuickMessage(record, owner)).toBe(true);
    expect(canEditQuickMessage(record, other)).toBe(false);
    // the rule names no admin exception
    expect(canEditQuickMessage(record, admin)).toBe(false);
  });

  it('lets anyone who sees it edit a general message or one with visibility off', () => {
    expect(canEditQuickMessage({ visao: true, geral: true, userId: 1 }, other)).toBe(true);
    expect(canEditQuickMessage({ visao: false, geral: false, userId: 1 }, other)).toBe(true);
  });

  it('treats a message without owner under the rule as nobody’s', () => {
    expect(canEditQuickMessage({ visao: true, geral: false, userId: null }, owner)).toBe(false);
  });
});

describe('canDeleteQuickMessage', () => {
  it('is for the owner or an admin', () => {
    expect(canDeleteQuickMessage({ userId: 1 }, owner)).toBe(true);
    expect(canDeleteQuickMessage({ userId: 1 }, other)).toBe(false);
    expect(canDeleteQuickMessage({ userId: 1 }, admin)).toBe(true);
  });
});

describe('normalizeVisibility', () => {
  it('clears the general flag when visibility is off', () => {
    expect(normalizeVisibility({ visao: false, geral: true })).toEqual({ visao: false, geral: false });
    expect(normalizeVisibility({ visao: true, geral: true })).toEqual({ visao: true, geral: true });
  });
});
