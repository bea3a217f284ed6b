import { renderPage as renderSlot, serveApi, signIn as signInAs } from '@balcao/plugin-sdk/testing/ui';
import type { ComponentSlotProps } from '@balcao/plugin-sdk/ui';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';
import tr from '../locales/tr.json';
import FacebookLogin from './FacebookLogin';
import WindowNotice from './WindowNotice';

/** The channels plugin's texts of the two Meta errors these tests meet. */
const channelsPt = {
  errors: {
    ERR_META_TOKEN_INVALID: 'O Meta recusou o token.',
    ERR_META_NOT_CONFIGURED: 'Os canais do Meta não estão configurados neste servidor.',
  },
};

/** Answers one method and path with a body. */
const answer =
  (method: string, path: string, body: unknown, status = 200) =>
  (call: { method: string; path: string }) =>
    call.method === method && call.path === path ? { status, body } : undefined;

/** The page's Facebook SDK: what its `FB.login` answers next (the browser's Facebook is not ours to run). */
let nextLogin: { status: string; authResponse: { accessToken: string; userID: string } | null } = {
  status: 'connected',
  authResponse: { accessToken: 'user-token-1', userID: '7001' },
};
const SDK_URL = 'https://connect.facebook.test/sdk.js';
const settings = { configured: true, appId: '4242', sdkUrl: SDK_URL, graphVersion: 'v21.0' };

