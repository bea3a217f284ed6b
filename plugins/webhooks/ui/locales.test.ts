import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { describe, expect, it } from 'vitest';
import { webhookErrors } from '../server/errors';
import { WEBHOOK_EVENTS } from '../shared/events';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/** Every text of the webhooks page in all four languages, every error code and every event named. */
describe('webhooks texts', () => {
  it('has the same keys and placeholders, none empty, in pt, en, es and tr', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
  });

  it('translates every error code of server/errors.ts and names every event', () => {
    for (const tree of [pt, en, es, tr]) {
      expect(Object.keys(tree.errors).sort()).toEqual(Object.keys(webhookErrors).sort());
      expect(Object.keys(tree.eventNames).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    }
  });
});
