import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Contact, QuickMessage, Tag } from '../../shared/types';
import { makeQuickMessage } from '../tickets/testing/fixtures';
import { ContactsPage } from './contacts/ContactsPage';
import { ContactImportPage } from './import/ContactImportPage';
import { QuickMessagesPage } from './quick-messages/QuickMessagesPage';
import { renderPage, serveApi, signIn } from './shared/testing/render';
import { TagsPage } from './tags/TagsPage';

const tag = (id: number, name: string, fields: Partial<Tag> = {}): Tag => ({
  id,
  name,
  color: '#FF0000',
  kanban: 0,
  userId: 1,
  timeLane: null,
  nextLaneId: null,
  greetingMessageLane: null,
  rollbackLaneId: null,
  ticketTags: 4,
  contacts: 9,
  ...fields,
});

const contact = (id: number, name: string, fields: Partial<Contact> = {}): Contact => ({
  id,
  name,
  number: '5511999990000',
  email: 'ana@example.com',
  active: true,
  disableBot: false,
  acceptAudioMessage: true,
  lgpdAcceptedAt: null,
  urlPicture: null,
  isGroup: false,
  channel: 'whatsapp',
  whatsappId: 1,
  whatsapp: { id: 1, name: 'Comercial' },
  extraInfo: [],
  tags: [],
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
  ...fields,
});

describe('Tags page', () => {
  beforeEach(() => signIn());

  it('lists tags with their counts and validates the dialog before creating one', async () => {
    const calls = serveApi(({ method, path, body }) => {
      if (method === 'GET' && path === '/tags') return { status: 200, body: { tags: [tag(1, 'VIP')], hasMore: false } };
      if (method === 'GET' && path === '/tags/list') return { status: 200, body: [] };
      if (method === 'POST' && path === '/tags')
        return { status: 201, body: tag(2, (body as { name: string }).name, { ticketTags: 0, contacts: 0 }) };
      return undefined;
    });
    renderPage(<TagsPage />);
    const row = (await screen.findByText('VIP')).closest('tr') as HTMLElement;
    expect(within(row).getByText('4')).toBeTruthy();
    expect(within(row).getByText('9')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /Adicionar tag/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findByText('Obrigatório')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'ab' } });
    expect(await within(dialog).findByText('Mensagem muito curta')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Clientes novos' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));

    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Clientes novos',
      color: '#7C7C7C',
      kanban: 0,
      timeLane: null,
      nextLaneId: null,
      rollbackLaneId: null,
      greetingMessageLane: null,
    });
    expect(await screen.findByText('Clientes novos')).toBeTruthy();
  });
});

describe('Quick messages page', () => {
  beforeEach(() => signIn({ id: 2, profile: 'user' }));

  it("shows the attachment or the no-attachment text, the general tick, and blocks editing another user's private message", async () => {
    serveApi(({ method, path }) =>
      method === 'GET' && path === '/quick-messages'
        ? {
            status: 200,
            body: {
              records: [
                makeQuickMessage(1, 'privada', { userId: 1 }),
                makeQuickMessage(2, 'geral', { userId: 1, geral: true, mediaName: 'tabela.pdf' }),
              ],
              hasMore: false,
            },
          }
        : undefined,
    );
    renderPage(<QuickMessagesPage />);
    const privateRow = (await screen.findByText('/privada')).closest('tr') as HTMLElement;
    const generalRow = screen.getByText('/geral').closest('tr') as HTMLElement;
    expect(within(privateRow).getByText('Sem anexo')).toBeTruthy();
    expect(within(generalRow).getByText('tabela.pdf')).toBeTruthy();
    expect(within(generalRow).getByTitle('Geral')).toBeTruthy();
    expect(within(privateRow).queryByTitle('Geral')).toBeNull();
    const editButton = (row: HTMLElement) => within(row).getByRole('button', { name: 'Editar' }) as HTMLButtonElement;
    expect(editButton(privateRow).disabled).toBe(true);
    expect(editButton(generalRow).disabled).toBe(false);
  });

  it('enables the general switch only with visibility on, and requires the shortcode', async () => {
    serveApi(({ method, path }) =>
      method === 'GET' && path === '/quick-messages' ? { status: 200, body: { records: [], hasMore: false } } : undefined,
    );
    renderPage(<QuickMessagesPage />);
    fireEvent.click(await screen.findByRole('button', { name: /Adicionar/ }));
    const dialog = await screen.findByRole('dialog');
    const switches = within(dialog).getAllByRole('switch') as HTMLButtonElement[];
    const [visao, geral] = switches;
    expect(geral?.disabled).toBe(false);
    fireEvent.click(visao as HTMLButtonElement);
    await waitFor(() => expect(geral?.disabled).toBe(true));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findByText('Obrigatório')).toBeTruthy();
  });
});

