import { describe, expect, it } from 'vitest';
import type { QuickMessage } from '../../../shared/types';
import { matchQuickReplies, quickReplyLabel, quickReplySearch } from './quick-replies';

const quick = (id: number, shortcode: string, message: string, status = true): QuickMessage => ({
  id,
  shortcode,
  message,
  geral: false,
  visao: true,
  status,
  userId: 1,
  isMedia: false,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
});

describe("quick replies on '/' (1-core §2)", () => {
  it("start when the text begins with '/' and stop once the first word ends", () => {
    expect(quickReplySearch('/')).toBe('');
    expect(quickReplySearch('/boa')).toBe('boa');
    expect(quickReplySearch('/boa tarde')).toBeNull();
    expect(quickReplySearch('boa')).toBeNull();
    expect(quickReplySearch(' /boa')).toBeNull();
  });

  it('go on past a space while a shortcode of several words still starts with the text', () => {
    const list = [quick(1, 'Bom dia', 'Bom dia! Como posso ajudar?'), quick(2, 'boleto', 'Segue o boleto')];
    expect(quickReplySearch('/bom d', list)).toBe('bom d');
    expect(quickReplySearch('/bom dia', list)).toBe('bom dia');
    expect(quickReplySearch('/bom tarde', list)).toBeNull();
    expect(quickReplySearch('/boleto segue', list)).toBeNull();
    // an inactive one doesn't keep the list open
    expect(quickReplySearch('/bom d', [quick(1, 'bom dia', 'x', false)])).toBeNull();
  });

  it('match shortcodes by prefix, case-insensitive, active ones only', () => {
    const list = [
      quick(1, 'bomdia', 'Bom dia!'),
      quick(2, 'Boleto', 'Segue o boleto'),
      quick(3, 'tchau', 'Até logo'),
      quick(4, 'bonus', 'x', false),
    ];
    expect(matchQuickReplies(list, 'bo').map((item) => item.id)).toEqual([1, 2]);
    expect(matchQuickReplies(list, 'BOL').map((item) => item.id)).toEqual([2]);
    expect(matchQuickReplies(list, '').map((item) => item.id)).toEqual([1, 2, 3]);
  });

  it('label items as shortcode and message, cut to 90 characters', () => {
    expect(quickReplyLabel(quick(1, 'oi', 'Olá!'))).toBe('oi - Olá!');
    const label = quickReplyLabel(quick(2, 'longo', 'x'.repeat(200)));
    expect(label).toBe(`longo - ${'x'.repeat(82)}...`);
  });
});
