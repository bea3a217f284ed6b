import { describe, expect, it } from 'vitest';
import { makeQuickMessage } from '../testing/fixtures';
import { matchQuickReplies, quickReplyLabel, quickReplySearch } from './quick-replies';

describe("quick replies on '/' (docs/product/tickets-and-inbox.md#screens-and-routes)", () => {
  it("start when the text begins with '/' and stop once the first word ends", () => {
    expect(quickReplySearch('/')).toBe('');
    expect(quickReplySearch('/boa')).toBe('boa');
    expect(quickReplySearch('/boa tarde')).toBeNull();
    expect(quickReplySearch('boa')).toBeNull();
    expect(quickReplySearch(' /boa')).toBeNull();
  });

  it('go on past a space while a shortcode of several words still starts with the text', () => {
    const list = [
      makeQuickMessage(1, 'Bom dia', { message: 'Bom dia! Como posso ajudar?' }),
      makeQuickMessage(2, 'boleto', { message: 'Segue o boleto' }),
    ];
    expect(quickReplySearch('/bom d', list)).toBe('bom d');
    expect(quickReplySearch('/bom dia', list)).toBe('bom dia');
    expect(quickReplySearch('/bom tarde', list)).toBeNull();
    expect(quickReplySearch('/boleto segue', list)).toBeNull();
    // an inactive one doesn't keep the list open
    expect(quickReplySearch('/bom d', [makeQuickMessage(1, 'bom dia', { message: 'x', status: false })])).toBeNull();
  });

  it('match shortcodes by prefix, case-insensitive, active ones only', () => {
    const list = [
      makeQuickMessage(1, 'bomdia', { message: 'Bom dia!' }),
      makeQuickMessage(2, 'Boleto', { message: 'Segue o boleto' }),
      makeQuickMessage(3, 'tchau', { message: 'Até logo' }),
      makeQuickMessage(4, 'bonus', { message: 'x', status: false }),
    ];
    expect(matchQuickReplies(list, 'bo').map((item) => item.id)).toEqual([1, 2]);
    expect(matchQuickReplies(list, 'BOL').map((item) => item.id)).toEqual([2]);
    expect(matchQuickReplies(list, '').map((item) => item.id)).toEqual([1, 2, 3]);
  });

  it('label items as shortcode and message, cut to 90 characters', () => {
    expect(quickReplyLabel(makeQuickMessage(1, 'oi', { message: 'Olá!' }))).toBe('oi - Olá!');
    const label = quickReplyLabel(makeQuickMessage(2, 'longo', { message: 'x'.repeat(200) }));
    expect(label).toBe(`longo - ${'x'.repeat(82)}...`);
  });
});
