import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { describe, expect, it } from 'vitest';
import { directoryMenu } from '../index';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';
import tr from './tr.json';

describe("the directory's translations", () => {
  it('use only their own top-level keys', () => {
    for (const tree of [pt, en, es, tr])
      expect(Object.keys(tree).sort()).toEqual(['contactImport', 'contacts', 'quickMessages', 'tags']);
  });

  it('have the same keys and placeholders in pt, en, es and tr, none empty', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
  });

  it('use the documented words', () => {
    expect(pt.contacts.toasts.blocked).toBe('Contato bloqueado');
    expect(pt.contacts.toasts.unblocked).toBe('Contato desbloqueado');
    expect(pt.tags.validation.required).toBe('Obrigatório');
    expect(pt.tags.validation.tooShort).toBe('Mensagem muito curta');
    expect(pt.quickMessages.validation.required).toBe('Obrigatório');
    expect(directoryMenu.map((entry) => [entry.path, entry.label.pt, entry.order])).toEqual([
      ['/quick-messages', 'Respostas rápidas', 2],
      ['/contacts', 'Contatos', 4],
      ['/tags', 'Tags', 6],
    ]);
  });
});
