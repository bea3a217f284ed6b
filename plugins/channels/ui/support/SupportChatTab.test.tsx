import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage, serveApi, signIn } from '../testing/render';
import type { SupportChatSettings } from './api';
import SupportChatTab from './SupportChatTab';

const settings = (whatsappId: number | null, origins: string[] = []): SupportChatSettings => ({
  whatsappId,
  connections: [
    { id: 5, name: 'Suporte Balcão', allowedOrigins: origins },
    { id: 6, name: 'Site institucional', allowedOrigins: [] },
  ],
});

async function openSelect() {
  const select = await screen.findByRole('combobox', { name: 'Conexão' });
  fireEvent.mouseDown(select);
}

describe('Settings → Chat de suporte (super user)', () => {
  it('chooses the connection the login page opens, and none', async () => {
    let current = settings(null);
    const calls = serveApi((call) => {
      if (call.method === 'GET' && call.path === '/support-chat/settings') return { status: 200, body: current };
      if (call.method === 'PUT' && call.path === '/support-chat') {
        current = settings((call.body as { whatsappId: number | null }).whatsappId);
        return { status: 200, body: current };
      }
      return undefined;
    });
    await signIn({ super: true });
    renderPage(<SupportChatTab />, '/settings');
    await openSelect();
    fireEvent.click(await screen.findByTitle('Suporte Balcão'));
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([{ whatsappId: 5 }]),
    );
    expect(await screen.findByText('Chat de suporte atualizado')).toBeTruthy();

    await openSelect();
    fireEvent.click(await screen.findByTitle('Nenhuma (sem botão)'));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT').at(-1)?.body).toEqual({ whatsappId: null }));
  });

  it("warns when the chosen connection's allowed origins leave out this address", async () => {
    serveApi((call) =>
      call.method === 'GET' && call.path === '/support-chat/settings'
        ? { status: 200, body: settings(5, ['https://elsewhere.example']) }
        : undefined,
    );
    await signIn({ super: true });
    renderPage(<SupportChatTab />, '/settings');
    expect(await screen.findByText(/não incluem/)).toBeTruthy();
  });

  it('points to Connections when the platform has no website chat', async () => {
    serveApi((call) =>
      call.method === 'GET' && call.path === '/support-chat/settings'
        ? { status: 200, body: { whatsappId: null, connections: [] } }
        : undefined,
    );
    await signIn({ super: true });
    renderPage(<SupportChatTab />, '/settings');
    expect(await screen.findByText('Criar em Conexões')).toBeTruthy();
    expect(screen.queryByRole('combobox')).toBeNull();
  });
});
