import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { describe, expect, it } from 'vitest';
import { messageApiErrors } from '../server/errors';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/** Every text of the message API in all four languages, and every error code its server defines. */
describe('message API texts', () => {
  it('has the same keys and placeholders, none empty, in pt, en, es and tr', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
  });

  it('translates every error code of server/errors.ts', () => {
    for (const tree of [pt, en, es, tr]) expect(Object.keys(tree.errors).sort()).toEqual(Object.keys(messageApiErrors).sort());
  });

  it('says the spec texts in Portuguese', () => {
    expect(pt.test.sent).toBe('Mensagem enviada com sucesso');
    expect(pt.planDenied).toBe('Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.');
  });
});
