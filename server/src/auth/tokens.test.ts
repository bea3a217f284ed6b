import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenService } from './tokens';

describe('TokenService: access tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads a token it issued, again and again, with the same claims', () => {
    const tokens = new TokenService('a-secret-of-enough-length-for-hs256', 900);
    const token = tokens.issueAccessToken({ userId: 7, companyId: 3, familyId: 'fam-1' });
    expect(tokens.readAccessToken(token)).toEqual({ userId: 7, companyId: 3, familyId: 'fam-1' });
    expect(tokens.readAccessToken(token)).toEqual({ userId: 7, companyId: 3, familyId: 'fam-1' });
  });

  it('refuses a token once expired, also after it was read while valid', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T10:00:00Z'));
    const tokens = new TokenService('a-secret-of-enough-length-for-hs256', 60);
    const token = tokens.issueAccessToken({ userId: 7, companyId: 3, familyId: 'fam-1' });
    expect(tokens.readAccessToken(token)).toMatchObject({ userId: 7 });
    vi.setSystemTime(new Date('2026-11-26T10:01:01Z'));
    expect(tokens.readAccessToken(token)).toBe('expired');
    expect(tokens.readAccessToken(token)).toBe('expired');
  });

  it("refuses another secret's token, a tampered one and garbage", () => {
    const tokens = new TokenService('a-secret-of-enough-length-for-hs256', 900);
    const other = new TokenService('another-secret-of-enough-length-xyz', 900);
    const token = other.issueAccessToken({ userId: 7, companyId: 3, familyId: 'fam-1' });
    expect(tokens.readAccessToken(token)).toBe('invalid');
    const mine = tokens.issueAccessToken({ userId: 7, companyId: 3, familyId: 'fam-1' });
    const [head, , signature] = mine.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ sub: '1', cid: 1, fam: 'x', exp: 9e9 })).toString('base64url')}.${signature}`;
    expect(tokens.readAccessToken(forged)).toBe('invalid');
    expect(tokens.readAccessToken('not.a.token')).toBe('invalid');
    expect(tokens.readAccessToken(undefined)).toBe('missing');
  });
});
