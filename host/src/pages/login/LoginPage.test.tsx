import { type SessionUser, sessionEnded, store, tokens } from '@balcao/plugin-sdk/ui';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderShell, serveApi } from '../../../testing/render-shell';
import { PublicOnly } from '../../app/session-guards';
import { registerShellTranslations } from '../../i18n';
import { LoginPage } from './LoginPage';

function inDays(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return date.toISOString().slice(0, 10);
}

const user = (dueDate: string) =>
  ({
    id: 4,
    name: 'Ana Admin',
    companyId: 2,
    profile: 'admin',
    super: false,
    company: { id: 2, name: 'Acme', dueDate },
  }) as SessionUser;

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

function renderLogin() {
  return renderShell(
    <Routes>
      <Route element={<PublicOnly />}>
        <Route path="/login" element={<LoginPage />} />
      </Route>
      <Route path="*" element={<Where />} />
    </Routes>,
    { route: '/login' },
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));

describe('the login screen (docs/product/tickets-and-inbox.md#screens-and-routes and #validation)', () => {
  beforeAll(async () => {
    await registerShellTranslations();
  });
  afterEach(() => {
    tokens.clear();
    store.dispatch(sessionEnded('logout'));
  });

  it('has e-mail, password, remember me and the forgot-password link; register only when signup is enabled', async () => {
    serveApi();
    const { unmount } = renderLogin();
    expect(screen.getByLabelText('E-mail')).toBeTruthy();
    expect(screen.getByLabelText('Senha')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Lembrar de mim' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Esqueceu a senha?' }).getAttribute('href')).toBe('/forgetpsw');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Cadastre-se' })).toBeNull();
    unmount();
    store.dispatch({ type: 'api/resetApiState' });
    serveApi(({ path }) => (path === '/public-settings/allowSignup' ? { status: 200, body: 'enabled' } : undefined));
    renderLogin();
    expect(await screen.findByRole('button', { name: 'Cadastre-se' })).toBeTruthy();
  });

  it('says what is missing or wrong before calling the server', async () => {
    const calls = serveApi();
    renderLogin();
    submit();
    expect(await screen.findAllByText('Obrigatório')).toHaveLength(2);
    type('E-mail', 'ana@acme');
    submit();
    expect(await screen.findByText('E-mail inválido')).toBeTruthy();
    expect(calls.some((call) => call.path === '/auth/login')).toBe(false);
  });

  it('grades the password as it is typed', () => {
    serveApi();
    renderLogin();
    type('Senha', 'abc');
    expect(screen.getByTestId('password-strength').dataset.level).toBe('weak');
    expect(screen.getByText('Fraca')).toBeTruthy();
    type('Senha', 'Demo1234');
    expect(screen.getByText('Média')).toBeTruthy();
    type('Senha', 'Demo1234!');
    expect(screen.getByText('Forte')).toBeTruthy();
  });

  it('asks before logging in with a weak password, then logs in with the e-mail lowercased', async () => {
    const calls = serveApi(({ path }) =>
      path === '/auth/login' ? { status: 200, body: { token: 'token-1', user: user(inDays(200)) } } : undefined,
    );
    renderLogin();
    type('E-mail', ' Ana@Acme.TEST ');
    type('Senha', 'abc');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Lembrar de mim' }));
    submit();
    expect(await screen.findByText('Senha com baixa segurança', undefined, { timeout: 8_000 })).toBeTruthy();
    expect(calls.some((call) => call.path === '/auth/login')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Entrar mesmo assim' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/tickets'), { timeout: 5_000 });
    expect(calls.find((call) => call.path === '/auth/login')?.body).toEqual({
      email: 'ana@acme.test',
      password: 'abc',
      remember: true,
    });
    expect(tokens.read()).toBe('token-1');
    expect(store.getState().session.status).toBe('authenticated');
  });

  it('warns when fewer than 5 days of subscription remain', async () => {
    serveApi(({ path }) =>
      path === '/auth/login' ? { status: 200, body: { token: 'token-2', user: user(inDays(3)) } } : undefined,
    );
    renderLogin();
    type('E-mail', 'ana@acme.test');
    type('Senha', 'Demo1234');
    submit();
    expect(await screen.findByText('Sua assinatura vence em 3 dia(s)', undefined, { timeout: 8_000 })).toBeTruthy();
  });

  it('shows the translated error for a wrong password', async () => {
    serveApi(({ path }) => (path === '/auth/login' ? { status: 401, body: { error: 'ERR_INVALID_CREDENTIALS' } } : undefined));
    renderLogin();
    type('E-mail', 'ana@acme.test');
    type('Senha', 'Wrong1234');
    submit();
    expect(
      await screen.findByText('Erro de autenticação. Por favor, tente novamente.', undefined, { timeout: 8_000 }),
    ).toBeTruthy();
    expect(store.getState().session.status).toBe('anonymous');
  });

  it('sends an expired subscription to /financeiro-aberto with the date', async () => {
    serveApi(({ path }) =>
      path === '/auth/login' ? { status: 402, body: { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: '2024-03-09' } } : undefined,
    );
    renderLogin();
    type('E-mail', 'ana@acme.test');
    type('Senha', 'Demo1234');
    submit();
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/financeiro-aberto'), { timeout: 5_000 });
    expect(
      await screen.findByText('Sua assinatura venceu em 09/03/2024, entre em contato com o suporte.', undefined, {
        timeout: 8_000,
      }),
    ).toBeTruthy();
  });
});

