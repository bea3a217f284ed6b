import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Company } from '../api';
import { renderPage, serveApi, signIn } from '../testing/render';
import { CompaniesPage } from './CompaniesPage';
import { dueHighlight } from './due-highlight';

const day = (offset: number) => {
  const date = new Date();
  date.setDate(date.getDate() + offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
};

const company = (id: number, name: string, dueDate: string, fields: Partial<Company> = {}): Company => ({
  id,
  name,
  email: `${name.toLowerCase()}@example.test`,
  phone: null,
  document: null,
  addressStreet: null,
  addressState: null,
  addressCity: null,
  planId: 1,
  plan: { id: 1, name: 'Plano Ouro', amount: '199.90' },
  status: true,
  dueDate,
  recurrence: 'MENSAL',
  paymentMethod: null,
  numberAttendants: 1,
  numberConections: 1,
  value: '199.90',
  createdAt: '2026-01-10T12:00:00.000Z',
  updatedAt: '2026-01-10T12:00:00.000Z',
  lastLogin: null,
  folderSize: 2_621_440,
  numberFileFolder: 12,
  updatedAtFolder: null,
  ...fields,
});

describe('due-date highlight', () => {
  const today = new Date(2026, 4, 10);
  it('is yellow from 1 to 5 days ahead, red today or past, nothing later', () => {
    expect(dueHighlight('2026-05-09', today)).toBe('overdue');
    expect(dueHighlight('2026-05-10', today)).toBe('overdue');
    expect(dueHighlight('2026-05-11', today)).toBe('soon');
    expect(dueHighlight('2026-05-15', today)).toBe('soon');
    expect(dueHighlight('2026-05-16', today)).toBeNull();
  });
});

describe('Companies page', () => {
  it('colours rows by due date and shows every column', async () => {
    await signIn();
    serveApi(({ method, path }) => {
      if (method === 'GET' && path === '/companies/list') {
        return {
          status: 200,
          body: [
            company(2, 'Atrasada', day(-3)),
            company(3, 'Hoje', day(0)),
            company(4, 'Breve', day(3)),
            company(5, 'Limite', day(5)),
            company(6, 'Tranquila', day(6), { lastLogin: '2026-02-01T10:00:00.000Z' }),
          ],
        };
      }
      return undefined;
    });
    renderPage(<CompaniesPage />);
    const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;
    expect((await rowOf('Atrasada')).getAttribute('data-due')).toBe('overdue');
    expect((await rowOf('Hoje')).getAttribute('data-due')).toBe('overdue');
    expect((await rowOf('Breve')).getAttribute('data-due')).toBe('soon');
    expect((await rowOf('Limite')).getAttribute('data-due')).toBe('soon');
    const calm = await rowOf('Tranquila');
    expect(calm.getAttribute('data-due')).toBeNull();
    expect(calm.getAttribute('style') ?? '').not.toContain('background');
    expect((await rowOf('Atrasada')).getAttribute('style')).toContain('background');
    for (const header of [
      'ID',
      'Ativo',
      'Nome',
      'E-mail',
      'Plano',
      'Valor',
      'Criada em',
      'Vencimento',
      'Último login',
      'Tamanho da pasta',
      'Nº de arquivos',
      'Última atualização da pasta',
    ]) {
      expect(screen.getAllByText(header).length, header).toBeGreaterThan(0);
    }
    expect(within(calm).getByText('Sim')).toBeTruthy();
    expect(within(calm).getByText('Plano Ouro')).toBeTruthy();
    expect(within(calm).getByText('2.5 MB')).toBeTruthy();
    expect(within(calm).getByText(/R\$\s?199,90/)).toBeTruthy();
    expect(within(calm).getByText(/\(Mensal\)/)).toBeTruthy();
  });

  it('advances the due date with the row button', async () => {
    await signIn();
    let dueDate = day(2);
    const calls = serveApi(({ method, path }) => {
      if (method === 'GET' && path === '/companies/list') return { status: 200, body: [company(2, 'Renovar', dueDate)] };
      if (method === 'PUT' && path === '/companies/2/advance-due-date') {
        dueDate = day(32);
        return { status: 200, body: company(2, 'Renovar', dueDate) };
      }
      return undefined;
    });
    renderPage(<CompaniesPage />);
    const row = (await screen.findByText('Renovar')).closest('tr') as HTMLElement;
    expect(row.getAttribute('data-due')).toBe('soon');
    fireEvent.click(within(row).getByRole('button', { name: 'Avançar vencimento' }));
    const confirm = await waitFor(() => document.querySelector('.ant-popconfirm') as HTMLElement);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Avançar vencimento' }));
    await waitFor(() => expect(calls.some((call) => call.path === '/companies/2/advance-due-date')).toBe(true));
    expect(await screen.findByText('Operação realizada com sucesso!', {}, { timeout: 3000 })).toBeTruthy();
    await waitFor(() => expect((screen.getByText('Renovar').closest('tr') as HTMLElement).getAttribute('data-due')).toBeNull());
  });

  it('validates the company modal with the documented texts', async () => {
    await signIn();
    const calls = serveApi(({ method, path }) => {
      if (method === 'GET' && path === '/companies/list') return { status: 200, body: [] };
      if (method === 'GET' && path === '/plans/all') return { status: 200, body: [] };
      return undefined;
    });
    renderPage(<CompaniesPage />);
    fireEvent.click(await screen.findByRole('button', { name: /Nova empresa/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findByText('Nome é obrigatório')).toBeTruthy();
    expect(await within(dialog).findByText('E-mail é obrigatório')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'nope' } });
    expect(await within(dialog).findByText('Email é inválido')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('sends anyone but the super user to / after the error toast', async () => {
    await signIn({ super: false, companyId: 2 });
    const calls = serveApi();
    renderPage(<CompaniesPage />);
    expect(await screen.findByText(/Você não tem permissão para acessar esta página/, {}, { timeout: 3000 })).toBeTruthy();
    expect(await screen.findByText('home page', {}, { timeout: 3000 })).toBeTruthy();
    expect(calls.some((call) => call.path === '/companies/list')).toBe(false);
  });
});
