import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyConnectionEvent } from './api';
import { formatPairingCode, importState, needsAttention, pairingDigits } from './format';
import { AllConnectionsPage, countByCompany } from './pages/AllConnectionsPage';
import { ConnectionsPage } from './pages/ConnectionsPage';
import { answer, connection, planWith, renderPage, serveApi, signIn } from './testing/render';
import { serveSocket, type TestSocketServer } from './testing/socket';
import { useConnectionsBadge } from './useConnectionsBadge';

/** Signs in an admin of company 1 whose company settings (carried by the session) are `pairs`. */
const signInWithSettings = (pairs: Record<string, string>) =>
  signIn({
    company: {
      id: 1,
      name: 'Acme',
      dueDate: '2999-12-31',
      companieSettings: Object.entries(pairs).map(([key, value]) => ({ key, value })),
    },
  } as never);

const writes = (calls: Array<{ method: string; path: string }>) =>
  calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.path}`);

describe('ConnectionsPage', () => {
  beforeEach(() => signIn());
  // the connection editor is the heaviest antd form of the product: 6–8 s here alone, more than the ui
  // tier's 15 s beside the Node tiers in CI
  const EDITOR_TEST_MS = 40_000;

  it('lists the connections with the session buttons of each status (docs/product/administration.md#screens-and-routes)', async () => {
    const calls = serveApi(
      answer('GET', '/whatsapp/', [
        connection(1, { name: 'Leitura', status: 'qrcode', qrcode: 'qr-data-1' }),
        connection(2, { name: 'Caiu', status: 'DISCONNECTED', isDefault: true }),
        connection(3, { name: 'Ok', status: 'CONNECTED' }),
        connection(4, { name: 'Pareando', status: 'PAIRING' }),
        connection(5, { name: 'Esgotou', status: 'TIMEOUT' }),
        connection(6, { name: 'Abrindo', status: 'OPENING', channel: 'webchat', number: '' }),
      ]),
      answer('GET', '/companies/listPlan/1', planWith(1, ['useWhatsapp'])),
      answer('POST', '/whatsappsession/2', undefined, 204),
      answer('PUT', '/whatsappsession/2', undefined, 204),
      answer('DELETE', '/whatsappsession/3', undefined, 204),
    );
    renderPage(<ConnectionsPage />);
    const qrRow = await screen.findByTestId('connection-1');
    for (const header of ['Canal', 'Nome', 'Número', 'Status', 'Sessão', 'Última atualização', 'Padrão', 'Ações']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    }
    expect(calls.find((call) => call.path === '/whatsapp/')?.query.get('session')).toBe('0');
    expect(within(qrRow).getByText('Aguardando leitura do QR Code')).toBeTruthy();
    expect(within(qrRow).getByRole('button', { name: 'QR Code' })).toBeTruthy();
    expect(within(qrRow).getByRole('img', { name: 'WhatsApp' })).toBeTruthy();

    const down = screen.getByTestId('connection-2');
    expect(within(down).getByRole('img', { name: 'Padrão' })).toBeTruthy();
    fireEvent.click(within(down).getByRole('button', { name: 'Tentar novamente' }));
    fireEvent.click(within(down).getByRole('button', { name: 'Novo QR Code' }));
    await waitFor(() => expect(writes(calls)).toEqual(['POST /whatsappsession/2', 'PUT /whatsappsession/2']));
    // a new QR code is there to be read: its dialog opens (and waits for it)
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('tab', { name: 'QR Code' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /close|fechar/i }));

    for (const id of [3, 4, 5])
      expect(within(screen.getByTestId(`connection-${id}`)).getByRole('button', { name: 'Desconectar' })).toBeTruthy();
    fireEvent.click(within(screen.getByTestId('connection-3')).getByRole('button', { name: 'Desconectar' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    await waitFor(() => expect(writes(calls)).toContain('DELETE /whatsappsession/3'));

    const opening = screen.getByTestId('connection-6');
    const connecting = within(opening).getByRole('button', { name: /Conectando/ }) as HTMLButtonElement;
    expect(connecting.disabled).toBe(true);
    expect(within(opening).getByRole('img', { name: 'Webchat' })).toBeTruthy();
    expect(within(opening).getByText('05/03/2024', { exact: false })).toBeTruthy();
  });

  it('shows the QR code of a connection waiting for it', async () => {
    serveApi(
      answer('GET', '/whatsapp/', [connection(1, { status: 'qrcode', qrcode: '2@abcdefghijklmnop' })]),
      answer('GET', '/companies/listPlan/1', planWith(1, [])),
    );
    renderPage(<ConnectionsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'QR Code' }));
    expect(await screen.findByText('Leia o QR Code para iniciar a sessão')).toBeTruthy();
    expect(screen.getByTestId('connection-qrcode')).toBeTruthy();
  });

  it('offers WhatsApp, Facebook and Instagram by the plan flags, and Webchat always', async () => {
    serveApi(answer('GET', '/whatsapp/', []), answer('GET', '/companies/listPlan/1', planWith(1, ['useInstagram'])));
    renderPage(<ConnectionsPage />);
    expect(await screen.findByText('Nenhuma conexão ainda. Adicione uma pelo botão Adicionar.')).toBeTruthy();
    const add = screen.getByRole('button', { name: /Adicionar/ });
    await waitFor(() => expect((add as HTMLButtonElement).className).not.toContain('loading'));
    fireEvent.click(add);
    const item = async (name: string) => (await screen.findByRole('menuitem', { name })).getAttribute('aria-disabled');
    expect(await item('WhatsApp WhatsApp')).toBe('true');
    expect(await item('WhatsApp API WhatsApp API')).toBe('true');
    expect(await item('Facebook Facebook')).toBe('true');
    expect(await item('Instagram Instagram')).not.toBe('true');
    expect(await item('Webchat Webchat')).not.toBe('true');
  });

  it(
    'saves a WhatsApp Cloud API connection with its ids and token (the token field is write-only)',
    async () => {
      const calls = serveApi(
        answer('GET', '/whatsapp/', []),
        answer('GET', '/companies/listPlan/1', planWith(1, ['useWhatsapp'])),
        answer('GET', '/queue', []),
        answer('POST', '/whatsapp', connection(11, { channel: 'whatsappapi' }), 201),
      );
      renderPage(<ConnectionsPage />);
      await screen.findByText('Nenhuma conexão ainda. Adicione uma pelo botão Adicionar.');
      const add = screen.getByRole('button', { name: /Adicionar/ });
      await waitFor(() => expect((add as HTMLButtonElement).className).not.toContain('loading'));
      fireEvent.click(add);
      fireEvent.click(await screen.findByRole('menuitem', { name: 'WhatsApp API WhatsApp API' }));
      fireEvent.change(await screen.findByLabelText('Nome'), { target: { value: 'Cloud' } });
      fireEvent.change(screen.getByLabelText('ID do número de telefone'), { target: { value: '106540352242922' } });
      fireEvent.change(screen.getByLabelText('ID da conta do WhatsApp Business'), { target: { value: '102290129340398' } });
      fireEvent.change(screen.getByLabelText('Token de acesso (usuário do sistema)'), { target: { value: 'EAAG-secret' } });
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
      expect(await screen.findByText('Conexão salva com sucesso!', {}, { timeout: 5_000 })).toBeTruthy();
      const body = calls.find((call) => call.method === 'POST' && call.path === '/whatsapp')?.body as Record<string, unknown>;
      expect(body).toMatchObject({
        name: 'Cloud',
        channel: 'whatsappapi',
        channelConfig: { phoneNumberId: '106540352242922', businessAccountId: '102290129340398', token: 'EAAG-secret' },
      });
    },
    EDITOR_TEST_MS,
  );

  it(
    'checks the rules of docs/product/administration.md#validation before saving, then saves a webchat connection with its widget',
    async () => {
      await signInWithSettings({ userRating: 'enabled', scheduleType: 'connection' });
      const calls = serveApi(
        answer('GET', '/whatsapp/', []),
        answer('GET', '/companies/listPlan/1', planWith(1, [])),
        answer('GET', '/queue', [{ id: 7, name: 'Vendas', color: '#00AA00' }]),
        answer('POST', '/whatsapp', connection(9, { channel: 'webchat' }), 201),
      );
      renderPage(<ConnectionsPage />);
      await screen.findByText('Nenhuma conexão ainda. Adicione uma pelo botão Adicionar.');
      fireEvent.click(screen.getByRole('button', { name: /Adicionar/ }));
      fireEvent.click(await screen.findByRole('menuitem', { name: 'Webchat Webchat' }));
      expect(await screen.findByText('Adicionar conexão Webchat')).toBeTruthy();
      // the schedules tab shows because scheduleType is connection; the widget tab because it is webchat
      await screen.findByRole('tab', { name: 'Horários de atendimento' });
      expect(screen.getByRole('tab', { name: 'Widget' })).toBeTruthy();
      expect(screen.queryByRole('tab', { name: /Integra/ })).toBeNull();

      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
      expect(await screen.findByText('Corrija os campos destacados antes de salvar.')).toBeTruthy();
      expect(screen.getByText('Obrigatório')).toBeTruthy();
      expect(screen.getByText('Com as avaliações ativas, a mensagem de avaliação é obrigatória.')).toBeTruthy();
      expect(
        screen.getByText('Com as avaliações ativas, informe o tempo para encerrar a avaliação (maior que zero).'),
      ).toBeTruthy();

      fireEvent.change(screen.getByLabelText('Nome'), { target: { value: 'Site' } });
      fireEvent.change(screen.getByLabelText('Mensagem de avaliação'), { target: { value: 'De 0 a 10?' } });
      fireEvent.change(screen.getByLabelText('Encerrar a avaliação após'), { target: { value: '30' } });
      fireEvent.change(screen.getByLabelText('Redirecionar para a fila após'), { target: { value: '5' } });
      fireEvent.change(screen.getByLabelText('Mensagem de férias coletivas'), { target: { value: 'Voltamos logo' } });
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
      expect(await screen.findByText('Informe o tempo e a fila de redirecionamento juntos.')).toBeTruthy();
      expect(screen.getAllByText('Informe as datas das férias coletivas.').length).toBe(2);
      expect(calls.some((call) => call.method === 'POST')).toBe(false);

      fireEvent.change(screen.getByLabelText('Redirecionar para a fila após'), { target: { value: '0' } });
      fireEvent.blur(screen.getByLabelText('Redirecionar para a fila após'));
      fireEvent.change(screen.getByLabelText('Início das férias'), { target: { value: '2024-12-20' } });
      fireEvent.change(screen.getByLabelText('Fim das férias'), { target: { value: '2025-01-05' } });
      fireEvent.click(screen.getByRole('tab', { name: 'Widget' }));
      expect(await screen.findAllByText('Disponível depois de salvar a conexão.', {}, { timeout: 3_000 })).toHaveLength(2);
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
      expect(await screen.findByText('Conexão salva com sucesso!', {}, { timeout: 5_000 })).toBeTruthy();
      const body = calls.find((call) => call.method === 'POST' && call.path === '/whatsapp')?.body as Record<string, unknown>;
      expect(body).toMatchObject({
        name: 'Site',
        channel: 'webchat',
        ratingMessage: 'De 0 a 10?',
        expiresTicketNPS: 30,
        timeSendQueue: 0,
        sendIdQueue: null,
        collectiveVacationMessage: 'Voltamos logo',
        collectiveVacationStart: '2024-12-20',
        collectiveVacationEnd: '2025-01-05',
        maxUseBotQueues: 3,
        maxUseBotQueuesNPS: 3,
        queueIds: [],
        channelConfig: {
          allowedOrigins: [],
          theme: 'auto',
          position: 'right',
          newConversationsPerIpPerHour: 20,
          messagesPerMinute: 30,
        },
      });
      expect(body.schedules).toHaveLength(7);
      expect(body.channelConfig).not.toHaveProperty('widgetKey');
      expect(body.channelConfig).not.toHaveProperty('identitySecret');
    },
    EDITOR_TEST_MS,
  );

  it(
    'edits a webchat connection: token, embed snippet, identity secret regenerated through PUT',
    async () => {
      await signInWithSettings({ userRating: 'disabled', scheduleType: 'disabled' });
      const webchat = connection(4, {
        name: 'Site',
        channel: 'webchat',
        token: 'T0k3nT0k3nT0k3nT0k3nT0k3nT0k3n',
        channelConfig: {
          widgetKey: 'wck_abcdefghijklmnopqrstuvwxyz012345',
          identitySecret: 'old-secret-old-secret-old-secret-0000',
          allowedOrigins: ['https://loja.example'],
          prechat: { name: 'required', email: 'optional', phone: 'off' },
        },
      });
      const calls = serveApi(
        answer('GET', '/whatsapp/', [webchat]),
        answer('GET', '/whatsapp/4', webchat),
        answer('GET', '/companies/listPlan/1', planWith(1, [])),
        answer('GET', '/queue', []),
        answer('PUT', '/whatsapp/4', {
          ...webchat,
          channelConfig: { ...webchat.channelConfig, identitySecret: 'new-secret-new-secret-new-secret-1111' },
        }),
      );
      renderPage(<ConnectionsPage />);
      fireEvent.click(within(await screen.findByTestId('connection-4')).getByRole('button', { name: 'Editar' }));
      expect(await screen.findByTestId('connection-token')).toBeTruthy();
      expect(screen.getByText('T0k3nT0k3nT0k3nT0k3nT0k3nT0k3n')).toBeTruthy();
      expect(screen.queryByRole('tab', { name: 'Horários de atendimento' })).toBeNull();
      fireEvent.click(screen.getByRole('tab', { name: 'Widget' }));
      const snippet = await screen.findByTestId('widget-snippet');
      expect(snippet.textContent).toContain(
        '<script src="http://balcao.test/plugins/channels/widget/channels-widget.js" data-key="wck_abcdefghijklmnopqrstuvwxyz012345" async></script>',
      );
      expect(screen.getByText('https://loja.example')).toBeTruthy();
      expect(screen.getByText('BalcaoChat.setUser(token)')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Gerar novo — Segredo de identificação' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Sim' }));
      expect(await screen.findByText('new-secret-new-secret-new-secret-1111', {}, { timeout: 5_000 })).toBeTruthy();
      const put = calls.find((call) => call.method === 'PUT' && call.path === '/whatsapp/4')?.body as {
        channelConfig: Record<string, unknown>;
      };
      expect(put.channelConfig).toMatchObject({ regenerate: ['identitySecret'], allowedOrigins: ['https://loja.example'] });
      expect(put.channelConfig).not.toHaveProperty('identitySecret');
    },
    EDITOR_TEST_MS,
  );

  it(
    'regenerates the token without losing what is being typed',
    async () => {
      let current = connection(5, { name: 'Vendas', token: 'OLDOLDOLDOLDOLDOLDOLDOLDOLDOLD' });
      const calls = serveApi(
        answer('GET', '/whatsapp/', [current]),
        answer('GET', '/companies/listPlan/1', planWith(1, [])),
        answer('GET', '/queue', []),
        (call) => (call.method === 'GET' && call.path === '/whatsapp/5' ? { status: 200, body: current } : undefined),
        (call) => {
          if (call.method !== 'POST' || call.path !== '/whatsapp/5/token') return undefined;
          current = { ...current, token: 'NEWNEWNEWNEWNEWNEWNEWNEWNEWNEW' };
          return { status: 200, body: { token: current.token } };
        },
      );
      renderPage(<ConnectionsPage />);
      fireEvent.click(within(await screen.findByTestId('connection-5')).getByRole('button', { name: 'Editar' }));
      const name = (await screen.findByLabelText('Nome')) as HTMLInputElement;
      fireEvent.change(name, { target: { value: 'Vendas Sul' } });
      fireEvent.click(screen.getByRole('button', { name: /Gerar novo/ }));
      fireEvent.click(await screen.findByRole('button', { name: 'Sim' }));
      expect(await screen.findByText('NEWNEWNEWNEWNEWNEWNEWNEWNEWNEW', {}, { timeout: 5_000 })).toBeTruthy();
      expect((screen.getByLabelText('Nome') as HTMLInputElement).value).toBe('Vendas Sul');
      expect(writes(calls)).toEqual(['POST /whatsapp/5/token']);
    },
    EDITOR_TEST_MS,
  );

  it('asks before deleting and says so after', async () => {
    const calls = serveApi(
      answer('GET', '/whatsapp/', [connection(3, { name: 'Antiga' })]),
      answer('GET', '/companies/listPlan/1', planWith(1, [])),
      answer('DELETE', '/whatsapp/3', undefined, 204),
    );
    renderPage(<ConnectionsPage />);
    fireEvent.click(within(await screen.findByTestId('connection-3')).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Excluir Antiga?')).toBeTruthy();
    expect(writes(calls)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Sim' }));
    expect(await screen.findByText('Conexão excluída com sucesso!', {}, { timeout: 5_000 })).toBeTruthy();
    expect(writes(calls)).toEqual(['DELETE /whatsapp/3']);
  });

  it('restarts every connection and says to wait', async () => {
    const calls = serveApi(
      answer('GET', '/whatsapp/', [connection(1)]),
      answer('GET', '/companies/listPlan/1', planWith(1, [])),
      answer('POST', '/whatsapp-restart/', undefined, 204),
    );
    renderPage(<ConnectionsPage />);
    await screen.findByTestId('connection-1');
    fireEvent.click(screen.getByRole('button', { name: /Reiniciar conexões/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    expect(await screen.findByText('Aguarde... Suas conexões serão reiniciadas!', {}, { timeout: 5_000 })).toBeTruthy();
    expect(writes(calls)).toEqual(['POST /whatsapp-restart/']);
  });

  it("translates the server's codes in a toast", async () => {
    serveApi(
      answer('GET', '/whatsapp/', [connection(2, { status: 'DISCONNECTED' })]),
      answer('GET', '/companies/listPlan/1', planWith(1, [])),
      answer('POST', '/whatsappsession/2', { error: 'ERR_CONNECTION_PLAN_LIMIT' }, 400),
    );
    renderPage(<ConnectionsPage />);
    fireEvent.click(within(await screen.findByTestId('connection-2')).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('O plano da empresa não permite mais conexões.', {}, { timeout: 5_000 })).toBeTruthy();
  });

  it('shows the imported-tickets button and the preparing state only when statusImportMessages says so', async () => {
    serveApi(
      answer('GET', '/whatsapp/', [
        connection(1, { statusImportMessages: 'renderButtonCloseTickets' }),
        connection(2, { statusImportMessages: String(Date.now() - 5_000) }),
        connection(3, { statusImportMessages: String(Date.now() - 60_000) }),
      ]),
      answer('GET', '/companies/listPlan/1', planWith(1, [])),
    );
    renderPage(<ConnectionsPage />);
    expect(
      within(await screen.findByTestId('connection-1')).getByRole('button', { name: 'Fechar tickets importados' }),
    ).toBeTruthy();
    const preparing = within(screen.getByTestId('connection-2')).getByRole('button', { name: /Preparando importação/ });
    expect((preparing as HTMLButtonElement).disabled).toBe(true);
    expect(within(screen.getByTestId('connection-3')).queryByRole('button', { name: /Preparando/ })).toBeNull();
    expect(importState(String(Date.now() - 36_000))).toBeNull();
  });

  it('offers "Ver código" on a PAIRING row with a code, opening the dialog on the phone-number way', async () => {
    serveApi(
      answer('GET', '/whatsapp/', [
        connection(1, { status: 'PAIRING', pairingCode: 'ABCDEFGH' }),
        connection(2, { status: 'PAIRING', pairingCode: null }),
      ]),
      answer('GET', '/companies/listPlan/1', planWith(1, [])),
    );
    renderPage(<ConnectionsPage />);
    const pairing = await screen.findByTestId('connection-1');
    // disconnect stays for PAIRING (docs/product/administration.md#screens-and-routes)
    expect(within(pairing).getByRole('button', { name: 'Desconectar' })).toBeTruthy();
    expect(within(screen.getByTestId('connection-2')).queryByRole('button', { name: 'Ver código' })).toBeNull();
    fireEvent.click(within(pairing).getByRole('button', { name: 'Ver código' }));
    expect((await screen.findByTestId('pairing-code')).textContent).toContain('ABCD-EFGH');
    expect(screen.getByRole('tab', { name: 'Número de telefone', selected: true })).toBeTruthy();
    expect(formatPairingCode('ABCDEFGH')).toBe('ABCD-EFGH');
    expect([pairingDigits('+55 (11) 99999-0000'), pairingDigits('1234567'), pairingDigits('1234567890123456')]).toEqual([
      '5511999990000',
      null,
      null,
    ]);
  });

  it('says why a session stopped by itself: a short reason under the tag, the whole of it on the tag', async () => {
    serveApi(
      answer('GET', '/whatsapp/', [
        connection(1, { status: 'DISCONNECTED', sessionError: 'ERR_WAPP_LOGGED_OUT' }),
        connection(2, { status: 'TIMEOUT', sessionError: 'ERR_WAPP_QR_EXPIRED' }),
        connection(3, { status: 'OPENING', sessionError: 'ERR_WAPP_CONFLICT' }),
        connection(4, { status: 'DISCONNECTED', sessionError: 'ERR_SOMETHING_NEW' }),
        connection(5, { status: 'DISCONNECTED' }),
      ]),
      answer('GET', '/companies/listPlan/1', planWith(1, [])),
    );
    renderPage(<ConnectionsPage />);
    const loggedOut = await screen.findByTestId('connection-1');
    expect(within(loggedOut).getByText('Desconectado pelo celular: leia um novo QR Code')).toBeTruthy();
    expect(within(screen.getByTestId('connection-2')).getByText('Ninguém leu o QR Code a tempo')).toBeTruthy();
    expect(
      within(screen.getByTestId('connection-3')).getByText('Outra sessão do WhatsApp Web está substituindo esta'),
    ).toBeTruthy();
    // a code this screen doesn't know yet still shows, as the code itself
    expect(within(screen.getByTestId('connection-4')).getByText('ERR_SOMETHING_NEW')).toBeTruthy();
    expect(within(screen.getByTestId('connection-5')).queryByTestId('session-error')).toBeNull();
    fireEvent.mouseEnter(within(loggedOut).getByText('Desconectado'));
    expect(
      await screen.findByText(
        'O celular desconectou este aparelho (ou o WhatsApp encerrou a sessão). Leia um novo QR Code para conectar de novo.',
      ),
    ).toBeTruthy();
  });

  it('hides the session column and edit/delete without the permissions, and shows cards on narrow screens', async () => {
    const original = globalThis.matchMedia;
    globalThis.matchMedia = ((query: string) => ({
      ...original(query),
      matches: query.includes('max-width'),
    })) as typeof matchMedia;
    try {
      serveApi(
        answer('GET', '/whatsapp/', [
          connection(1, { name: 'Celular', status: 'DISCONNECTED', sessionError: 'ERR_WAPP_LOGGED_OUT' }),
        ]),
        answer('GET', '/companies/listPlan/1', planWith(1, [])),
      );
      renderPage(<ConnectionsPage />);
      const card = await screen.findByTestId('connection-1');
      expect(card.className).toContain('ant-card');
      expect(within(card).getByText('Celular')).toBeTruthy();
      expect(within(card).getByText('Desconectado pelo celular: leia um novo QR Code')).toBeTruthy();
      expect(screen.queryByRole('table')).toBeNull();
    } finally {
      globalThis.matchMedia = original;
    }
  });

  it('shows the no-access screen to a profile user without allowConnections, and calls nothing', async () => {
    await signIn({ profile: 'user', allowConnections: 'disabled' });
    const calls = serveApi();
    renderPage(<ConnectionsPage />);
    expect(await screen.findByText('Oops! Acesso Negado!')).toBeTruthy();
    expect(calls.some((call) => call.path.startsWith('/whatsapp'))).toBe(false);
  });

  it('treats a profile user with allowConnections as an admin here', async () => {
    await signIn({ profile: 'user', allowConnections: 'enabled' });
    serveApi(answer('GET', '/whatsapp/', [connection(1)]), answer('GET', '/companies/listPlan/1', planWith(1, [])));
    renderPage(<ConnectionsPage />);
    const row = await screen.findByTestId('connection-1');
    expect(within(row).getByRole('button', { name: 'Editar' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Sessão' })).toBeTruthy();
  });
});

describe('Connections live through the sockets', () => {
  let socket: TestSocketServer;
  beforeEach(async () => {
    await signIn();
    socket = await serveSocket(1);
  });
  afterEach(() => socket.close());

  /** Lets the cache entries reach their socket subscriptions (they subscribe once their data is loaded). */
  const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  const listReads = (calls: Array<{ method: string; path: string }>) =>
    calls.filter((call) => call.method === 'GET' && call.path === '/whatsapp/').length;

  it("shows an import's progress on its row, and reads the list again when an import starts or ends", async () => {
    let reads = 0;
    const calls = serveApi(
      (call) => {
        if (call.method !== 'GET' || call.path !== '/whatsapp/') return undefined;
        reads += 1;
        // after the import: its tickets are open, the list offers closing them
        const statusImportMessages = reads > 1 ? 'renderButtonCloseTickets' : String(Date.now() - 60_000);
        return { status: 200, body: [connection(1, { statusImportMessages }), connection(2)] };
      },
      answer('GET', '/companies/listPlan/1', planWith(1, [])),
    );
    renderPage(<ConnectionsPage />);
    await screen.findByTestId('connection-1');
    await settle();

    socket.emit('importMessages-1', { action: 'update', status: { all: 500, this: 0, date: null }, whatsappId: 1 });
    expect(await within(screen.getByTestId('connection-1')).findByText('Importando 0 de 500 mensagens')).toBeTruthy();
    socket.emit('importMessages-1', {
      action: 'update',
      status: { all: 500, this: 120, date: '2026-03-12T15:00:00.000Z' },
      whatsappId: 1,
    });
    const row = screen.getByTestId('connection-1');
    expect(await within(row).findByText('Importando 120 de 500 mensagens — até 12/03/2026')).toBeTruthy();
    expect(within(row).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('24');
    expect(within(screen.getByTestId('connection-2')).queryByTestId('import-progress')).toBeNull();
    expect(listReads(calls)).toBe(1);

    socket.emit('importMessages-1', { action: 'refresh', status: { all: 0, this: 0, date: null }, whatsappId: 1 });
    await waitFor(() => expect(listReads(calls)).toBe(2));
    expect(
      await within(screen.getByTestId('connection-1')).findByRole('button', { name: 'Fechar tickets importados' }),
    ).toBeTruthy();
    expect(screen.queryByTestId('import-progress')).toBeNull();
  });

  it('links by phone number: the code arrives over the session channel and the dialog closes once connected', async () => {
    const calls = serveApi(
      answer('GET', '/whatsapp/', [connection(1, { status: 'qrcode', qrcode: '2@abc', number: '' })]),
      answer('GET', '/companies/listPlan/1', planWith(1, [])),
      answer('POST', '/whatsappsession/1/pairing-code', connection(1, { status: 'OPENING', number: '' })),
    );
    renderPage(<ConnectionsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'QR Code' }));
    await settle();
    fireEvent.click(await screen.findByRole('tab', { name: 'Número de telefone' }));
    fireEvent.change(await screen.findByLabelText('Número do WhatsApp'), { target: { value: '55 11 99999-0000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Gerar código' }));
    expect(await screen.findByText('Gerando o código de pareamento...', {}, { timeout: 5_000 })).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ number: '5511999990000' });
    // the answer went into the list as it is (OPENING), without reading the list again
    expect(within(screen.getByTestId('connection-1')).getByRole('button', { name: /Conectando/ })).toBeTruthy();
    expect(listReads(calls)).toBe(1);

    socket.emit('company-1-whatsappSession', {
      action: 'update',
      session: connection(1, { status: 'PAIRING', pairingCode: 'ABCD1234', number: '' }),
    });
    expect((await screen.findByTestId('pairing-code')).textContent).toContain('ABCD-1234');
    expect(within(screen.getByTestId('connection-1')).getByRole('button', { name: 'Ver código' })).toBeTruthy();

    socket.emit('company-1-whatsappSession', {
      action: 'update',
      session: connection(1, { status: 'CONNECTED', pairingCode: null, number: '5511999990000' }),
    });
    await waitFor(() => expect(screen.queryByTestId('pairing-code')).toBeNull(), { timeout: 5_000 });
    expect(within(screen.getByTestId('connection-1')).getByText('Conectado')).toBeTruthy();
  });
});

describe('AllConnectionsPage', () => {
  it('counts connected, disconnected and total per company with a totals row, and opens a company', async () => {
    await signIn({ super: true });
    const calls = serveApi(
      answer('GET', '/whatsapp/all/', [
        connection(1, { companyId: 1, companyName: 'Balcão', status: 'CONNECTED' }),
        connection(2, { companyId: 2, companyName: 'Acme', status: 'CONNECTED' }),
        connection(3, {
          companyId: 2,
          companyName: 'Acme',
          status: 'DISCONNECTED',
          name: 'Loja',
          sessionError: 'ERR_WAPP_BANNED',
        }),
        connection(4, { companyId: 2, companyName: 'Acme', status: 'qrcode' }),
      ]),
      answer('GET', '/companies/list', [
        { id: 1, name: 'Balcão' },
        { id: 2, name: 'Acme' },
        { id: 3, name: 'Lite' },
      ]),
      answer('GET', '/companies/listPlan/1', planWith(1, ['useWhatsapp'])),
      answer('GET', '/companies/listPlan/2', planWith(2, ['useWhatsapp'])),
      answer('GET', '/whatsapp/3', connection(3, { companyId: 2, status: 'DISCONNECTED', name: 'Loja' })),
      answer('GET', '/whatsapp-admin/companies/2/queues', [{ id: 7, name: 'Vendas da Acme', color: '#123456' }]),
    );
    renderPage(<AllConnectionsPage />, '/allConnections');
    const acme = await screen.findByTestId('company-2');
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells(acme).slice(0, 4)).toEqual(['Acme', '1', '2', '3']);
    expect(cells(screen.getByTestId('company-3')).slice(0, 4)).toEqual(['Lite', '0', '0', '0']);
    expect(cells(screen.getByTestId('totals')).slice(0, 4)).toEqual(['Total geral', '2', '2', '4']);
    fireEvent.click(within(acme).getByRole('button', { name: 'Ver conexões — Acme' }));
    expect(await screen.findByText('Conexões de Acme')).toBeTruthy();
    // another company's connections are managed here too: session actions, edit (with that company's
    // queues), add
    const foreign = screen.getByRole('dialog');
    expect(within(foreign).getByText('Loja')).toBeTruthy();
    expect(within(foreign).getByText('Desconectado')).toBeTruthy();
    expect(within(foreign).getByText('Número recusado pelo WhatsApp')).toBeTruthy();
    expect(within(foreign).getByRole('button', { name: 'Novo QR Code' })).toBeTruthy();
    expect(within(foreign).getByRole('button', { name: /Adicionar/ })).toBeTruthy();
    const lojaRow = within(foreign).getByTestId('connection-3');
    fireEvent.click(within(lojaRow).getByRole('button', { name: 'Editar' }));
    await waitFor(() => expect(calls.some((call) => call.path === '/whatsapp-admin/companies/2/queues')).toBe(true));
    fireEvent.click(within(screen.getAllByRole('dialog').at(-1) as HTMLElement).getByRole('button', { name: /Cancelar/ }));
    // the super user's own company is managed here as on /connections
    fireEvent.click(within(screen.getByTestId('company-1')).getByRole('button', { name: 'Ver conexões — Balcão' }));
    const own = (await screen.findByText('Conexões de Balcão')).closest('[role="dialog"]') as HTMLElement;
    expect(await within(own).findByRole('button', { name: 'Editar' })).toBeTruthy();
    expect(within(own).getByRole('button', { name: 'Desconectar' })).toBeTruthy();
    expect(within(own).getByRole('button', { name: /Adicionar/ })).toBeTruthy();
  });

  it('sends everyone else to /tickets', async () => {
    await signIn({ super: false });
    const calls = serveApi();
    renderPage(
      <Routes>
        <Route path="/allConnections" element={<AllConnectionsPage />} />
        <Route path="/tickets" element={<h1>Tickets</h1>} />
      </Routes>,
      '/allConnections',
    );
    expect(await screen.findByRole('heading', { name: 'Tickets' })).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('keeps companies without connections and names unknown ones by id', () => {
    const lines = countByCompany([connection(1, { companyId: 9, status: 'TIMEOUT' })], [{ id: 2, name: 'Beta' }]);
    expect(lines).toEqual([
      { companyId: 9, name: '#9', connected: 0, disconnected: 1, total: 1 },
      { companyId: 2, name: 'Beta', connected: 0, disconnected: 0, total: 0 },
    ]);
  });
});

function BadgeProbe() {
  const badge = useConnectionsBadge();
  return <span data-testid="badge">{badge === true ? 'dot' : 'none'}</span>;
}

describe('the Connections menu badge', () => {
  beforeEach(() => signIn());

  it('reads the connections 2 s after load and shows a dot while one needs attention', async () => {
    const calls = serveApi(answer('GET', '/whatsapp/', [connection(1), connection(2, { status: 'TIMEOUT' })]));
    renderPage(<BadgeProbe />);
    expect(screen.getByTestId('badge').textContent).toBe('none');
    await act(() => new Promise((resolve) => setTimeout(resolve, 1_000)));
    expect(calls.some((call) => call.path === '/whatsapp/')).toBe(false);
    await waitFor(() => expect(screen.getByTestId('badge').textContent).toBe('dot'), { timeout: 4_000 });
  });

  it('stays off when every connection is CONNECTED', async () => {
    serveApi(answer('GET', '/whatsapp/', [connection(1), connection(2)]));
    renderPage(<BadgeProbe />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 2_300)));
    expect(screen.getByTestId('badge').textContent).toBe('none');
  });

  it('follows the realtime events: a status, a replaced connection, a deletion', () => {
    const rows = [connection(1), connection(2)];
    const afterSession = applyConnectionEvent(rows, {
      action: 'update',
      session: connection(2, { status: 'qrcode', qrcode: 'abc' }),
    });
    expect(afterSession[1]).toMatchObject({ id: 2, status: 'qrcode', qrcode: 'abc', name: 'Conexão 2' });
    expect(needsAttention(afterSession)).toBe(true);
    const replaced = applyConnectionEvent(afterSession, { action: 'update', whatsapp: connection(2, { status: 'CONNECTED' }) });
    expect(needsAttention(replaced)).toBe(false);
    const added = applyConnectionEvent(replaced, { action: 'update', whatsapp: connection(3, { status: 'OPENING' }) });
    expect(added.map((row) => row.id)).toEqual([1, 2, 3]);
    expect(needsAttention(applyConnectionEvent(added, { action: 'delete', whatsappId: 3 }))).toBe(false);
    for (const status of ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'] as const) {
      expect(needsAttention([connection(1, { status })]), status).toBe(true);
    }
  });
});
