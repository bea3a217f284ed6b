import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminUser } from './api';
import { OptionsTab } from './OptionsTab';
import { SettingsPage, visibleSettingsTabs } from './SettingsPage';
import { renderPage, serveApi, signIn } from './testing/render';
import { UserDialog } from './UserDialog';
import { UsersPage } from './UsersPage';

const user = (id: number, name: string, fields: Partial<AdminUser> = {}): AdminUser => ({
  id,
  name,
  email: `${name.toLowerCase().replace(/\s+/g, '.')}@acme.test`,
  profile: 'user',
  super: false,
  companyId: 1,
  profileImage: null,
  queues: [],
  whatsappId: null,
  startWork: '08:00',
  endWork: '18:00',
  farewellMessage: null,
  allTicket: 'disable',
  allowGroup: false,
  defaultTheme: 'light',
  defaultMenu: 'open',
  allHistoric: 'disabled',
  allUserChat: 'disabled',
  userClosePendingTicket: 'enabled',
  showDashboard: 'disabled',
  allowRealTime: 'disabled',
  allowConnections: 'disabled',
  defaultTicketsManagerWidth: 550,
  online: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});

const QUEUES = [
  { id: 7, name: 'Suporte', color: '#FF0000' },
  { id: 8, name: 'Vendas', color: '#00FF00' },
];

const DEFAULT_SETTINGS: Record<string, string> = {
  userCreation: 'enabled',
  downloadLimit: '64',
  userRating: 'disabled',
  scheduleType: 'disabled',
  chatBotType: 'text',
  acceptCallWhatsapp: 'enabled',
  sendMsgTransfTicket: 'disabled',
  transferMessage: '',
  sendGreetingAccepted: 'disabled',
  greetingAcceptedMessage: '',
  AcceptCallWhatsappMessage: '',
};

function serveSettings(values: Record<string, string> = DEFAULT_SETTINGS) {
  return serveApi(({ method, path, body }) => {
    if (method === 'GET' && path === '/settings') {
      return { status: 200, body: Object.entries(values).map(([key, value]) => ({ key, value })) };
    }
    if (method === 'PUT' && path.startsWith('/settings/')) {
      const key = decodeURIComponent(path.slice('/settings/'.length));
      return { status: 200, body: { key, value: (body as { value: string }).value } };
    }
    return undefined;
  });
}

