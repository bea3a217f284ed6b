import { describe, expect, it } from 'vitest';
import { normalizeShortcode } from './shortcode';

describe('normalizeShortcode', () => {
  it("drops the composer's leading '/' and the surrounding spaces", () => {
    expect(normalizeShortcode('/oi')).toBe('oi');
    expect(normalizeShortcode('  //bom-dia ')).toBe('bom-dia');
    expect(normalizeShortcode('preço/prazo')).toBe('preço/prazo');
  });

  it('leaves nothing of a bare slash (a missing shortcode)', () => {
    expect(normalizeShortcode('/')).toBe('');
    expect(normalizeShortcode(' / ')).toBe('');
    expect(normalizeShortcode(undefined)).toBe('');
  });
});
