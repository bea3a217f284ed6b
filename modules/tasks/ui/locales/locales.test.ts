import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';
import tr from './tr.json';

describe("the task list's translations", () => {
  it('have the same keys and placeholders in pt, en, es and tr, none empty', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
  });

  it('use the documented words', () => {
    expect(pt.newTask).toBe('Nova tarefa');
  });
});
