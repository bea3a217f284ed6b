import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { describe, expect, it } from 'vitest';
import { teamErrors } from '../../../server/team/errors';
import { SETTING_KEYS, SETTINGS } from '../../../server/team/setting-keys';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';
import tr from './tr.json';

describe("the team area's translations", () => {
  it('use only their own top-level keys (the admin namespace is shared by three areas)', () => {
    for (const tree of [pt, en, es, tr]) expect(Object.keys(tree).sort()).toEqual(['errors', 'settings', 'team', 'users']);
  });

  it('have the same keys and placeholders in pt, en, es and tr, none empty', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
  });

  it('name every writable setting and translate every error code of the area', () => {
    const writable = SETTING_KEYS.filter((key) => !SETTINGS[key]?.readOnly);
    expect(Object.keys(pt.settings.keys).sort()).toEqual(writable.sort());
    expect(Object.keys(pt.errors).sort()).toEqual(Object.keys(teamErrors).sort());
  });

  it('use the documented words', () => {
    expect(pt.settings.saved).toBe('Operação atualizada com sucesso');
    expect(pt.team.denied.title).toBe('Oops! Acesso Negado!');
    expect(en.users.validation.tooShort).toBe('Too Short!');
    expect(en.users.validation.invalidEmail).toBe('Invalid email');
  });
});
