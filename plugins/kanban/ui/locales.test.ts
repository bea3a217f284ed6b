import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { describe, expect, it } from 'vitest';
import { WIDGET_TEXTS } from '../widget/i18n';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/** Every text of the kanban in all four languages (the remote's and the widget's). */
describe('kanban texts', () => {
  it('has the same keys and placeholders, none empty, in pt, en, es and tr', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
  });

  it("translates every error code the kanban's server defines", async () => {
    const codes = [
      'ERR_NO_LANE_FOUND',
      'ERR_NO_EMBED_KEY_FOUND',
      'ERR_EMBED_KEY_REVOKED',
      'ERR_EMBED_ORIGIN_REFUSED',
      'ERR_EMBED_READ_ONLY',
      'ERR_EMBED_USER_TOKEN_REQUIRED',
      'ERR_EMBED_USER_TOKEN_INVALID',
      'ERR_EMBED_USER_TOKEN_EXPIRED',
    ];
    for (const tree of [pt, en, es, tr]) expect(Object.keys(tree.errors).sort()).toEqual([...codes].sort());
  });

  it("has the widget's texts in the four languages", () => {
    const reference = Object.keys(WIDGET_TEXTS.pt).sort();
    for (const texts of Object.values(WIDGET_TEXTS)) {
      expect(Object.keys(texts).sort()).toEqual(reference);
      expect(Object.keys(texts.errors).sort()).toEqual(Object.keys(WIDGET_TEXTS.pt.errors).sort());
    }
  });
});