describe('Quick message dialog', () => {
  beforeEach(() => signIn());

  it("saves the shortcode without the composer's leading '/', so typing '/' and the shortcode finds it", async () => {
    const calls = serveApi(({ method, path, body }) => {
      if (method === 'GET' && path === '/quick-messages') return { status: 200, body: { records: [], hasMore: false } };
      if (method === 'POST' && path === '/quick-messages')
        return { status: 201, body: makeQuickMessage(9, (body as { shortcode: string }).shortcode) };
      return undefined;
    });
    renderPage(<QuickMessagesPage />);
    fireEvent.click(await screen.findByRole('button', { name: /Adicionar/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Atalho'), { target: { value: '/' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findByText('Obrigatório')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Atalho'), { target: { value: '/oi' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true), { timeout: 3000 });
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ shortcode: 'oi' });
    expect(await screen.findByText('/oi')).toBeTruthy();
  });
});

describe('Quick messages page, as an admin', () => {
  beforeEach(() => signIn({ id: 1, profile: 'admin' }));

  it("keeps another user's private message listed after the admin edits it (admins list every message)", async () => {
    const stored = makeQuickMessage(7, 'interna', { userId: 2, visao: false, geral: false });
    const calls = serveApi(({ method, path, body }) => {
      if (method === 'GET' && path === '/quick-messages') return { status: 200, body: { records: [stored], hasMore: false } };
      if (method === 'PUT' && path === '/quick-messages/7')
        return { status: 200, body: { ...stored, ...(body as Partial<QuickMessage>) } };
      return undefined;
    });
    renderPage(<QuickMessagesPage />);
    const row = (await screen.findByText('/interna')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Atalho'), { target: { value: 'interna2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true), { timeout: 3000 });
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      shortcode: 'interna2',
      visao: false,
      geral: false,
    });
    expect(await screen.findByText('/interna2')).toBeTruthy();
  });
});

describe('Contacts page', () => {
  it('blocks a contact with the documented toast and hides delete without contacts-page:deleteContact', async () => {
    await signIn({ profile: 'user' });
    const calls = serveApi(({ method, path }) => {
      if (method === 'GET' && path === '/contacts')
        return { status: 200, body: { contacts: [contact(1, 'Ana')], hasMore: false, count: 1 } };
      if (method === 'PUT' && path === '/contacts/block/1') return { status: 200, body: contact(1, 'Ana', { active: false }) };
      return undefined;
    });
    renderPage(<ContactsPage />);
    const row = (await screen.findByText('Ana')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Comercial', { exact: false })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Excluir' })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Bloquear' }));
    expect(await screen.findByText('Contato bloqueado')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ active: false });
    expect(await within(row).findByRole('button', { name: 'Desbloquear' })).toBeTruthy();
  });

  it('offers delete to admins, and searches from 3 characters only', async () => {
    await signIn({ profile: 'admin' });
    const calls = serveApi(({ method, path }) =>
      method === 'GET' && path === '/contacts'
        ? { status: 200, body: { contacts: [contact(1, 'Ana')], hasMore: false, count: 1 } }
        : undefined,
    );
    renderPage(<ContactsPage />);
    const row = (await screen.findByText('Ana')).closest('tr') as HTMLElement;
    expect(within(row).getByRole('button', { name: 'Excluir' })).toBeTruthy();
    const search = screen.getByLabelText(/Pesquisar/);
    fireEvent.change(search, { target: { value: 'an' } });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(calls.filter((call) => call.path === '/contacts').map((call) => call.query.get('searchParam'))).toEqual(['']);
    fireEvent.change(search, { target: { value: 'ana' } });
    await waitFor(() =>
      expect(calls.filter((call) => call.path === '/contacts').map((call) => call.query.get('searchParam'))).toEqual(['', 'ana']),
    );
  });
});

describe('Contact dialog', () => {
  beforeEach(() => signIn());

  it('validates the fields and shows ERR_DUPLICATED_CONTACT translated on the number', async () => {
    const calls = serveApi(({ method, path }) => {
      if (method === 'GET' && path === '/contacts') return { status: 200, body: { contacts: [], hasMore: false, count: 0 } };
      if (method === 'POST' && path === '/contacts') return { status: 409, body: { error: 'ERR_DUPLICATED_CONTACT' } };
      return undefined;
    });
    renderPage(<ContactsPage />);
    fireEvent.click(await screen.findByRole('button', { name: /Adicionar contato/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'A' } });
    fireEvent.change(within(dialog).getByLabelText('Número'), { target: { value: '1234' } });
    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'ana@' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findAllByText('Muito curto!')).toHaveLength(2);
    expect(within(dialog).getByText('E-mail inválido')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Ana' } });
    fireEvent.change(within(dialog).getByLabelText('Número'), { target: { value: '+55 11 99999-0000' } });
    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect((await within(dialog).findAllByText('Já existe um contato com este número.')).length).toBeGreaterThan(0);
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Ana',
      number: '+55 11 99999-0000',
      email: '',
      disableBot: false,
      extraInfo: [],
    });
  });
});