describe('User dialog', () => {
  it('validates the fields of docs/product/administration.md#validation, then creates the user with its queues and the permission fields', async () => {
    await signIn();
    const calls = serveApi(({ method, path, body }) => {
      if (method === 'GET' && path === '/queue') return { status: 200, body: QUEUES };
      if (method === 'POST' && path === '/users') return { status: 201, body: user(9, (body as { name: string }).name) };
      return undefined;
    });
    renderPage(<UserDialog open userId={null} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Adicionar usuário')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect((await within(dialog).findAllByText('Obrigatório')).length).toBe(3);

    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'A' } });
    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'not-an-email' } });
    fireEvent.change(within(dialog).getByLabelText('Senha'), { target: { value: '1234' } });
    // antd validates each field on its own change: wait for both messages, not the first one to appear
    await waitFor(() => expect(within(dialog).getAllByText('Muito curto!').length).toBe(2));
    expect(await within(dialog).findByText('E-mail inválido')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: `${'x'.repeat(50)}y` } });
    expect(await within(dialog).findByText('Muito longo!')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: '  Bruna Suporte ' } });
    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'bruna@acme.test' } });
    fireEvent.change(within(dialog).getByLabelText('Senha'), { target: { value: 'secret1' } });
    fireEvent.mouseDown(within(dialog).getByLabelText('Filas'));
    fireEvent.click(await screen.findByTitle('Vendas'));
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Permissões' }));
    fireEvent.click(within(dialog).getByLabelText('Ver dashboard e relatórios'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));

    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Bruna Suporte',
      email: 'bruna@acme.test',
      password: 'secret1',
      farewellMessage: null,
      defaultTheme: 'light',
      defaultMenu: 'open',
      profile: 'user',
      queueIds: [8],
      startWork: '00:00',
      endWork: '23:59',
      allTicket: 'disable',
      allowGroup: false,
      allHistoric: 'disabled',
      allUserChat: 'disabled',
      userClosePendingTicket: 'enabled',
      showDashboard: 'enabled',
      allowRealTime: 'disabled',
      allowConnections: 'disabled',
    });
    // the first toast of the file loads the toast holders' code
    expect(await screen.findByText('Usuário salvo com sucesso!', {}, { timeout: 5000 })).toBeTruthy();
  });

  it("lets a profile user edit themselves with the admin-only fields locked and left out, and shows the server's refusal", async () => {
    await signIn({ id: 5, profile: 'user' });
    const me = user(5, 'Alex Agente', { queues: [QUEUES[0] as (typeof QUEUES)[number]] });
    const calls = serveApi(({ method, path }) => {
      if (method === 'GET' && path === '/users/5') return { status: 200, body: me };
      if (method === 'PUT' && path === '/users/5') return { status: 409, body: { error: 'ERR_EMAIL_ALREADY_EXISTS' } };
      return undefined;
    });
    renderPage(<UserDialog open userId={5} onClose={() => {}} asProfile />);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Meu perfil')).toBeTruthy();
    expect(await within(dialog).findByDisplayValue('Alex Agente')).toBeTruthy();
    expect((within(dialog).getByLabelText('Início do expediente') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Permissões' }));
    expect((within(dialog).getByLabelText('Gerenciar conexões') as HTMLButtonElement).disabled).toBe(true);
    expect(within(dialog).getByText('Somente administradores alteram estes campos.')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'admin@acme.test' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      name: 'Alex Agente',
      email: 'admin@acme.test',
      farewellMessage: null,
      defaultTheme: 'light',
      defaultMenu: 'open',
    });
    expect(await screen.findByText('Já existe um usuário com este e-mail.')).toBeTruthy();
  });
});

