import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebchatConfig, WebchatMessage } from '../shared/webchat';
import { createApi } from './api';
import { WINDOW_TEXTS } from './i18n';
import { ChatLoader } from './loader';
import { renderMessage } from './render';
import { message } from './testing/messages';

/**
 * The widget in a DOM (happy-dom): the loader's launcher and API, the window it loads on open (pre-chat,
 * conversation, sending, retry), the unread badge fed by the event stream, and how each kind of message
 * is drawn. The network is a stand-in of the protocol (plugins/channels/shared/webchat.ts) answering in
 * the test; the real server is exercised by e2e/webchat.test.ts.
 */

interface Call {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
}

const API = 'https://balcao.test/api';
const KEY = 'wk_test_0123456789abcdefghij';

const config = (fields: Partial<WebchatConfig> = {}): WebchatConfig => ({
  name: 'Site Acme',
  title: 'Fale com a Acme',
  welcomeMessage: 'Olá! Como podemos ajudar?',
  color: '#ffcc00',
  theme: 'auto',
  position: 'left',
  prechat: { name: 'required', email: 'optional', phone: 'off' },
  online: true,
  maxFileSize: 1024,
  acceptedTypes: ['image/*', 'application/pdf'],
  ...fields,
});

type Answer = { status: number; body?: unknown };