describe('Contact dialog, editing', () => {
  const serveContact = (stored: Contact) =>
    serveApi(({ method, path, body }) => {
      if (method === 'GET' && path === '/contacts')
        return { status: 200, body: { contacts: [stored], hasMore: false, count: 1 } };
      if (method === 'GET' && path === `/contacts/${stored.id}`) return { status: 200, body: stored };
      if (method === 'PUT' && path === `/contacts/${stored.id}`)
        return { status: 200, body: { ...stored, ...(body as Partial<Contact>), number: stored.number } };
      return undefined;
    });

  const editName = async (from: string, to: string) => {
    renderPage(<ContactsPage />);
    const row = (await screen.findByText(from)).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(await within(dialog).findByLabelText('Nome'), { target: { value: to } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
  };

  it('says so when the contact could not be loaded, and loads it again on request', async () => {
    await signIn();
    const stored = contact(3, 'Bia');
    let failures = 1;
    serveApi(({ method, path }) => {
      if (method === 'GET' && path === '/contacts')
        return { status: 200, body: { contacts: [stored], hasMore: false, count: 1 } };
      if (method === 'GET' && path === '/contacts/3') {
        if (failures-- > 0) return { status: 500, body: { error: 'ERR_INTERNAL' } };
        return { status: 200, body: stored };
      }
      return undefined;
    });
    renderPage(<ContactsPage />);
    const row = (await screen.findByText('Bia')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Não foi possível carregar o contato.', {}, { timeout: 3000 })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Tentar novamente' }));
    expect(((await within(dialog).findByLabelText('Nome')) as HTMLInputElement).value).toBe('Bia');
  });

  it('sends a number masked for LGPD back as shown, so the API keeps the stored one (the number is required)', async () => {
    await signIn({ profile: 'user' });
    const calls = serveContact(contact(1, 'Ana', { number: '***********00' }));
    await editName('Ana', 'Ana Maria');
    expect(await screen.findByText('Contato salvo com sucesso!', {}, { timeout: 3000 })).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      name: 'Ana Maria',
      number: '***********00',
      email: 'ana@example.com',
      disableBot: false,
      extraInfo: [],
    });
  });

  it('saves a contact without a number (webchat, Instagram) with none, instead of requiring one', async () => {
    await signIn();
    const calls = serveContact(contact(2, 'Visitante', { number: null, email: null, channel: 'webchat', whatsapp: null }));
    await editName('Visitante', 'Visitante do site');
    expect(await screen.findByText('Contato salvo com sucesso!', {}, { timeout: 3000 })).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      name: 'Visitante do site',
      number: null,
      email: '',
      disableBot: false,
      extraInfo: [],
    });
  });
});

describe('Contacts import page', () => {
  beforeEach(() => signIn());

  it('reads a CSV, detects its columns, previews it, imports it and reports by line', async () => {
    const calls = serveApi(({ method, path }) =>
      method === 'POST' && path === '/contacts/import'
        ? { status: 200, body: { created: 1, skipped: 1, errors: [{ row: 2, error: 'ERR_DUPLICATED_CONTACT' }] } }
        : undefined,
    );
    const { container } = renderPage(<ContactImportPage />, '/contacts/import');
    const csv =
      'Nome;Telefone;E-mail\nAna;+55 11 99999-0001;ana@example.com\nBia;5511999990002;\nSem número;;\nCaio;5511999990003;\n';
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File([csv], 'contatos.csv', { type: 'text/csv' })] } });

    expect(await screen.findByText('5511999990001')).toBeTruthy();
    expect(screen.getByText('ana@example.com')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Importar 3 contatos/ }));

    expect(await screen.findByText('Importação concluída')).toBeTruthy();
    expect(calls[0]?.body).toEqual({
      contacts: [
        { name: 'Ana', number: '5511999990001', email: 'ana@example.com' },
        { name: 'Bia', number: '5511999990002' },
        { name: 'Caio', number: '5511999990003' },
      ],
    });
    // line 4 had no number (left out before sending); the server's row 2 is Bia, line 3
    const lines = screen.getAllByRole('row').map((row) => row.textContent);
    expect(lines).toContain('3Já existe um contato com este número.');
    expect(lines).toContain('4Sem número');
  });
});
