import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/** Every text of the internal chat in all four languages, and every error code its server defines. */
describe('internal chat texts', () => {
  it('has the same keys and placeholders, none empty, in pt, en, es and tr', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
  });

  it("translates every error code the chat's server defines (server/errors.ts)", () => {
    const codes = ['ERR_NO_CHAT_FOUND', 'ERR_CHAT_OWNER_ONLY', 'ERR_CHAT_READ_OWN_ONLY', 'ERR_CHAT_MESSAGE_EMPTY'];
    for (const tree of [pt, en, es, tr]) expect(Object.keys(tree.errors).sort()).toEqual([...codes].sort());
  });
});