/** Answers the widget's calls with `answer` (per method and path), recording them. */
function serve(answer: (call: Call) => Answer | undefined): Call[] {
  const calls: Call[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const call: Call = {
      method: init?.method ?? 'GET',
      path: `${url.pathname.replace(`/api/webchat/${KEY}`, '')}${url.search}`,
      authorization: headers.get('authorization'),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const { status, body } = answer(call) ?? defaultAnswer(call);
    return new Response(status === 204 ? null : JSON.stringify(body ?? {}), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  return calls;
}

let sequence = 100;
function defaultAnswer(call: Call): Answer {
  if (call.path === '/config') return { status: 200, body: config() };
  if (call.path === '/sessions')
    return { status: 201, body: { sessionToken: 'st-1', visitor: { name: 'Ana', email: null, phone: null, identified: false } } };
  if (call.path.startsWith('/messages') && call.method === 'GET') return { status: 200, body: { messages: [], hasMore: false } };
  if (call.path === '/messages') {
    const { clientId, body } = call.body as { clientId: string; body: string };
    sequence += 1;
    return {
      status: 201,
      body: message({
        id: String(sequence),
        clientId,
        body,
        author: 'visitor',
        authorName: null,
        createdAt: new Date().toISOString(),
      }),
    };
  }
  return { status: 204 };
}

/** A stand-in of the browser's EventSource (happy-dom's would connect to the made-up host). */
class StreamStandIn {
  static opened: StreamStandIn[] = [];
  readonly listeners = new Map<string, Array<(event: { data: string }) => void>>();
  readyState = 1;
  closed = false;
  constructor(readonly url: string) {
    StreamStandIn.opened.push(this);
  }
  addEventListener(type: string, listener: (event: { data: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  deliver(type: string, data: unknown = null) {
    for (const listener of this.listeners.get(type) ?? []) listener({ data: JSON.stringify(data) });
  }
  close() {
    this.closed = true;
  }
}
globalThis.EventSource = StreamStandIn as unknown as typeof EventSource;

const settle = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => unknown, timeout = 2_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeout) throw new Error('timed out waiting');
    await settle(10);
  }
}

let loader: ChatLoader | null = null;
function start(options: Partial<ConstructorParameters<typeof ChatLoader>[0]> = {}) {
  loader = new ChatLoader({ widgetKey: KEY, api: API, ...options });
  const shadow = loader.root;
  return { loader, shadow, api: createApi(loader) };
}

beforeEach(() => {
  StreamStandIn.opened = [];
  localStorage.clear();
  // happy-dom's browser speaks en-US: the page's language decides, as on a Brazilian site
  document.documentElement.lang = 'pt-BR';
});

afterEach(() => {
  loader?.destroy();
  loader = null;
  document.body.innerHTML = '';
});

describe('the loader', () => {
  it('draws the launcher in a Shadow DOM with the connection colour and corner, and says ready', async () => {
    const calls = serve(() => undefined);
    const { loader, shadow, api } = start();
    const ready: unknown[] = [];
    api.on('ready', (payload) => ready.push(payload));
    await loader.whenReady();
    expect(calls.map((call) => call.path)).toEqual(['/config']);
    const host = document.getElementById('balcao-chat') as HTMLElement;
    expect(host.tagName).toBe('BALCAO-CHAT');
    expect(host.shadowRoot).toBe(shadow);
    expect(host.children).toHaveLength(0);
    expect(host.dataset.position).toBe('left');
    expect(host.dataset.theme).toBe('auto');
    expect(host.style.getPropertyValue('--bc-accent')).toBe('#ffcc00');
    // dark text on a light colour
    expect(host.style.getPropertyValue('--bc-on-accent')).toBe('#000');
    const launcher = shadow.querySelector('button.launcher') as HTMLButtonElement;
    expect(launcher.getAttribute('aria-label')).toBe('Abrir conversa');
    expect(ready).toEqual([{ online: true }]);
    // nothing of the window before the first open
    expect(shadow.querySelector('.window')).toBeNull();
  });

  it('speaks the language of data-locale, else of the page', async () => {
    serve(() => undefined);
    document.documentElement.lang = 'es-MX';
    const first = start();
    expect(first.shadow.querySelector('button.launcher')?.getAttribute('aria-label')).toBe('Abrir conversación');
    first.loader.destroy();
    const second = start({ locale: 'tr' });
    expect(second.shadow.querySelector('button.launcher')?.getAttribute('aria-label')).toBe('Sohbeti aç');
    second.api.setLocale('en');
    expect(second.shadow.querySelector('button.launcher')?.getAttribute('aria-label')).toBe('Open chat');
  });

  it('asks for the pre-chat form, checks it, makes the session and shows the conversation', async () => {
    const calls = serve(() => undefined);
    const { loader, shadow, api } = start();
    const events: string[] = [];
    api.on('open', () => events.push('open'));
    api.on('close', () => events.push('close'));
    api.open();
    await until(() => shadow.querySelector('form.prechat'));
    expect(events).toEqual(['open']);
    const form = shadow.querySelector('form.prechat') as HTMLFormElement;
    expect([...form.querySelectorAll('input')].map((input) => input.name)).toEqual(['name', 'email']);
    expect(shadow.activeElement).toBe(form.querySelector('input[name=name]'));
    // the required name missing, a wrong e-mail: nothing is sent
    (form.querySelector('input[name=email]') as HTMLInputElement).value = 'ana@';
    form.requestSubmit();
    expect(form.querySelector('#bc-error-name')?.textContent).toBe('Preencha este campo.');
    expect(form.querySelector('#bc-error-email')?.textContent).toBe('Informe um e-mail válido.');
    expect(calls.filter((call) => call.path === '/sessions')).toHaveLength(0);

    (form.querySelector('input[name=name]') as HTMLInputElement).value = 'Ana';
    (form.querySelector('input[name=email]') as HTMLInputElement).value = '';
    form.requestSubmit();
    await until(() => shadow.querySelector('textarea'));
    expect(calls.find((call) => call.path === '/sessions')?.body).toEqual({ name: 'Ana', locale: 'pt' });
    expect(calls.find((call) => call.path.startsWith('/messages'))).toMatchObject({
      method: 'GET',
      path: '/messages',
      authorization: 'Bearer st-1',
    });
    expect(JSON.parse(localStorage.getItem(`balcao-chat:${KEY}`) ?? '{}')).toMatchObject({ token: 'st-1', subject: null });
    expect(StreamStandIn.opened.at(-1)?.url).toBe(`${API}/webchat/${KEY}/events?sessionToken=st-1`);
    expect(shadow.querySelector('.welcome')?.textContent).toBe('Olá! Como podemos ajudar?');
    expect(shadow.querySelector('h2')?.textContent).toBe('Fale com a Acme');

    // Escape closes and gives the focus back to the launcher
    shadow.querySelector('textarea')?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(loader.isOpen).toBe(false);
    expect(events).toEqual(['open', 'close']);
    expect(shadow.activeElement).toBe(shadow.querySelector('button.launcher'));
  });

  it('resumes a stored session without the form, sends on Enter, and retries a failure with the same clientId', async () => {
    localStorage.setItem(`balcao-chat:${KEY}`, JSON.stringify({ token: 'st-old', subject: null, unread: 0 }));
    let failSends = 1;
    const calls = serve((call) => {
      if (call.path === '/sessions')
        return {
          status: 200,
          body: { sessionToken: 'st-old', visitor: { name: 'Ana', email: null, phone: null, identified: false } },
        };
      if (call.path === '/messages' && call.method === 'POST' && failSends > 0) {
        failSends -= 1;
        return { status: 429, body: { error: 'ERR_WEBCHAT_RATE_LIMITED', retryAfter: 12 } };
      }
      return undefined;
    });
    const { shadow, api } = start();
    const sent: WebchatMessage[] = [];
    api.on('message', (payload) => sent.push(payload));
    api.open();
    await until(() => shadow.querySelector('textarea'));
    expect(calls.find((call) => call.path === '/sessions')?.body).toEqual({ sessionToken: 'st-old', locale: 'pt' });
    const textarea = shadow.querySelector('textarea') as HTMLTextAreaElement;
    textarea.value = 'Quero saber do meu pedido';
    textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', shiftKey: true, bubbles: true }));
    expect(calls.filter((call) => call.path === '/messages' && call.method === 'POST')).toHaveLength(0);
    textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await until(() => shadow.querySelector('.msg.failed'));
    expect(textarea.value).toBe('');
    const failed = shadow.querySelector('.msg.failed') as HTMLElement;
    expect(failed.textContent).toContain('Muitas mensagens seguidas. Tente de novo em 12 s.');
    const firstTry = calls.filter((call) => call.path === '/messages' && call.method === 'POST')[0]?.body as { clientId: string };
    (failed.querySelector('button.retry') as HTMLButtonElement).click();
    await until(() => shadow.querySelector('.msg.mine[data-id]'));
    const tries = calls.filter((call) => call.path === '/messages' && call.method === 'POST').map((call) => call.body);
    expect(tries).toEqual([firstTry, firstTry]);
    expect(shadow.querySelector('.msg.failed')).toBeNull();
    expect(shadow.querySelector('.msg.mine [data-state]')?.textContent).toBe('Enviada');
    expect(sent.map((payload) => payload.body)).toEqual(['Quero saber do meu pedido']);
  });

  it('counts company messages on the launcher while closed, and marks them read when the visitor sees them', async () => {
    localStorage.setItem(`balcao-chat:${KEY}`, JSON.stringify({ token: 'st-1', subject: null, unread: 0 }));
    const history = [message({ id: '7', body: 'Seu pedido saiu para entrega' }), message({ id: '8', body: 'Chega amanhã' })];
    const calls = serve((call) =>
      call.path.startsWith('/messages') && call.method === 'GET'
        ? { status: 200, body: { messages: history, hasMore: true } }
        : undefined,
    );
    const { loader, shadow, api } = start();
    await loader.whenReady();
    const stream = StreamStandIn.opened.at(-1) as StreamStandIn;
    expect(stream.url).toContain('sessionToken=st-1');
    const heard: string[] = [];
    api.on('message', (payload) => heard.push(payload.body));
    stream.deliver('message', message({ id: '7', body: 'Seu pedido saiu para entrega' }));
    stream.deliver('message', message({ id: '8', body: 'Chega amanhã' }));
    // the visitor's own message, sent from another tab: shown there, never counted
    stream.deliver('message', message({ id: '9', body: 'Obrigado', author: 'visitor' }));
    const badge = shadow.querySelector('.badge') as HTMLElement;
    expect(badge.hidden).toBe(false);
    expect(badge.textContent).toBe('2');
    expect(shadow.querySelector('button.launcher')?.getAttribute('aria-label')).toBe('Abrir conversa (2)');
    expect(JSON.parse(localStorage.getItem(`balcao-chat:${KEY}`) ?? '{}').unread).toBe(2);
    expect(heard).toEqual(['Seu pedido saiu para entrega', 'Chega amanhã']);

    api.open();
    await until(() => shadow.querySelector('.msg[data-id="8"]'));
    expect(badge.hidden).toBe(true);
    await until(() => calls.some((call) => call.path === '/read'));
    expect(calls.find((call) => call.path === '/read')?.body).toEqual({ upToId: '8' });
    expect(shadow.querySelector('button.older')?.textContent).toBe('Carregar mensagens anteriores');

    // live while open: an edit, the agent typing, a new message (announced to screen readers)
    stream.deliver('update', message({ id: '8', body: 'Chega amanhã cedo', isEdited: true }));
    expect(shadow.querySelector('.msg[data-id="8"]')?.textContent).toContain('Chega amanhã cedo');
    expect(shadow.querySelector('.msg[data-id="8"] .edited')?.textContent).toBe('editada');
    // a change to a message of a page not loaded waits for that page (it would break "load older")
    stream.deliver('update', message({ id: '3', body: 'antiga editada', isEdited: true, createdAt: '2026-11-19T10:00:00.000Z' }));
    expect(shadow.querySelector('.msg[data-id="3"]')).toBeNull();
    stream.deliver('typing', { typing: true, name: 'Bruno' });
    expect(shadow.querySelector('.typing')?.textContent).toBe('Bruno está digitando…');
    stream.deliver('message', message({ id: '9', body: 'Mais alguma coisa?' }));
    expect(shadow.querySelector('.typing')?.textContent).toBe('');
    expect(shadow.querySelector('.sr')?.textContent).toContain('Mais alguma coisa?');
    expect(badge.hidden).toBe(true);
  });

  it('pages back through older messages, keeping the ones on screen, and opens with the welcome at the start', async () => {
    localStorage.setItem(`balcao-chat:${KEY}`, JSON.stringify({ token: 'st-1', subject: null, unread: 0 }));
    const at = (second: number) => `2026-11-20T10:00:${String(second).padStart(2, '0')}.000Z`;
    const calls = serve((call) => {
      if (call.path === '/messages')
        return { status: 200, body: { messages: [message({ id: '20', createdAt: at(20), body: 'nova' })], hasMore: true } };
      if (call.path.startsWith('/messages?before=20'))
        return { status: 200, body: { messages: [message({ id: '5', createdAt: at(5), body: 'antiga' })], hasMore: false } };
      return undefined;
    });
    const { shadow, api } = start();
    api.open();
    await until(() => shadow.querySelector('.msg[data-id="20"]'));
    const newest = shadow.querySelector('.msg[data-id="20"]');
    expect(shadow.querySelector('.welcome')).toBeNull();
    (shadow.querySelector('button.older') as HTMLButtonElement).click();
    await until(() => shadow.querySelector('.msg[data-id="5"]'));
    expect(calls.some((call) => call.path === '/messages?before=20&limit=30')).toBe(true);
    const order = [...shadow.querySelectorAll('.log > *')].map(
      (node) => (node as HTMLElement).dataset.id ?? (node as HTMLElement).dataset.kind,
    );
    expect(order).toEqual(['welcome', '5', '20']);
    expect(shadow.querySelector('button.older')).toBeNull();
    // the bubble already on screen is the same node (a playing video would keep playing)
    expect(shadow.querySelector('.msg[data-id="20"]')).toBe(newest);
  });

  it('after a reconnection fetches what it missed, and starts over from the newest page when too much was missed', async () => {
    localStorage.setItem(`balcao-chat:${KEY}`, JSON.stringify({ token: 'st-1', subject: null, unread: 0 }));
    const at = (minute: number) => `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`;
    let newest: { messages: WebchatMessage[]; hasMore: boolean } = {
      messages: [message({ id: '7', createdAt: at(7) }), message({ id: '8', createdAt: at(8) })],
      hasMore: true,
    };
    serve((call) => (call.path === '/messages' && call.method === 'GET' ? { status: 200, body: newest } : undefined));
    const { shadow, api } = start();
    api.open();
    await until(() => shadow.querySelector('.msg[data-id="8"]'));
    const stream = StreamStandIn.opened.at(-1) as StreamStandIn;
    // connected, then (after a drop) connected again: that second `open` is what makes the widget catch up
    stream.deliver('open');
    const ids = () => [...shadow.querySelectorAll<HTMLElement>('.msg[data-id]')].map((node) => node.dataset.id);

    // a short drop: the newest page overlaps what is on screen, merged
    newest = { messages: [message({ id: '8', createdAt: at(8) }), message({ id: '9', createdAt: at(9) })], hasMore: true };
    stream.deliver('open');
    await until(() => shadow.querySelector('.msg[data-id="9"]'));
    expect(ids()).toEqual(['7', '8', '9']);

    // a long one: no overlap, the list starts again from the newest page (paging back fills the rest)
    newest = { messages: [message({ id: '50', createdAt: at(50) }), message({ id: '51', createdAt: at(51) })], hasMore: true };
    stream.deliver('open');
    await until(() => shadow.querySelector('.msg[data-id="51"]'));
    expect(ids()).toEqual(['50', '51']);
    expect(shadow.querySelector('button.older')).not.toBeNull();
  });

  it('reads the configuration again when the network failed at load and the visitor tries again', async () => {
    let down = true;
    serve((call) => {
      if (down) throw new TypeError('Failed to fetch');
      return call.path === '/config'
        ? { status: 200, body: config({ prechat: { name: 'off', email: 'off', phone: 'off' } }) }
        : undefined;
    });
    const { shadow, api, loader } = start();
    await loader.whenReady();
    expect(loader.configError).toBe('NETWORK');
    api.open();
    await until(() => shadow.querySelector('.status-view.error button.again'));
    expect(shadow.querySelector('.status-view.error')?.textContent).toContain('Sem conexão. Verifique sua internet.');
    down = false;
    (shadow.querySelector('.status-view.error button.again') as HTMLButtonElement).click();
    await until(() => shadow.querySelector('textarea'));
    expect(shadow.querySelector('h2')?.textContent).toBe('Fale com a Acme');
  });

  it('offers to try again when resuming meets a passing trouble', async () => {
    localStorage.setItem(`balcao-chat:${KEY}`, JSON.stringify({ token: 'st-1', subject: null, unread: 0 }));
    let refuse = true;
    serve((call) =>
      call.path === '/sessions' && refuse
        ? { status: 429, body: { error: 'ERR_WEBCHAT_RATE_LIMITED', retryAfter: 3 } }
        : undefined,
    );
    const { shadow, api } = start();
    api.open();
    await until(() => shadow.querySelector('.status-view.error'));
    expect(shadow.querySelector('.status-view.error')?.textContent).toContain('Muitas mensagens seguidas. Aguarde um pouco.');
    refuse = false;
    (shadow.querySelector('.status-view.error button') as HTMLButtonElement).click();
    await until(() => shadow.querySelector('textarea'));
  });

  it('shows the offline state and keeps the composer shut', async () => {
    localStorage.setItem(`balcao-chat:${KEY}`, JSON.stringify({ token: 'st-1', subject: null, unread: 0 }));
    serve((call) => (call.path === '/config' ? { status: 200, body: config({ online: false }) } : undefined));
    const { shadow, api } = start({ locale: 'en' });
    api.open();
    await until(() => shadow.querySelector('textarea'));
    expect(shadow.querySelector('.notice')?.textContent).toBe('We are offline right now. Please come back later.');
    expect((shadow.querySelector('textarea') as HTMLTextAreaElement).disabled).toBe(true);
    expect(shadow.querySelector('.presence')?.textContent).toBe('Offline');
    StreamStandIn.opened.at(-1)?.deliver('status', { online: true });
    expect(shadow.querySelector('.presence')?.textContent).toBe('Online');
    expect((shadow.querySelector('textarea') as HTMLTextAreaElement).disabled).toBe(false);
  });

  it('shows why it cannot work on a refused origin, in the page language', async () => {
    serve(() => ({ status: 403, body: { error: 'ERR_WEBCHAT_ORIGIN_REFUSED' } }));
    const { shadow, api, loader } = start({ locale: 'es' });
    const errors: unknown[] = [];
    api.on('error', (payload) => errors.push(payload));
    await loader.whenReady();
    api.open();
    await until(() => shadow.querySelector('.status-view.error'));
    expect(shadow.querySelector('.status-view.error')?.textContent).toBe('Este sitio no puede usar este chat.');
    expect(errors).toEqual([{ code: 'ERR_WEBCHAT_ORIGIN_REFUSED' }]);
  });

  it('refuses a file over the limit before uploading it', async () => {
    localStorage.setItem(`balcao-chat:${KEY}`, JSON.stringify({ token: 'st-1', subject: null, unread: 0 }));
    const calls = serve(() => undefined);
    const { shadow, api } = start();
    api.open();
    await until(() => shadow.querySelector('textarea'));
    const input = shadow.querySelector('input[type=file]') as HTMLInputElement;
    expect(input.accept).toBe('image/*,application/pdf');
    Object.defineProperty(input, 'files', {
      value: [new File(['x'.repeat(2048)], 'foto.png', { type: 'image/png' })],
      configurable: true,
    });
    input.dispatchEvent(new Event('change'));
    expect(shadow.querySelector('.notice')?.textContent).toBe('O arquivo passa do limite de 1 KB.');
    Object.defineProperty(input, 'files', {
      value: [new File(['x'], 'virus.exe', { type: 'application/x-msdownload' })],
      configurable: true,
    });
    input.dispatchEvent(new Event('change'));
    expect(shadow.querySelector('.notice')?.textContent).toBe('Este tipo de arquivo não é aceito.');
    expect(calls.filter((call) => call.path === '/messages' && call.method === 'POST')).toHaveLength(0);
  });

  it('forgets the visitor on setUser(null) and on a session the server ended', async () => {
    localStorage.setItem(`balcao-chat:${KEY}`, JSON.stringify({ token: 'st-1', subject: null, unread: 3 }));
    const calls = serve(() => undefined);
    const { loader, shadow, api } = start();
    await loader.whenReady();
    expect(shadow.querySelector('.badge')?.textContent).toBe('3');
    const stream = StreamStandIn.opened.at(-1) as StreamStandIn;
    api.setUser(null);
    expect(localStorage.getItem(`balcao-chat:${KEY}`)).toBeNull();
    // the server ends it too
    expect(calls.at(-1)).toMatchObject({ method: 'DELETE', path: '/sessions', authorization: 'Bearer st-1' });
    expect(stream.closed).toBe(true);
    expect((shadow.querySelector('.badge') as HTMLElement).hidden).toBe(true);

    localStorage.setItem(`balcao-chat:${KEY}`, JSON.stringify({ token: 'st-2', subject: null, unread: 0 }));
    loader.destroy();
    const second = start();
    await second.loader.whenReady();
    StreamStandIn.opened.at(-1)?.deliver('ended', {});
    expect(localStorage.getItem(`balcao-chat:${KEY}`)).toBeNull();
  });

  it('sends the identity instead of asking the form, and asks only what the server says is missing', async () => {
    const identity = `h.${btoa(JSON.stringify({ sub: 'u-9', exp: 9_999_999_999 })).replace(/=+$/, '')}.s`;
    let answered = false;
    const calls = serve((call) => {
      if (call.path !== '/sessions' || answered) return undefined;
      answered = true;
      return {
        status: 400,
        body: { error: 'ERR_WEBCHAT_PRECHAT_REQUIRED', details: [{ field: 'body.phone', message: 'required' }] },
      };
    });
    const { shadow, api } = start({ user: identity });
    api.open();
    await until(() => shadow.querySelector('form.prechat'));
    expect(calls.find((call) => call.path === '/sessions')?.body).toEqual({ identity, locale: 'pt' });
    const form = shadow.querySelector('form.prechat') as HTMLFormElement;
    expect((form.querySelector('input[name=phone]') as HTMLInputElement).required).toBe(true);
    (form.querySelector('input[name=name]') as HTMLInputElement).value = 'Ana';
    (form.querySelector('input[name=phone]') as HTMLInputElement).value = '+55 11 98877-6655';
    form.requestSubmit();
    await until(() => shadow.querySelector('textarea'));
    expect(calls.filter((call) => call.path === '/sessions').at(-1)?.body).toEqual({
      name: 'Ana',
      phone: '+55 11 98877-6655',
      identity,
      locale: 'pt',
    });
    expect(JSON.parse(localStorage.getItem(`balcao-chat:${KEY}`) ?? '{}').subject).toBe('u-9');
  });

  it("doesn't resume another site user's session", async () => {
    const identity = (sub: string) => `h.${btoa(JSON.stringify({ sub, exp: 9_999_999_999 })).replace(/=+$/, '')}.s`;
    localStorage.setItem(`balcao-chat:${KEY}`, JSON.stringify({ token: 'st-u1', subject: 'u1', unread: 0 }));
    serve(() => undefined);
    const { loader } = start({ user: identity('u2') });
    await loader.whenReady();
    expect(loader.sessionToken).toBeNull();
    expect(localStorage.getItem(`balcao-chat:${KEY}`)).toBeNull();
  });
});

describe('inline mode', () => {
  it('draws the window inside the given element, open, without a launcher', async () => {
    serve((call) =>
      call.path === '/config'
        ? { status: 200, body: config({ prechat: { name: 'off', email: 'off', phone: 'off' } }) }
        : undefined,
    );
    const target = document.createElement('div');
    document.body.append(target);
    const { loader, shadow } = start({ inline: true, target });
    await loader.whenReady();
    await until(() => shadow.querySelector('textarea'));
    expect(target.shadowRoot).toBe(shadow);
    expect(shadow.querySelector('button.launcher')).toBeNull();
    expect(shadow.querySelector('.window')?.getAttribute('role')).toBe('region');
    expect(document.getElementById('balcao-chat')).toBeNull();
  });
});

describe('drawing messages', () => {
  const context = { texts: WINDOW_TEXTS.pt, locale: 'pt', companyName: 'Site Acme' };

  it('draws text as text, with links, never as HTML', () => {
    const bubble = renderMessage(message({ body: '<img src=x onerror=alert(1)> veja https://acme.test/pedido/1.' }), context);
    expect(bubble.querySelector('img')).toBeNull();
    expect(bubble.querySelector('.text')?.textContent).toBe('<img src=x onerror=alert(1)> veja https://acme.test/pedido/1.');
    const link = bubble.querySelector('a') as HTMLAnchorElement;
    expect(link.href).toBe('https://acme.test/pedido/1');
    expect(link.rel).toBe('noopener noreferrer');
    expect(bubble.querySelector('.author')?.textContent).toBe('Bruno');
    expect(renderMessage(message({ author: 'bot', authorName: null }), context).querySelector('.author')?.textContent).toBe(
      'Site Acme',
    );
    // the signature line the inbox adds is not repeated under the author's name
    const signed = renderMessage(message({ authorName: 'Alex Agente', body: '*Alex Agente:*\nClaro!' }), context);
    expect(signed.querySelector('.text')?.textContent).toBe('Claro!');
    const menu = renderMessage(
      message({ author: 'bot', body: 'Escolha:\n\n*[ 1 ]* - Vendas\n_hoje_ ~não~ snake_case_name 2*3*4' }),
      context,
    );
    expect([...menu.querySelectorAll('strong, em, s')].map((node) => `${node.tagName}:${node.textContent}`)).toEqual([
      'STRONG:[ 1 ]',
      'EM:hoje',
      'S:não',
    ]);
    expect(menu.querySelector('.text')?.textContent).toBe('Escolha:\n\n[ 1 ] - Vendas\nhoje não snake_case_name 2*3*4');
  });

  it('draws images inline, players for audio and video, other files as links', () => {
    const image = renderMessage(
      message({ mediaType: 'image', mediaUrl: 'https://balcao.test/m/1?sig=a', fileName: 'foto.png', body: 'foto.png' }),
      context,
    );
    expect(image.querySelector('img')?.getAttribute('src')).toBe('https://balcao.test/m/1?sig=a');
    expect(image.querySelector('.text')).toBeNull();
    const audio = renderMessage(
      message({ mediaType: 'audio', mediaUrl: 'https://balcao.test/m/2', fileName: 'voz.ogg' }),
      context,
    );
    expect((audio.querySelector('audio') as HTMLAudioElement).controls).toBe(true);
    const video = renderMessage(message({ mediaType: 'video', mediaUrl: 'https://balcao.test/m/3', body: 'olha isso' }), context);
    expect(video.querySelector('video')).not.toBeNull();
    expect(video.querySelector('.text')?.textContent).toBe('olha isso');
    const file = renderMessage(
      message({ mediaType: 'document', mediaUrl: 'https://balcao.test/m/4', fileName: 'nota.pdf' }),
      context,
    );
    expect(file.querySelector('a.file')?.textContent).toBe('nota.pdf');
    expect(file.querySelector('a.file')?.getAttribute('download')).toBe('nota.pdf');
    const sneaky = renderMessage(message({ mediaType: 'image', mediaUrl: 'javascript:alert(1)' }), context);
    expect(sneaky.querySelector('img, a')).toBeNull();
  });

  it('marks deleted and edited messages, shows reactions and the delivery state of the visitor’s own', () => {
    const deleted = renderMessage(
      message({ isDeleted: true, body: 'segredo', mediaUrl: 'https://balcao.test/m/1', mediaType: 'image' }),
      context,
    );
    expect(deleted.textContent).toContain('mensagem apagada');
    expect(deleted.textContent).not.toContain('segredo');
    expect(deleted.querySelector('img')).toBeNull();
    const edited = renderMessage(message({ isEdited: true, reactions: [{ emoji: '👍', mine: false }] }), context);
    expect(edited.querySelector('.edited')?.textContent).toBe('editada');
    expect(edited.querySelector('.reactions')?.textContent).toBe('👍');
    const mine = renderMessage(message({ author: 'visitor', authorName: null, ack: 5 }), context);
    expect(mine.classList.contains('mine')).toBe(true);
    expect(mine.querySelector('.author')).toBeNull();
    expect(mine.querySelector('[data-state]')?.textContent).toBe('Lida');
  });
});
