import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ApiCall, narrowScreen, renderPage, serveApi, signIn } from '@balcao/plugin-sdk/testing/ui';
import { connectCompanySocket, disconnectCompanySocket, registerPermissions } from '@balcao/plugin-sdk/ui';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Server } from 'socket.io';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FilesPage } from './FilesPage';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';
import type { FileList } from './types';

const list = (id: number, name: string, options: FileList['options'] = []): FileList => ({
  id,
  name,
  message: `Mensagem de ${name}`,
  options,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

let stored: FileList[] = [];

/** The list route answering as the server does: names containing the search, one page. */
const listRoute = (call: ApiCall) => {
  if (call.method !== 'GET' || call.path !== '/files') return undefined;
  const needle = (call.query.get('searchParam') ?? '').toLowerCase();
  return { status: 200, body: { files: stored.filter((row) => row.name.toLowerCase().includes(needle)), hasMore: false } };
};

const signInAs = (fields = {}) => signIn({ namespace: 'files', translations: { pt, en, es, tr } }, fields);

beforeAll(() => registerPermissions({ 'files:manage': ['admin'] }));

describe('FilesPage', () => {
  beforeEach(() => {
    stored = [list(1, 'Catálogo'), list(2, 'Promoções')];
    return signInAs();
  });

  it('lists the file lists and searches them by name', async () => {
    const calls = serveApi(listRoute);
    renderPage(<FilesPage />);
    expect(await screen.findByText('Catálogo')).toBeTruthy();
    expect(screen.getByText('Promoções')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Pesquisar...'), { target: { value: 'promo' } });
    await waitFor(() => expect(screen.queryByText('Catálogo')).toBeNull());
    expect(screen.getByText('Promoções')).toBeTruthy();
    expect(calls.some((call) => call.query.get('searchParam') === 'promo')).toBe(true);
  });

  it('shows the empty state', async () => {
    serveApi(() => ({ status: 200, body: { files: [], hasMore: false } }));
    renderPage(<FilesPage />);
    expect(await screen.findByText('Nenhuma lista de arquivos ainda')).toBeTruthy();
  });

  it('refuses a name shorter than 3 and a blank message without calling the server', async () => {
    const calls = serveApi(listRoute);
    renderPage(<FilesPage />);
    await screen.findByText('Catálogo');
    fireEvent.click(screen.getByRole('button', { name: /Adicionar/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'ab' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('nome muito curto')).toBeTruthy();
    expect(within(dialog).getByText('Obrigatório')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('creates a list with an option, then uploads its file with the option id before the file', async () => {
    const created = list(5, 'Manuais', [{ id: 7, name: 'Manual', path: null, mediaType: null, fileName: null, url: null }]);
    const calls = serveApi(
      listRoute,
      (call) => (call.method === 'POST' && call.path === '/files' ? { status: 200, body: created } : undefined),
      (call) =>
        call.method === 'POST' && call.path === '/files/uploadList/5'
          ? { status: 200, body: { ...created, options: [{ ...created.options[0], fileName: 'manual.pdf' }] } }
          : undefined,
    );
    renderPage(<FilesPage />);
    await screen.findByText('Catálogo');
    fireEvent.click(screen.getByRole('button', { name: /Adicionar/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Adicionar lista de arquivos')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Manuais' } });
    fireEvent.change(within(dialog).getByLabelText('Mensagem'), { target: { value: 'Escolha um manual' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /Adicionar opção/ }));
    fireEvent.change(await within(dialog).findByLabelText('Nome da opção'), { target: { value: 'Manual' } });
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    const file = new File(['%PDF-1.4'], 'manual.pdf', { type: 'application/pdf' });
    fireEvent.change(input, { target: { files: [file] } });
    expect(await within(dialog).findByText('A enviar: manual.pdf')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));

    expect(await screen.findByText('Lista de arquivos salva', undefined, { timeout: 5_000 })).toBeTruthy();
    const save = calls.find((call) => call.method === 'POST' && call.path === '/files');
    expect(save?.body).toEqual({
      name: 'Manuais',
      message: 'Escolha um manual',
      options: [{ id: null, name: 'Manual' }],
      userId: 1,
    });
    const upload = calls.find((call) => call.path === '/files/uploadList/5');
    expect(upload?.contentType).toMatch(/^multipart\/form-data/);
    const form = upload?.body as FormData;
    expect([...form.keys()]).toEqual(['id', 'typeArch', 'files']);
    expect(form.get('id')).toBe('7');
    expect(form.get('typeArch')).toBe('fileList');
    expect((form.get('files') as File).name).toBe('manual.pdf');
  });

  it('edits a list keeping its options by id, and a failed upload then retried changes the same list', async () => {
    const option = { id: 3, name: 'Tabela', path: 'files/1/a.pdf', mediaType: 'application', fileName: 'tabela.pdf', url: null };
    stored[0] = list(1, 'Catálogo', [option]);
    let uploads = 0;
    const calls = serveApi(
      listRoute,
      (call) => (call.method === 'PUT' && call.path === '/files/1' ? { status: 200, body: stored[0] } : undefined),
      (call) => {
        if (call.path !== '/files/uploadList/1') return undefined;
        uploads += 1;
        return uploads === 1
          ? { status: 415, body: { error: 'ERR_FILE_LIST_MEDIA_TYPE' } }
          : { status: 200, body: list(1, 'Catálogo', [{ ...option, fileName: 'nova.pdf' }]) };
      },
    );
    renderPage(<FilesPage />);
    await screen.findByText('Catálogo');
    fireEvent.click(screen.getAllByLabelText('Editar')[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Editar lista de arquivos')).toBeTruthy();
    expect(await within(dialog).findByText('tabela.pdf')).toBeTruthy();
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'nova.pdf', { type: 'application/pdf' })] } });
    await within(dialog).findByText('A enviar: nova.pdf');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(/Tipo de arquivo não aceito/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Lista de arquivos salva', undefined, { timeout: 5_000 })).toBeTruthy();
    const puts = calls.filter((call) => call.method === 'PUT');
    expect(puts.map((call) => call.path)).toEqual(['/files/1', '/files/1']);
    expect(puts[0]?.body).toMatchObject({ options: [{ id: 3, name: 'Tabela' }] });
    expect((puts[0]?.body as { options?: unknown } | undefined)?.options).toEqual([{ id: 3, name: 'Tabela' }]);
    expect(calls.filter((call) => call.method === 'POST' && call.path === '/files')).toEqual([]);
    expect(uploads).toBe(2);
  });

  it('deletes a list only after the confirmation', async () => {
    const calls = serveApi(listRoute, (call) =>
      call.method === 'DELETE' && call.path === '/files/1' ? { status: 200, body: { message: 'File List deleted' } } : undefined,
    );
    renderPage(<FilesPage />);
    await screen.findByText('Catálogo');
    fireEvent.click(screen.getAllByLabelText('Excluir')[0] as HTMLElement);
    const confirm = (await screen.findByText('Excluir Catálogo?')).closest('.ant-popover') as HTMLElement;
    expect(within(confirm).getByText('A lista e os seus arquivos serão apagados.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Lista de arquivos excluída')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual(['/files/1']);
  });

  it('shows a card list instead of the table on a narrow screen', async () => {
    const wide = narrowScreen();
    try {
      serveApi(listRoute);
      const { container } = renderPage(<FilesPage />);
      expect(await screen.findByText('Catálogo')).toBeTruthy();
      expect(container.querySelector('table')).toBeNull();
      expect(container.querySelector('.ant-list')).not.toBeNull();
      expect(screen.getAllByLabelText('Editar')).toHaveLength(2);
    } finally {
      wide();
    }
  });

  it('shows the no-access view to a user of profile user', async () => {
    await signInAs({ profile: 'user' });
    const calls = serveApi(listRoute);
    renderPage(<FilesPage />);
    expect(await screen.findByText('Você não tem acesso a esta página')).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

describe('FilesPage live', () => {
  // a real socket.io server standing in for the core's company namespace (company 1 of the test session)
  const http = createServer();
  const io = new Server(http, { cors: { origin: true } });
  let origin = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    disconnectCompanySocket();
    await new Promise<void>((resolve) => io.close(() => resolve()));
  });

  it('follows company-{id}-file: a created list appears, a deleted one goes', async () => {
    stored = [list(1, 'Catálogo'), list(2, 'Promoções')];
    await signInAs();
    serveApi(listRoute);
    const connected = new Promise<void>((resolve) => io.of('/1').once('connection', () => resolve()));
    connectCompanySocket({
      companyId: 1,
      userId: 1,
      origin,
      readToken: () => 'token',
      renewToken: async () => true,
      onSessionRefused: () => undefined,
    });
    await connected;
    renderPage(<FilesPage />);
    await screen.findByText('Catálogo');
    io.of('/1').emit('company-1-file', { action: 'create', files: list(9, 'Vídeos') });
    expect(await screen.findByText('Vídeos')).toBeTruthy();
    io.of('/1').emit('company-1-file', { action: 'delete', fileId: 1 });
    await waitFor(() => expect(screen.queryByText('Catálogo')).toBeNull());
    expect(screen.getByText('Promoções')).toBeTruthy();
  });
});