describe("the login page's support chat (docs/channels/widget.md)", () => {
  beforeAll(async () => {
    await registerShellTranslations();
  });
  afterEach(() => {
    tokens.clear();
    store.dispatch(sessionEnded('logout'));
    store.dispatch({ type: 'api/resetApiState' });
    document.getElementById('balcao-support-chat')?.remove();
    document.getElementById('balcao-chat')?.remove();
    delete (window as { BalcaoChat?: unknown }).BalcaoChat;
  });

  const widget = { widgetKey: 'wck_supportsupportsupportsupport12', scriptUrl: '/plugins/channels/widget/channels-widget.js' };
  const queued = () => (window as unknown as { BalcaoChat?: unknown[] }).BalcaoChat;

  it('shows no button while none is set, nor when the call fails', async () => {
    const calls = serveApi(({ path }) =>
      path === '/support-chat' ? { status: 200, body: { widgetKey: null, scriptUrl: null } } : undefined,
    );
    const { unmount } = renderLogin();
    await waitFor(() => expect(calls.some((call) => call.path === '/support-chat')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Chat de suporte' })).toBeNull();
    unmount();
    store.dispatch({ type: 'api/resetApiState' });
    serveApi();
    renderLogin();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Chat de suporte' })).toBeNull();
  });

  it('loads the widget on the first click only and opens it; leaving the page hides it', async () => {
    serveApi(({ path }) => (path === '/support-chat' ? { status: 200, body: widget } : undefined));
    const { unmount } = renderLogin();
    expect(document.getElementById('balcao-support-chat')).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Chat de suporte' }));
    const script = document.getElementById('balcao-support-chat') as HTMLScriptElement;
    expect(script.getAttribute('src')).toBe(widget.scriptUrl);
    expect(script.dataset.key).toBe(widget.widgetKey);
    expect(script.dataset.api).toBe(new URL('/api', window.location.href).href);
    expect(queued()).toEqual([['setLocale', 'pt'], ['open']]);

    // the loader draws its launcher in #balcao-chat; a second click opens it again without a second script
    const launcher = document.createElement('div');
    launcher.id = 'balcao-chat';
    document.body.append(launcher);
    fireEvent.click(screen.getByRole('button', { name: 'Chat de suporte' }));
    expect(document.querySelectorAll('#balcao-support-chat')).toHaveLength(1);
    expect(queued()?.slice(-1)).toEqual([['open']]);

    unmount();
    expect(launcher.style.display).toBe('none');
    expect(queued()?.slice(-1)).toEqual([['close']]);
  });

  it('forgets the support visitor on login', async () => {
    serveApi(({ path }) => {
      if (path === '/support-chat') return { status: 200, body: widget };
      if (path === '/auth/login') return { status: 200, body: { token: 'token-9', user: user(inDays(200)) } };
      return undefined;
    });
    renderLogin();
    fireEvent.click(await screen.findByRole('button', { name: 'Chat de suporte' }));
    type('E-mail', 'ana@acme.test');
    type('Senha', 'Demo1234!');
    submit();
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/tickets'), { timeout: 5_000 });
    expect(queued()).toContainEqual(['setUser', null]);
    expect(queued()?.at(-1)).toEqual(['close']);
  });
});
