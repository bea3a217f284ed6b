import type { TranslationTree } from '@balcao/plugin-sdk/ui';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';
import tr from './tr.json';

function leafKeys(tree: TranslationTree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leafKeys(value, `${prefix}${key}.`),
  );
}

function placeholders(tree: TranslationTree): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  const walk = (node: TranslationTree, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'string') found[`${prefix}${key}`] = (value.match(/\{\{\w+\}\}/g) ?? []).sort();
      else walk(value, `${prefix}${key}.`);
    }
  };
  walk(tree, '');
  return found;
}

describe("the shell's translations", () => {
  it('have the same keys and placeholders in pt, en, es and tr', () => {
    const reference = leafKeys(pt).sort();
    for (const [language, tree] of Object.entries({ en, es, tr })) {
      expect(leafKeys(tree).sort(), language).toEqual(reference);
      expect(placeholders(tree), language).toEqual(placeholders(pt));
    }
  });

  it('use the documented words where docs/product gives them', () => {
    expect(pt.session.takenOver).toBe('Sua conta foi acessada em outro computador.');
    expect(pt.reset.emailNotFound).toBe('Email não encontrado');
    expect(pt.validation.passwordMismatch).toBe('As senhas não correspondem');
    expect(pt.validation.weakPassword).toBe(
      'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
    );
    expect(en.signup.failed).toBe('Error creating user. Check the data provided.');
    expect(en.login.expiresSoon).toBe('subscription expires in {{count}} day(s)');
    expect([en.validation.required, en.validation.tooShort, en.validation.tooLong, en.validation.invalidEmail]).toEqual([
      'Required',
      'Too Short!',
      'Too Long!',
      'Invalid email',
    ]);
  });
});
