import { describe, expect, it } from 'vitest';
import { parseChatMarkup, plainChatText } from './chat-markup';

describe('parseChatMarkup', () => {
  it('reads bold, italic, strike and mono, nested emphasis too', () => {
    expect(parseChatMarkup('*[ 1 ]* - Vendas')).toEqual([{ text: '[ 1 ]', bold: true }, { text: ' - Vendas' }]);
    expect(parseChatMarkup('_oi_ ~não~ ```a *b*\nc```')).toEqual([
      { text: 'oi', italic: true },
      { text: ' ' },
      { text: 'não', strike: true },
      { text: ' ' },
      { text: 'a *b*\nc', mono: true },
    ]);
    expect(parseChatMarkup('*_ambos_*')).toEqual([{ text: 'ambos', bold: true, italic: true }]);
    expect(parseChatMarkup('*Ana Admin:*\nOlá')).toEqual([{ text: 'Ana Admin:', bold: true }, { text: '\nOlá' }]);
  });

  it('leaves markers inside words, lone or spaced, and across lines as written', () => {
    for (const text of ['snake_case_name', '2*3*4', 'a * b * c', '*aberto\nfechado*', '**', 'preço: 10*']) {
      expect(
        parseChatMarkup(text)
          .map((segment) => segment.text)
          .join(''),
        text,
      ).toBe(text);
      expect(
        parseChatMarkup(text).every((segment) => !segment.bold && !segment.italic),
        text,
      ).toBe(true);
    }
  });

  it('splits web addresses out as links and keeps any HTML as plain text', () => {
    expect(parseChatMarkup('veja https://exemplo.com/a?b=1. <b>x</b>')).toEqual([
      { text: 'veja ' },
      { text: 'https://exemplo.com/a?b=1', link: 'https://exemplo.com/a?b=1' },
      { text: '. <b>x</b>' },
    ]);
    expect(plainChatText('*<img src=x onerror=alert(1)>*')).toBe('<img src=x onerror=alert(1)>');
  });
});
