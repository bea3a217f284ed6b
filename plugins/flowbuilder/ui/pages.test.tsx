import { registerPermissions } from '@balcao/plugin-sdk/ui';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PhraseListsPage } from './pages/PhraseListsPage';
import { QueueIntegrationsPage } from './pages/QueueIntegrationsPage';
import { renderPage, serveApi, signIn } from './testing/render';
import type { FlowCampaign, QueueIntegration } from './types';

const answer =
  (method: string, path: string, body: unknown, status = 200) =>
  (call: { method: string; path: string }) =>
    call.method === method && call.path === path ? { status, body } : undefined;

const integration = (id: number, name: string, type: QueueIntegration['type']): QueueIntegration => ({
  id,
  type,
  name,
  projectName: name,
  jsonContent: '',
  hasJsonContent: type === 'dialogflow',
  language: type === 'dialogflow' ? 'pt-BR' : '',
  urlN8N: type === 'dialogflow' ? '' : 'https://bot.example',
  typebotDelayMessage: 1000,
  typebotExpires: 1,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotRestartMessage: '',
  typebotSlug: type === 'typebot' ? 'triagem' : '',
  typebotUnknownMessage: '',
  flowId: type === 'flowbuilder' ? 2 : null,
});

beforeAll(() => registerPermissions({ 'integrations:manage': ['admin'] }));

describe('QueueIntegrationsPage', () => {
  beforeEach(() => signIn());

  it('lists integrations with their id and name, and opens the dialog with the type’s fields', async () => {
    serveApi(
      answer('GET', '/queueIntegration', {
        queueIntegrations: [integration(3, 'Triagem Typebot', 'typebot'), integration(4, 'DF Vendas', 'dialogflow')],
        hasMore: false,
      }),
    );
    renderPage(<QueueIntegrationsPage />);
    expect(await screen.findByText('Triagem Typebot')).toBeTruthy();
    expect(screen.getByText('DF Vendas')).toBeTruthy();
    fireEvent.click(screen.getAllByLabelText('Editar')[1] as HTMLElement);
    expect(await screen.findByText('Editar integração')).toBeTruthy();
    // a stored service account is never shown; the dialog says so
    expect(screen.getByText('As credenciais guardadas não são mostradas. Deixe em branco para mantê-las.')).toBeTruthy();
    expect(screen.getByText('Testar sessão')).toBeTruthy();
  });

  it('has a flowbuilder integration name one of the company’s flows, and saves the choice', async () => {
    const calls = serveApi(
      answer('GET', '/queueIntegration', { queueIntegrations: [integration(5, 'Fluxo da fila', 'flowbuilder')], hasMore: false }),
      answer('GET', '/flowbuilder', {
        flows: [
          { id: 2, name: 'Boas-vindas', active: true },
          { id: 7, name: 'Pós-venda', active: true },
        ],
        hasMore: false,
      }),
      answer('PUT', '/queueIntegration/5', integration(5, 'Fluxo da fila', 'flowbuilder')),
    );
    renderPage(<QueueIntegrationsPage />);
    expect(await screen.findByText('Fluxo da fila')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Editar'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Fluxo')).toBeTruthy();
    // the stored flow shows by its name once the company's flows are in
    expect(await within(dialog).findByText('Boas-vindas')).toBeTruthy();
    expect(within(dialog).getByText('O ticket entregue a esta integração percorre este fluxo.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({ type: 'flowbuilder', flowId: 2 });
  });

  it('shows an empty state', async () => {
    serveApi(answer('GET', '/queueIntegration', { queueIntegrations: [], hasMore: false }));
    renderPage(<QueueIntegrationsPage />);
    expect(await screen.findByText('Nenhuma integração criada ainda.')).toBeTruthy();
  });

  it('shows the no-access view to a user of profile user', async () => {
    signIn({ profile: 'user' });
    serveApi(answer('GET', '/queueIntegration', { queueIntegrations: [], hasMore: false }));
    renderPage(<QueueIntegrationsPage />);
    expect(await screen.findByText('Sem acesso')).toBeTruthy();
  });
});

describe('PhraseListsPage', () => {
  beforeEach(() => signIn());

  it('lists phrase campaigns as Ativo or Desativado and opens the documented dialog', async () => {
    const campaigns: FlowCampaign[] = [
      { id: 1, name: 'Promoção', flowId: 2, whatsappId: 3, phrase: 'promo', status: true },
      { id: 2, name: 'Antiga', flowId: 2, whatsappId: 3, phrase: 'velha', status: false },
    ];
    serveApi(
      answer('GET', '/flowcampaign', { flow: campaigns }),
      answer('GET', '/flowbuilder', { flows: [{ id: 2, name: 'Boas-vindas', active: true }], hasMore: false }),
      answer('GET', '/whatsapp', [{ id: 3, name: 'Site Acme', status: 'CONNECTED' }]),
    );
    renderPage(<PhraseListsPage />);
    expect(await screen.findByText('Promoção')).toBeTruthy();
    expect(screen.getByText('Ativo')).toBeTruthy();
    expect(screen.getByText('Desativado')).toBeTruthy();
    fireEvent.click(screen.getByText('Nova campanha'));
    await waitFor(() => expect(screen.getByText('Nova campanha com fluxo por frase')).toBeTruthy());
    expect(screen.getByText('Nome do disparo por frase')).toBeTruthy();
    expect(screen.getByText('Qual frase dispara o fluxo?')).toBeTruthy();
    expect(screen.getByText('Criar campanha')).toBeTruthy();
  });
});
