import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';
import tr from './tr.json';

describe("the queues area's translations", () => {
  it('use only their own top-level keys (and error codes)', () => {
    for (const tree of [pt, en, es, tr]) expect(Object.keys(tree).sort()).toEqual(['errors', 'queues']);
  });

  it('have the same keys and placeholders in pt, en, es and tr, none empty', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
  });

  it('use the documented words', () => {
    expect(pt.queues.toasts.botSaved).toBe('Bot saved successfully');
    expect(pt.queues.toasts.hoursSaved).toBe('Horários atualizados com sucesso');
  });
});
