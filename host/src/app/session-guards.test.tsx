import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

const SESSION_USER = {
  id: 4,
  name: 'Ana Admin',
  companyId: 2,
  profile: 'admin',
  super: false,
  company: { id: 2, name: 'Acme', dueDate: '2999-12-31' },
};

/**
 * A fresh page (the store reads the stored token when it loads), with the shell's private route guard,
 * the login and the expired-subscription page.
 */
async function openPage(storedToken: string | null) {
  if (storedToken) globalThis.localStorage.setItem('token', storedToken);
  vi.resetModules();
  const { renderShell, serveApi } = await import('../../testing/render-shell');
  const { registerShellTranslations } = await import('../i18n');
  const { RequireSession, PublicOnly, ExpiredOnly } = await import('./session-guards');
  const { default: ExpiredPayScreen } = await import('../frame/ExpiredPayScreen');
  const { LoginPage } = await import('../pages/login/LoginPage');
  const { default: SubscriptionExpiredPage } = await import('../pages/SubscriptionExpiredPage');
  const sdk = await import('@balcao/plugin-sdk/ui');
  const { Route, Routes } = await import('react-router');
  await registerShellTranslations();
  const render = (route: string) =>
    renderShell(
      <Routes>
        <Route element={<PublicOnly />}>
          <Route path="/login" element={<LoginPage />} />
        </Route>
        <Route
          path="/financeiro-aberto"
          element={<ExpiredOnly payScreen={<ExpiredPayScreen />} notice={<SubscriptionExpiredPage />} />}
        />
        <Route
          path="*"
          element={
            <RequireSession>
              <p>private page</p>
            </RequireSession>
          }
        />
      </Routes>,
      { route },
    );
  return { render, serveApi, sdk };
}

const expired = { status: 402, body: { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: '2024-03-09' } };

describe('the private-route guard (docs/product/tickets-and-inbox.md#screens-and-routes and #states-and-transitions)', () => {
  it('sends a visitor without a session to /login', async () => {
    const page = await openPage(null);
    page.serveApi();
    page.render('/tickets');
    expect(await screen.findByRole('heading', { name: 'Entrar' })).toBeTruthy();
  });

  it('sends a stored session whose subscription has expired to /financeiro-aberto, with the due date', async () => {
    const page = await openPage('token-of-yesterday');
    page.serveApi(({ path }) => (path === '/auth/me' ? expired : undefined));
    page.render('/tickets');
    expect(await screen.findByText('Assinatura vencida')).toBeTruthy();
    expect(screen.getByText('A assinatura desta empresa venceu em 09/03/2024.', { exact: false })).toBeTruthy();
    expect(globalThis.localStorage.getItem('token')).toBeNull();
  });

  it('does the same when the subscription expires during the session', async () => {
    const page = await openPage('token-1');
    page.serveApi(({ path }) => {
      if (path === '/auth/me') return { status: 200, body: SESSION_USER };
      if (path === '/companies/listPlan/2') return expired;
      return undefined;
    });
    page.render('/tickets');
    expect(await screen.findByText('private page')).toBeTruthy();
    await page.sdk.store.dispatch(page.sdk.api.endpoints.getCompanyPlan.initiate(2));
    // the session stays, limited to the pay screen (no plugin serves it here: the expiry notice and Sair)
    expect(await screen.findByText('Assinatura vencida')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sair' })).toBeTruthy();
    expect(page.sdk.store.getState().session).toMatchObject({ status: 'authenticated', subscriptionDueDate: '2024-03-09' });
    expect(globalThis.localStorage.getItem('token')).toBe('token-1');
  });

  it('sends a session of a company past its due date to its pay screen, and unlocks it once paid', async () => {
    const page = await openPage('token-2');
    const lapsed = { ...SESSION_USER, expired: true, company: { ...SESSION_USER.company, dueDate: '2024-03-09' } };
    page.serveApi(({ path }) => {
      if (path === '/auth/me') return { status: 200, body: lapsed };
      if (path === '/plugins') return { status: 200, body: { plugins: [] } };
      return undefined;
    });
    page.render('/tickets?invoiceId=5');
    expect(await screen.findByText('Assinatura vencida')).toBeTruthy();
    expect(screen.getByText('A assinatura desta empresa venceu em 09/03/2024.', { exact: false })).toBeTruthy();
    expect(screen.queryByText('private page')).toBeNull();
    // the payment moves the due date (billing's Pix view does this on company-{id}-payment CONCLUIDA)
    page.sdk.store.dispatch(
      page.sdk.sessionUserChanged({
        id: lapsed.id,
        changes: { company: { ...lapsed.company, dueDate: '2999-12-31' }, expired: false } as never,
      }),
    );
    expect(await screen.findByText('private page')).toBeTruthy();
  });
});
