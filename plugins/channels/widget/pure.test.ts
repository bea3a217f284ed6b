import { describe, expect, it } from 'vitest';
import { WEBCHAT_ERROR_CODES } from '../shared/webchat';
import { queuedCalls, startingOptions } from './api';
import { Conversation, deliveryState, newClientId } from './conversation';
import { fileProblem, fileSize, typeAccepted } from './files';
import { WINDOW_TEXTS } from './i18n';
import { chooseLocale, LAUNCHER_TEXTS, pageLocaleCandidates } from './locale';
import { asksPrechat, prechatBody, prechatModes, validatePrechat } from './prechat';
import { identitySubject } from './session-store';
import { message } from './testing/messages';

/** The widget's rules that need no page: language choice, the API queue, pre-chat, files, the conversation model. */

describe('the language', () => {
  it('takes the first language it speaks: the asked one, then the page, then the browser; pt at last', () => {
    expect(chooseLocale(['en', 'es'])).toBe('en');
    expect(chooseLocale([null, 'es-AR', 'en'])).toBe('es');
    expect(chooseLocale(['fr', 'de-DE', 'tr-TR'])).toBe('tr');
    expect(chooseLocale(['fr', undefined, ''])).toBe('pt');
    expect(chooseLocale(['PT_br'])).toBe('pt');
  });

  it("reads the page's <html lang> before the browser's languages", () => {
    document.documentElement.lang = 'es';
    expect(chooseLocale(pageLocaleCandidates(null))).toBe('es');
    expect(chooseLocale(pageLocaleCandidates('tr'))).toBe('tr');
    document.documentElement.lang = 'fr';
    expect(pageLocaleCandidates(null).slice(0, 2)).toEqual([null, 'fr']);
    document.documentElement.lang = '';
  });

  it('translates every error code of the protocol in every language, and the launcher', () => {
    for (const texts of Object.values(WINDOW_TEXTS)) {
      for (const code of WEBCHAT_ERROR_CODES) expect(texts.errors[code], code).toBeTruthy();
      expect(texts.errors.NETWORK).toBeTruthy();
    }
    expect(Object.keys(WINDOW_TEXTS).sort()).toEqual(['en', 'es', 'pt', 'tr']);
    expect(Object.keys(LAUNCHER_TEXTS).sort()).toEqual(['en', 'es', 'pt', 'tr']);
    const keys = Object.keys(WINDOW_TEXTS.pt).sort();
    for (const texts of Object.values(WINDOW_TEXTS)) expect(Object.keys(texts).sort()).toEqual(keys);
  });
});

describe('the API queue', () => {
  it('keeps the calls made before load, in order, and starts with the queued identity and language', () => {
    const handler = () => {};
    const calls = queuedCalls([['on', 'ready', handler], 'junk', ['setUser', 'a.b.c'], ['open'], ['setLocale', 'en'], [42]]);
    expect(calls).toHaveLength(4);
    const { user, locale, rest } = startingOptions(calls);
    expect(user).toBe('a.b.c');
    expect(locale).toBe('en');
    expect(rest).toEqual([['on', 'ready', handler], ['open']]);
    expect(startingOptions(queuedCalls([['setUser', null]])).user).toBeNull();
    expect(startingOptions(queuedCalls(undefined)).user).toBeUndefined();
    expect(queuedCalls({ open() {} })).toEqual([]);
  });

  it("tells site users apart by their identity token's sub", () => {
    const token = (payload: object) =>
      `h.${btoa(JSON.stringify(payload)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.s`;
    expect(identitySubject(token({ sub: 'u-42', exp: 1 }))).toBe('u-42');
    expect(identitySubject(token({ sub: 7 }))).toBe('7');
    expect(identitySubject('not a token')).toBeNull();
    expect(identitySubject(null)).toBeNull();
  });
});

describe('the pre-chat form', () => {
  const prechat = { name: 'required', email: 'optional', phone: 'off' } as const;

  it('shows the fields not off, and forces on the ones the server said were missing', () => {
    expect(asksPrechat(prechat)).toBe(true);
    expect(asksPrechat({ name: 'off', email: 'off', phone: 'off' })).toBe(false);
    expect(prechatModes(prechat)).toEqual([
      ['name', 'required'],
      ['email', 'optional'],
    ]);
    expect(prechatModes(prechat, ['phone'])).toContainEqual(['phone', 'required']);
  });

  it('needs the required fields and checks e-mail and phone when given', () => {
    const modes = prechatModes({ name: 'required', email: 'optional', phone: 'optional' });
    expect(validatePrechat(modes, {})).toEqual({ name: 'required' });
    expect(validatePrechat(modes, { name: '  ' })).toEqual({ name: 'required' });
    expect(validatePrechat(modes, { name: 'Ana', email: 'ana@', phone: '12' })).toEqual({ email: 'email', phone: 'phone' });
    expect(validatePrechat(modes, { name: 'Ana', email: 'ana@loja.com.br', phone: '+55 (11) 98877-6655' })).toEqual({});
    expect(prechatBody({ name: ' Ana ', email: '', phone: undefined })).toEqual({ name: 'Ana' });
  });
});

describe('files', () => {
  const accepted = ['image/*', 'application/pdf', 'audio/*'];

  it('refuses files over the size or of other types before uploading', () => {
    expect(typeAccepted('image/png', accepted)).toBe(true);
    expect(typeAccepted('application/pdf', accepted)).toBe(true);
    expect(typeAccepted('application/x-msdownload', accepted)).toBe(false);
    expect(fileProblem({ size: 2_000, type: 'image/jpeg' }, 1_000, accepted)).toBe('too-large');
    expect(fileProblem({ size: 10, type: 'text/html' }, 1_000, accepted)).toBe('type-refused');
    expect(fileProblem({ size: 10, type: '' }, 1_000, accepted)).toBeNull();
    expect(fileSize(16 * 1024 * 1024)).toBe('16 MB');
    expect(fileSize(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(fileSize(512 * 1024)).toBe('512 KB');
  });
});

describe('the conversation', () => {
  it('merges pages, live events and resyncs by id, in time order, and a stored message ends its pending twin', () => {
    const conversation = new Conversation();
    expect(conversation.upsert(message({ id: '10', createdAt: '2026-11-20T10:00:02.000Z' }))).toBe(true);
    expect(conversation.upsert(message({ id: '9', createdAt: '2026-11-20T10:00:01.000Z', author: 'bot' }))).toBe(true);
    conversation.addPending({
      clientId: 'c-1',
      body: 'Oi',
      file: null,
      state: 'sending',
      progress: null,
      error: null,
      createdAt: '2026-11-20T10:00:03.000Z',
    });
    expect(conversation.items().map((item) => item.key)).toEqual(['m9', 'm10', 'pc-1']);
    expect(conversation.upsert(message({ id: '10', createdAt: '2026-11-20T10:00:02.000Z', body: 'Olá!!', isEdited: true }))).toBe(
      false,
    );
    expect(
      conversation.upsert(message({ id: '11', clientId: 'c-1', author: 'visitor', createdAt: '2026-11-20T10:00:03.000Z' })),
    ).toBe(true);
    expect(conversation.items().map((item) => item.key)).toEqual(['m9', 'm10', 'm11']);
    expect(conversation.oldestId()).toBe('9');
    expect(conversation.newestCompanyId()).toBe('10');
  });

  it('shows delivery states from the ack, and makes uuids', () => {
    expect([0, 1, 2, 3, 4, 5].map(deliveryState)).toEqual(['sent', 'sent', 'delivered', 'read', 'read', 'read']);
    expect(newClientId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