describe('Users page', () => {
  it('shows the access-denied view to a profile user and calls nothing', async () => {
    await signIn({ id: 5, profile: 'user' });
    const calls = serveApi();
    renderPage(<UsersPage />);
    expect(await screen.findByText('Oops! Acesso Negado!')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('lists users with status and profile, searches, and deletes after confirming', async () => {
    await signIn();
    const calls = serveApi(({ method, path, query }) => {
      if (method === 'GET' && path === '/users') {
        const users =
          query.get('searchParam') === 'bru'
            ? [user(3, 'Bruna')]
            : [user(1, 'Ana', { profile: 'admin', online: true }), user(3, 'Bruna')];
        return { status: 200, body: { users, count: users.length, hasMore: false } };
      }
      if (method === 'DELETE' && path === '/users/3') return { status: 204 };
      return undefined;
    });
    renderPage(<UsersPage />);
    const anaRow = (await screen.findByText('Ana')).closest('tr') as HTMLElement;
    expect(within(anaRow).getByText('Online')).toBeTruthy();
    expect(within(anaRow).getByText('Administrador')).toBeTruthy();
    // nobody deletes themselves: no delete button on one's own row
    expect(within(anaRow).queryByRole('button', { name: /Excluir/ })).toBeNull();

    const search = screen.getByLabelText('Pesquisar por nome ou e-mail (mínimo 3 caracteres)…');
    // docs/product/tickets-and-inbox.md#validation: two characters are no search yet
    fireEvent.change(search, { target: { value: 'br' } });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(calls.some((call) => call.query.has('searchParam'))).toBe(false);
    fireEvent.change(search, { target: { value: 'bru' } });
    await waitFor(() => expect(calls.some((call) => call.query.get('searchParam') === 'bru')).toBe(true), { timeout: 2000 });

    const brunaRow = (await screen.findByText('Bruna')).closest('tr') as HTMLElement;
    fireEvent.click(within(brunaRow).getByRole('button', { name: 'Excluir Bruna' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/users/3')).toBe(true));
    expect(await screen.findByText('Usuário excluído com sucesso!')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Bruna')).toBeNull());
  });
});

describe('Settings page, Options tab', () => {
  it('shows the access-denied view to a profile user', async () => {
    await signIn({ id: 5, profile: 'user' });
    serveApi();
    renderPage(<SettingsPage />);
    expect(await screen.findByText('Oops! Acesso Negado!')).toBeTruthy();
  });

  it('saves a change at once with the updating indicator and the success toast', async () => {
    await signIn();
    const calls = serveSettings();
    renderPage(<OptionsTab />);
    const rating = await screen.findByRole('switch', { name: 'Avaliações' });
    fireEvent.click(rating);
    expect(await screen.findByRole('status')).toBeTruthy();
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      path: '/settings/userRating',
      body: { value: 'enabled' },
    });
    expect(await screen.findByText('Operação atualizada com sucesso')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Avaliações' }).getAttribute('aria-checked')).toBe('true'));
    // what else a rating needs, and the defaults without it
    expect(screen.getByTestId('userRating-hint').textContent).toContain('pergunta padrão e 15 minutos');
  });

  it('keeps a switch off until its required message is written, then saves the message on leaving the field', async () => {
    await signIn();
    const calls = serveSettings();
    renderPage(<OptionsTab />);
    fireEvent.click(await screen.findByRole('switch', { name: 'Enviar mensagem de transferência' }));
    expect(
      await screen.findByText('Escreva a mensagem antes de ativar esta opção.', { selector: '.ant-typography' }),
    ).toBeTruthy();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    const message = screen.getByLabelText('Mensagem de transferência');
    fireEvent.change(message, { target: { value: 'Você foi transferido.' } });
    fireEvent.blur(message);
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
        path: '/settings/transferMessage',
        body: { value: 'Você foi transferido.' },
      }),
    );
    await waitFor(() =>
      expect((screen.getByLabelText('Mensagem de transferência') as HTMLTextAreaElement).value).toBe('Você foi transferido.'),
    );
    fireEvent.click(screen.getByRole('switch', { name: 'Enviar mensagem de transferência' }));
    await waitFor(() => expect(calls.some((call) => call.path === '/settings/sendMsgTransfTicket')).toBe(true));
  });

  it('offers the download limit and user creation to the super user only', async () => {
    await signIn();
    serveSettings();
    const { unmount } = renderPage(<OptionsTab />);
    await screen.findByRole('switch', { name: 'Avaliações' });
    expect(screen.queryByText('Criação de usuários')).toBeNull();
    unmount();

    await signIn({ super: true });
    serveSettings();
    renderPage(<OptionsTab />);
    expect(await screen.findByText('Criação de usuários')).toBeTruthy();
    expect(screen.getByText('Limite de download de arquivos (MB)')).toBeTruthy();
  });
});

describe('the Settings page tabs of the other areas', () => {
  it('honours superOnly and visible(settings)', () => {
    const tabs = [
      {
        key: 'schedules',
        labelKey: 'x',
        visible: (settings: Record<string, string>) => settings.scheduleType === 'company',
        render: () => null,
      },
      { key: 'plans', labelKey: 'y', superOnly: true, render: () => null },
    ];
    const keys = (isSuper: boolean, settings?: Record<string, string>) =>
      visibleSettingsTabs(tabs, isSuper, settings).map((tab) => tab.key);
    expect(keys(false, { scheduleType: 'company' })).toEqual(['schedules']);
    expect(keys(false, { scheduleType: 'queue' })).toEqual([]);
    expect(keys(true, { scheduleType: 'disabled' })).toEqual(['plans']);
    expect(keys(true, undefined)).toEqual(['plans']);
  });
});
