import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderShell, serveApi } from '../../../testing/render-shell';
import { registerShellTranslations } from '../../i18n';
import ForgetPasswordPage from './ForgetPasswordPage';

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('the password reset page (docs/product/administration.md#screens-and-routes, #states-and-transitions, #validation)', () => {
  beforeAll(async () => {
    await registerShellTranslations();
  });

  it('asks the e-mail, then the code and a strong new password twice, and returns to /login', async () => {
    const calls = serveApi(({ method, path }) => {
      if (method !== 'POST') return undefined;
      if (path === '/forgetpassword/nobody%40acme.test') return { status: 404, body: { error: 'ERR_NO_USER_FOUND' } };
      if (path === '/forgetpassword/ana%40acme.test') return { status: 200, body: { status: 'sent' } };
      if (path === '/resetpasswords/ana%40acme.test/123456/Trocada123') return { status: 200, body: { status: 'reset' } };
      if (path.startsWith('/resetpasswords/')) return { status: 400, body: { error: 'ERR_INVALID_RESET_CODE' } };
      return undefined;
    });
    renderShell(
      <Routes>
        <Route path="/forgetpsw" element={<ForgetPasswordPage />} />
        <Route path="*" element={<Where />} />
      </Routes>,
      { route: '/forgetpsw' },
    );
    expect(screen.queryByLabelText('Código de verificação')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar código' }));
    expect(await screen.findByText('Obrigatório')).toBeTruthy();
    type('E-mail', 'nobody@acme.test');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar código' }));
    expect(await screen.findByText('Email não encontrado', undefined, { timeout: 8_000 })).toBeTruthy();

    type('E-mail', 'Ana@Acme.test');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar código' }));
    expect(await screen.findByLabelText('Código de verificação')).toBeTruthy();

    type('Código de verificação', '654321');
    type('Nova senha', 'weak');
    type('Confirme a nova senha', 'other');
    fireEvent.click(screen.getByRole('button', { name: 'Redefinir senha' }));
    expect(
      await screen.findByText(
        'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
      ),
    ).toBeTruthy();
    expect(await screen.findByText('As senhas não correspondem')).toBeTruthy();

    type('Nova senha', 'Trocada123');
    type('Confirme a nova senha', 'Trocada123');
    fireEvent.click(screen.getByRole('button', { name: 'Redefinir senha' }));
    expect(await screen.findByText('Código de verificação inválido ou expirado.', undefined, { timeout: 8_000 })).toBeTruthy();

    type('Código de verificação', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Redefinir senha' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/login'), { timeout: 5_000 });
    expect(calls.filter((call) => call.path.startsWith('/resetpasswords/')).map((call) => call.path)).toEqual([
      '/resetpasswords/ana%40acme.test/654321/Trocada123',
      '/resetpasswords/ana%40acme.test/123456/Trocada123',
    ]);
  });
});
