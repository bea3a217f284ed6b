import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/** Every text of the campaigns in all four languages, and every error code its server defines. */
describe('campaigns texts', () => {
  it('has the same keys and placeholders, none empty, in pt, en, es and tr', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
  });

  it("translates every error code the campaigns' server defines (server/errors.ts)", () => {
    const codes = [
      'ERR_NO_CAMPAIGN_FOUND',
      'ERR_NO_CONTACT_LIST_FOUND',
      'ERR_NO_CONTACT_LIST_ITEM_FOUND',
      'ERR_NO_IMPORT_FOUND',
      'ERR_CAMPAIGN_NOT_EDITABLE',
      'ERR_CAMPAIGN_NOT_RUNNING',
      'ERR_CAMPAIGN_NOT_CANCELLED',
      'ERR_CAMPAIGN_NO_RECIPIENTS',
      'ERR_CAMPAIGN_NO_MESSAGE',
      'ERR_CAMPAIGN_NO_CONFIRMATION_MESSAGE',
      'ERR_CAMPAIGN_QUEUE_REQUIRED',
      'ERR_NO_WHATSAPP_FOUND',
      'ERR_NO_TAG_FOUND',
      'ERR_NO_USER_FOUND',
      'ERR_NO_QUEUE_FOUND',
      'ERR_INVALID_NUMBER',
      'ERR_CONTACT_LIST_ITEM_EXISTS',
      'ERR_IMPORT_FILE_TYPE',
      'ERR_IMPORT_UNREADABLE',
      'ERR_IMPORT_FORMULAS',
      'ERR_IMPORT_CELL_TOO_LONG',
      'ERR_IMPORT_TOO_MANY_ROWS',
      'ERR_IMPORT_EMPTY',
      'ERR_IMPORT_RUNNING',
      'ERR_IMPORT_INTERRUPTED',
      'ERR_INVALID_TIME_ZONE',
      'ERR_MEDIA_TYPE',
    ];
    for (const tree of [pt, en, es, tr]) expect(Object.keys(tree.errors).sort()).toEqual([...codes].sort());
  });

  it('says the spec texts in Portuguese', () => {
    expect(pt.planDenied).toBe('Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.');
    expect(pt.settings.saved).toBe('Configurações salvas');
    // docs/product/automation.md#validation writes the list and item messages so, in every language of the original
    expect(pt.validation).toMatchObject({
      required: 'Required',
      tooShort: 'Too Short!',
      tooLong: 'Too Long!',
      email: 'Invalid email',
    });
  });
});
