import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { createSigner } from 'fast-jwt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedWebchatDemo } from '../server/webchat/seed';
import type { WebchatMessage } from '../shared/webchat';
import { createApi } from './api';
import { callWebchat } from './http';
import { ChatLoader } from './loader';

/**
 * The widget against a real app (Postgres, Redis, the webchat routes), from happy-dom's page at
 * http://balcao.test — a cross-origin page for real: happy-dom's fetch sends the Origin, preflights and
 * enforces the CORS answer. (happy-dom has no EventSource: the live stream is proven in e2e/webchat.test.ts.)
 */

const PAGE_ORIGIN = 'http://balcao.test';
let t: TestApp;
let api: string;
let widgetKey: string;
let identitySecret: string;
let connectionId: number;
let loader: ChatLoader | null = null;

beforeAll(async () => {
  t = await createTestApp();
  api = `${await t.listen()}/api`;
  const channels = t.balcao.plugins.find((plugin) => plugin.discovered.manifest.id === 'channels');
  if (!channels) throw new Error('the channels plugin is not loaded');
  connectionId = (await seedWebchatDemo(channels.ctx, t.demo)) as number;
  const knex = t.balcao.core.knex;
  // this page's origin allowed, before any widget call (no cached copy of the connection yet)
  await knex('whatsapps')
    .where({ id: connectionId })
    .update({
      channelConfig: knex.raw(`jsonb_set(channel_config, '{allowedOrigins}', ?::jsonb)`, [JSON.stringify([PAGE_ORIGIN])]),
    });
  const row = await knex('whatsapps').where({ id: connectionId }).first('channelConfig');
  ({ widgetKey, identitySecret } = row.channelConfig as { widgetKey: string; identitySecret: string });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

afterEach(() => {
  loader?.destroy();
  loader = null;
  document.body.innerHTML = '';
  localStorage.clear();
});

async function until(check: () => unknown, timeout = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeout) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function start(user: string | null = null) {
  document.documentElement.lang = 'pt-BR';
  loader = new ChatLoader({ widgetKey, api, user });
  return { shadow: loader.root, chat: createApi(loader), loader };
}

describe('the widget against the real server', () => {
  it('reads the connection, makes the visitor through the pre-chat form, and stores a message once however often it is sent', async () => {
    const { shadow, chat, loader } = start();
    await loader.whenReady();
    expect(loader.configError).toBeNull();
    expect(loader.config).toMatchObject({ title: 'Fale com a Acme', color: '#B5651D', online: true });
    chat.open();
    await until(() => shadow.querySelector('form.prechat'));
    const form = shadow.querySelector('form.prechat') as HTMLFormElement;
    (form.querySelector('input[name=name]') as HTMLInputElement).value = 'Visitante Real';
    form.requestSubmit();
    await until(() => shadow.querySelector('textarea'));
    const token = loader.sessionToken as string;
    expect(token).toBeTruthy();

    const sent: WebchatMessage[] = [];
    chat.on('message', (message) => sent.push(message));
    const textarea = shadow.querySelector('textarea') as HTMLTextAreaElement;
    textarea.value = 'Olá, vocês entregam no sábado?';
    textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await until(() => sent.length === 1);
    const [stored] = sent as [WebchatMessage];
    expect(stored).toMatchObject({ author: 'visitor', body: 'Olá, vocês entregam no sábado?' });
    expect(shadow.querySelector(`.msg[data-id="${stored.id}"] [data-state]`)?.textContent).toMatch(/Enviada|Entregue|Lida/);

    // a retry with the same clientId (what "Tentar de novo" sends) is the same message
    const again = await callWebchat<WebchatMessage>(api, widgetKey, '/messages', {
      sessionToken: token,
      json: { clientId: stored.clientId, body: stored.body },
    });
    expect(again.id).toBe(stored.id);
    const rows = await t.balcao.core
      .knex('messages as m')
      .join('tickets as t', 't.id', 'm.ticketId')
      .where({ 't.whatsappId': connectionId, 'm.body': 'Olá, vocês entregam no sábado?' })
      .select('m.id');
    expect(rows).toHaveLength(1);

    // the next page (another page of the site) resumes the same visitor and shows the conversation
    loader.destroy();
    const next = start();
    next.chat.open();
    await until(() => next.shadow.querySelector(`.msg[data-id="${stored.id}"]`));
    expect(next.loader.sessionToken).toBe(token);
    expect(next.shadow.querySelector('form.prechat')).toBeNull();
  });

  it('makes an identified visitor from a token the site signed, and refuses a forged one', async () => {
    const sign = (key: string) => createSigner({ key, algorithm: 'HS256', expiresIn: 3_600_000 });
    const identity = sign(identitySecret)({ sub: 'cliente-77', name: 'Cliente Setenta' }) as string;
    const { shadow, chat, loader } = start(identity);
    chat.open();
    // no form: the site told who it is
    await until(() => shadow.querySelector('textarea'));
    expect(shadow.querySelector('form.prechat')).toBeNull();
    const session = await callWebchat<{ visitor: { identified: boolean; name: string } }>(api, widgetKey, '/sessions', {
      json: { sessionToken: loader.sessionToken },
    });
    expect(session.visitor).toMatchObject({ identified: true, name: 'Cliente Setenta' });

    loader.destroy();
    localStorage.clear();
    const forged = sign('not-the-secret-not-the-secret-0000')({ sub: 'cliente-77' }) as string;
    const errors: string[] = [];
    const second = start(forged);
    second.chat.on('error', ({ code }) => errors.push(code));
    second.chat.open();
    await until(() => second.shadow.querySelector('.status-view.error'));
    expect(second.shadow.querySelector('.status-view.error')?.textContent).toBe(
      'Não foi possível confirmar quem você é. Entre de novo no site.',
    );
    expect(errors).toEqual(['ERR_WEBCHAT_IDENTITY_INVALID']);
  });
});
