import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { describe, expect, it } from 'vitest';
import { insightsErrors } from '../../server/errors';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';
import tr from './tr.json';

describe("the insights' translations", () => {
  it('have the same keys and placeholders in pt, en, es and tr, none empty', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
  });

  it('translate every error code of the module', () => {
    for (const tree of [pt, en, es, tr]) expect(Object.keys(tree.errors).sort()).toEqual(Object.keys(insightsErrors).sort());
  });

  it('use the documented words', () => {
    expect(pt.denied.title).toBe('Oops! Acesso Negado!');
    expect(pt.filter.required).toBe('Parametrize o filtro');
    expect(pt.dashboard.loadError).toBe('Erro ao buscar informações dos tickets');
  });
});