beforeEach(async () => {
  // the Meta texts, and the channels plugin's (it carries the ERR_META_* messages the shell shows; a feature's
  // tests read no other feature's files, so the two the tests meet are given here)
  await signInAs({ namespace: 'channels', translations: { pt: channelsPt, en: {}, es: {}, tr: {} } });
  await signInAs({ namespace: 'meta', translations: { pt, en, es, tr } });
  // the SDK script: "loaded" at once, defining FB (happy-dom must not fetch Facebook's)
  const append = document.head.appendChild.bind(document.head);
  vi.spyOn(document.head, 'appendChild').mockImplementation(<T extends Node>(node: T): T => {
    if (!(node instanceof HTMLScriptElement) || node.src !== SDK_URL) return append(node);
    (window as unknown as { FB: unknown }).FB = {
      init: () => {},
      login: (callback: (response: typeof nextLogin) => void) => setTimeout(() => callback(nextLogin), 0),
    };
    setTimeout(() => node.onload?.(new Event('load')), 0);
    return node;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  nextLogin = { status: 'connected', authResponse: { accessToken: 'user-token-1', userID: '7001' } };
});

const page = (id: string, name: string, fields: Partial<{ instagram: unknown; connected: unknown }> = {}) => ({
  id,
  name,
  instagram: null,
  connected: { facebook: false, instagram: false },
  ...fields,
});

describe('FacebookLogin (connectionLogin)', () => {
  it('lists the pages the login manages, connects the chosen ones and shows what was created', async () => {
    const calls = serveApi(
      answer('GET', '/meta/facebook/login', settings),
      answer('POST', '/meta/facebook/pages', {
        pages: [
          page('101', 'Loja Centro', { instagram: { id: '9101', username: 'lojacentro' } }),
          page('102', 'Loja Antiga', { connected: { facebook: true, instagram: false } }),
          page('103', 'Loja Sul'),
        ],
      }),
      answer('POST', '/facebook', { connections: [{ id: 55, name: 'Loja Centro', channel: 'facebook', number: '101' }] }),
    );
    const onClose = vi.fn();
    renderSlot(<FacebookLogin channel="facebook" onClose={onClose} />);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Conectar páginas do Facebook')).toBeTruthy();
    const go = await within(dialog).findByRole('button', { name: /Continuar com o Facebook/ });
    await waitFor(() => expect((go as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(go);

    const rows = await screen.findAllByTestId('meta-page');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Loja Centro'),
      expect.stringContaining('Loja Antiga'),
      expect.stringContaining('Loja Sul'),
    ]);
    expect(within(rows[0] as HTMLElement).getByText('@lojacentro')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('já conectada')).toBeTruthy();
    const box = (row: HTMLElement) => within(row).getByRole('checkbox') as HTMLInputElement;
    // the pages not connected yet come chosen; a connected one can't be chosen again
    expect(rows.map((row) => box(row).checked)).toEqual([true, false, true]);
    expect(box(rows[1] as HTMLElement).disabled).toBe(true);
    expect(calls.find((call) => call.path === '/meta/facebook/pages')?.body).toEqual({ facebookUserToken: 'user-token-1' });

    fireEvent.click(box(rows[2] as HTMLElement));
    fireEvent.click(screen.getByRole('button', { name: 'Conectar' }));
    expect(await screen.findByText('1 conexão criada')).toBeTruthy();
    expect(screen.getByTestId('meta-connected').textContent).toContain('Loja Centro');
    expect(calls.find((call) => call.method === 'POST' && call.path === '/facebook')?.body).toEqual({
      facebookUserId: '7001',
      facebookUserToken: 'user-token-1',
      pageIds: ['101'],
      addInstagram: false,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Fechar' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('offers only pages with a linked account for Instagram and asks for the account with the page', async () => {
    const calls = serveApi(
      answer('GET', '/meta/facebook/login', settings),
      answer('POST', '/meta/facebook/pages', {
        pages: [page('201', 'Com Insta', { instagram: { id: '9201', username: 'cominsta' } }), page('202', 'Sem Insta')],
      }),
      answer('POST', '/facebook', {
        connections: [
          { id: 61, name: 'Com Insta', channel: 'facebook', number: '201' },
          { id: 62, name: 'cominsta', channel: 'instagram', number: '9201' },
        ],
      }),
    );
    renderSlot(<FacebookLogin channel="instagram" onClose={() => {}} />);
    const go = await screen.findByRole('button', { name: /Continuar com o Facebook/ });
    await waitFor(() => expect((go as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(go);
    const rows = await screen.findAllByTestId('meta-page');
    expect(within(rows[1] as HTMLElement).getByText('sem Instagram')).toBeTruthy();
    expect((within(rows[1] as HTMLElement).getByRole('checkbox') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Conectar' }));
    expect(await screen.findByText('2 conexões criadas')).toBeTruthy();
    expect(calls.find((call) => call.path === '/facebook')?.body).toMatchObject({ pageIds: ['201'], addInstagram: true });
  });

  it('says why in the user language: a refused token, a login not finished', async () => {
    serveApi(
      answer('GET', '/meta/facebook/login', settings),
      answer('POST', '/meta/facebook/pages', { error: 'ERR_META_TOKEN_INVALID' }, 400),
    );
    renderSlot(<FacebookLogin channel="facebook" onClose={() => {}} />);
    const go = await screen.findByRole('button', { name: /Continuar com o Facebook/ });
    await waitFor(() => expect((go as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(go);
    expect(await screen.findByText(channelsPt.errors.ERR_META_TOKEN_INVALID)).toBeTruthy();
    expect(screen.queryByTestId('meta-page')).toBeNull();

    nextLogin = { status: 'unknown', authResponse: null };
    fireEvent.click(go);
    expect(await screen.findByText(pt.login.cancelled)).toBeTruthy();
  });

  it('says so when the server has no Meta app, and offers no login', async () => {
    const calls = serveApi(answer('GET', '/meta/facebook/login', { ...settings, configured: false, appId: null }));
    renderSlot(<FacebookLogin channel="facebook" onClose={() => {}} />);
    expect(await screen.findByText(channelsPt.errors.ERR_META_NOT_CONFIGURED)).toBeTruthy();
    expect(((await screen.findByRole('button', { name: /Continuar com o Facebook/ })) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('renders nothing for a channel that is not Meta', () => {
    serveApi();
    const { container } = renderSlot(<FacebookLogin channel="whatsapp" onClose={() => {}} />);
    expect(container.innerHTML).toBe('');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

type Ticket = ComponentSlotProps['composerNotice']['ticket'];
const ticket = (fields: Partial<Ticket> = {}) =>
  ({
    id: 31,
    channel: 'whatsappapi',
    isGroup: false,
    status: 'open',
    updatedAt: '2026-11-28T10:00:00.000Z',
    ...fields,
  }) as Ticket;

const closedWindow = {
  windowed: true,
  open: false,
  whatsappId: 8,
  lastInboundAt: '2026-11-26T10:00:00.000Z',
  closesAt: '2026-11-27T10:00:00.000Z',
};
const templates = {
  templates: [
    { name: 'retomada', language: 'pt_BR', category: 'UTILITY', body: 'Olá {{1}}, seu pedido {{2}} está pronto.', variables: 2 },
    { name: 'aviso', language: 'pt_BR', category: 'UTILITY', body: 'Temos novidades.', variables: 0 },
  ],
};

describe('WindowNotice (composerNotice)', () => {
  it('on a closed window lists the approved templates, fills the variables and sends the chosen one', async () => {
    const calls = serveApi(
      answer('GET', '/meta/tickets/31/window', closedWindow),
      answer('GET', '/meta/whatsappapi/8/templates', templates),
      answer('POST', '/meta/whatsappapi/8/templates/send', { messageId: 900 }),
    );
    renderSlot(<WindowNotice ticket={ticket()} />);
    const notice = await screen.findByTestId('meta-window-closed');
    expect(within(notice).getByText(pt.window.closedTitle)).toBeTruthy();
    expect(within(notice).getByText(pt.window.closed)).toBeTruthy();
    fireEvent.click(within(notice).getByRole('button', { name: /Enviar modelo/ }));

    const dialog = await screen.findByRole('dialog');
    const send = () => within(dialog).getByRole('button', { name: 'Enviar' }) as HTMLButtonElement;
    const select = await within(dialog).findByRole('combobox', { name: 'Modelo' });
    expect(send().disabled).toBe(true);
    fireEvent.mouseDown(select);
    fireEvent.click(await screen.findByText('retomada (pt_BR)', { selector: '.ant-select-item-option-content' }));
    const first = await within(dialog).findByRole('textbox', { name: 'Variável 1' });
    const second = within(dialog).getByRole('textbox', { name: 'Variável 2' });
    fireEvent.change(first, { target: { value: 'Ana' } });
    // every variable is needed before it can go
    expect(send().disabled).toBe(true);
    fireEvent.change(second, { target: { value: ' 4521 ' } });
    expect(within(dialog).getByTestId('meta-template-preview').textContent).toBe('Olá Ana, seu pedido 4521 está pronto.');
    await waitFor(() => expect(send().disabled).toBe(false));
    fireEvent.click(send());
    // the first toast of the file loads the toast holders' code
    expect(await screen.findByText(pt.templates.sent, {}, { timeout: 5_000 })).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      ticketId: 31,
      name: 'retomada',
      language: 'pt_BR',
      variables: ['Ana', '4521'],
    });
  });

  it('says when the contact never wrote and when the account has no templates', async () => {
    serveApi(
      answer('GET', '/meta/tickets/31/window', { ...closedWindow, lastInboundAt: null, closesAt: null }),
      answer('GET', '/meta/whatsappapi/8/templates', { templates: [] }),
    );
    renderSlot(<WindowNotice ticket={ticket()} />);
    expect(await screen.findByText(pt.window.never)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Enviar modelo/ }));
    expect(await screen.findByText(pt.templates.none)).toBeTruthy();
  });

  it('shows nothing on an open window, and asks nothing of other channels or groups', async () => {
    const calls = serveApi(
      answer('GET', '/meta/tickets/31/window', { ...closedWindow, open: true, closesAt: '2999-01-01T00:00:00.000Z' }),
    );
    const { container, unmount } = renderSlot(<WindowNotice ticket={ticket()} />);
    await waitFor(() => expect(calls.map((call) => call.path)).toContain('/meta/tickets/31/window'));
    // the answer is in: still nothing on screen
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(container.innerHTML).toBe('');
    expect(screen.queryByTestId('meta-window-closed')).toBeNull();
    unmount();

    const others = serveApi();
    renderSlot(<WindowNotice ticket={ticket({ channel: 'facebook' })} />);
    renderSlot(<WindowNotice ticket={ticket({ isGroup: true })} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(others).toEqual([]);
    expect(screen.queryByTestId('meta-window-closed')).toBeNull();
  });
});
