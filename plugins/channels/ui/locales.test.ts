import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/** Every text of the channels' screens in all four languages. */
describe('channels texts', () => {
  it('has the same keys and placeholders, none empty, in pt, en, es and tr', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
  });

  it('translates every error code the connections API answers (server/connections/errors.ts, webchat/errors.ts, whatsapp/errors.ts, docs/product/tickets-and-inbox.md#errors)', () => {
    const codes = [
      'ERR_NO_OTHER_WHATSAPP',
      'ERR_NO_DEF_WAPP_FOUND',
      'ERR_PLAN_FEATURE_DISABLED',
      'ERR_CONNECTION_PLAN_LIMIT',
      'ERR_RATING_MESSAGE_REQUIRED',
      'ERR_EXPIRES_NPS_REQUIRED',
      'ERR_SEND_QUEUE_REQUIRED',
      'ERR_VACATION_DATES_REQUIRED',
      'ERR_INVALID_SCHEDULE',
      'ERR_WAPP_NOT_INITIALIZED',
      'ERR_NO_WAPP_FOUND',
      'ERR_VALIDATION',
      'ERR_WEBCHAT_CONFIG_INVALID',
      'ERR_WEBCHAT_NOT_WEBCHAT',
      'ERR_VACATION_DATES_INVALID',
      'ERR_IMPORT_DATES_INVALID',
      'ERR_NO_QUEUE_FOUND',
      'ERR_NO_INTEGRATION_FOUND',
      'ERR_NO_PROMPT_FOUND',
      'ERR_NO_FLOW_FOUND',
      'ERR_CHANNEL_NOT_AVAILABLE',
      'ERR_CHANNEL_CONFIG_INVALID',
      // the WhatsApp driver's: why a session stopped by itself (sessionError), and pairing by phone number
      'ERR_WAPP_LOGGED_OUT',
      'ERR_WAPP_BANNED',
      'ERR_WAPP_QR_EXPIRED',
      'ERR_WAPP_CONFLICT',
      'ERR_WAPP_PAIRING_NUMBER_INVALID',
      'ERR_WAPP_NOT_PAIRING',
      // the Meta channels' (plugins/meta/server/errors.ts): shown in the editor and on failed messages
      'ERR_META_NOT_CONFIGURED',
      'ERR_META_TOKEN_INVALID',
      'ERR_META_CONFIG_INVALID',
      'ERR_META_ACCOUNT_IN_USE',
      'ERR_META_SIGNATURE_INVALID',
      'ERR_META_VERIFY_TOKEN_INVALID',
      'ERR_META_UNKNOWN_ACCOUNT',
      'ERR_META_RATE_LIMITED',
      'ERR_META_WINDOW_CLOSED',
      'ERR_META_SEND_REFUSED',
      'ERR_META_UNAVAILABLE',
      'ERR_META_TEMPLATE_INVALID',
      'ERR_META_PAGE_NOT_FOUND',
      'ERR_META_SEND_UNCONFIRMED',
    ];
    for (const tree of [pt, en, es, tr]) expect(Object.keys(tree.errors).sort()).toEqual([...codes].sort());
  });

  it('says in a few words why a session stopped, for every sessionError code', () => {
    const sessionErrors = ['ERR_WAPP_LOGGED_OUT', 'ERR_WAPP_BANNED', 'ERR_WAPP_QR_EXPIRED', 'ERR_WAPP_CONFLICT'];
    for (const tree of [pt, en, es, tr]) expect(Object.keys(tree.sessionErrors).sort()).toEqual([...sessionErrors].sort());
  });

  it('keeps the documented whatsappModal keys of docs/product/administration.md#errors', () => {
    for (const tree of [pt, en, es, tr]) {
      expect(Object.keys(tree.whatsappModal).sort()).toEqual(['errorExpiresNPS', 'errorRatingMessage', 'errorSendQueue']);
    }
  });
});
