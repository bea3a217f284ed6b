import { describe, expect, it } from 'vitest';
import { DEFAULT_TAG_COLOR, laneChoices, normalizeTagColor, validateTagName } from './validation';

describe('validateTagName', () => {
  it("requires a name ('Obrigatório') of at least 3 characters ('Mensagem muito curta')", () => {
    expect(validateTagName('')).toBe('required');
    expect(validateTagName('   ')).toBe('required');
    expect(validateTagName(undefined)).toBe('required');
    expect(validateTagName('ab')).toBe('tooShort');
    expect(validateTagName(' ab ')).toBe('tooShort');
    expect(validateTagName('abc')).toBeNull();
    expect(validateTagName('VIP clients')).toBeNull();
  });
});

describe('normalizeTagColor', () => {
  it('stores #RRGGBB in capitals, #7C7C7C when missing or malformed', () => {
    expect(DEFAULT_TAG_COLOR).toBe('#7C7C7C');
    expect(normalizeTagColor('#ff00aa')).toBe('#FF00AA');
    expect(normalizeTagColor('ff00aa')).toBe('#FF00AA');
    expect(normalizeTagColor('#f0a')).toBe('#FF00AA');
    expect(normalizeTagColor('#ff00aa80')).toBe('#FF00AA');
    expect(normalizeTagColor('')).toBe('#7C7C7C');
    expect(normalizeTagColor('red')).toBe('#7C7C7C');
    expect(normalizeTagColor(null)).toBe('#7C7C7C');
  });
});

describe('laneChoices', () => {
  it('offers the other kanban tags only', () => {
    const tags = [
      { id: 1, kanban: 1 as const },
      { id: 2, kanban: 0 as const },
      { id: 3, kanban: 1 as const },
    ];
    expect(laneChoices(tags, 1).map((tag) => tag.id)).toEqual([3]);
    expect(laneChoices(tags, undefined).map((tag) => tag.id)).toEqual([1, 3]);
  });
});
