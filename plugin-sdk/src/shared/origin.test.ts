import { describe, expect, it } from 'vitest';
import { normalizeOrigin } from './origin';

describe('normalizeOrigin', () => {
  it('answers scheme, host and port as browsers send Origin', () => {
    expect(normalizeOrigin('https://shop.example')).toBe('https://shop.example');
    expect(normalizeOrigin('https://shop.example/')).toBe('https://shop.example');
    expect(normalizeOrigin('  https://Shop.Example:8443  ')).toBe('https://shop.example:8443');
    expect(normalizeOrigin('http://localhost:3000')).toBe('http://localhost:3000');
    // the scheme's default port is not part of the origin
    expect(normalizeOrigin('https://shop.example:443')).toBe('https://shop.example');
    expect(normalizeOrigin('http://shop.example:80')).toBe('http://shop.example');
  });

  it('refuses anything that is not an origin', () => {
    for (const origin of [
      '',
      'shop.example',
      'ftp://shop.example',
      'javascript:alert(1)',
      'https://shop.example/path',
      'https://shop.example/?q=1',
      'https://shop.example/#top',
      'https://user:secret@shop.example',
      'https://user@shop.example',
      'https://',
    ]) {
      expect(normalizeOrigin(origin), origin).toBeNull();
    }
  });
});
