import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { describe, expect, it } from 'vitest';
import { scheduleErrors } from '../server/errors';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/** Every text of the schedules in all four languages, and every error code its server defines. */
describe('schedules texts', () => {
  it('has the same keys and placeholders, none empty, in pt, en, es and tr', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
  });

  it("translates every error code the schedules' server defines and the send errors it records", () => {
    for (const code of Object.keys(scheduleErrors)) expect(pt.errors, code).toHaveProperty(code);
  });
});
