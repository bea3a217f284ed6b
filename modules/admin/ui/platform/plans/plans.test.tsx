import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Plan } from '../api';
import { renderPage, serveApi, signIn } from '../testing/render';
import { PlansManager } from './PlansManager';

const plan = (id: number, name: string, fields: Partial<Plan> = {}): Plan => ({
  id,
  name,
  users: 3,
  connections: 1,
  queues: 2,
  amount: '49.00',
  isPublic: true,
  useWhatsapp: true,
  useFacebook: false,
  useInstagram: false,
  useCampaigns: false,
  useSchedules: false,
  useInternalChat: false,
  useExternalApi: false,
  useKanban: false,
  useOpenAi: false,
  useIntegrations: false,
  pluginFlags: {},
  ...fields,
});

const HELLO_FLAG = { key: 'useHello', plugin: 'hello', label: { pt: 'Olá', en: 'Hello', es: 'Hola', tr: 'Merhaba' } };

describe('Plans tab', () => {
  beforeEach(() => signIn());

  it('lists plans and creates one with its limits and flags', async () => {
    const plans = [plan(1, 'Básico')];
    const calls = serveApi(({ method, path, body }) => {
      if (method === 'GET' && path === '/plans/all') return { status: 200, body: plans };
      if (method === 'POST' && path === '/plans') {
        const created = plan(2, (body as { name: string }).name);
        plans.push(created);
        return { status: 201, body: created };
      }
      return undefined;
    });
    renderPage(<PlansManager />);
    const row = (await screen.findByText('Básico')).closest('tr') as HTMLElement;
    expect(within(row).getByText(/R\$\s?49,00/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /Novo plano/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findByText('Obrigatório')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Ouro' } });
    fireEvent.change(within(dialog).getByLabelText('Usuários'), { target: { value: '10' } });
    fireEvent.click(within(dialog).getByLabelText('Kanban'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      name: 'Ouro',
      users: 10,
      connections: 0,
      queues: 0,
      amount: 0,
      isPublic: true,
      useKanban: true,
      useWhatsapp: false,
    });
    expect(await screen.findByText('Operação realizada com sucesso!', {}, { timeout: 3000 })).toBeTruthy();
  });

  it("shows a plugin's own flag with the plugin's label, and saves it", async () => {
    const plans = [
      plan(1, 'Com olá', { pluginFlags: { useHello: true } }),
      plan(2, 'Sem olá', { pluginFlags: { useHello: false } }),
    ];
    const calls = serveApi(({ method, path, body }) => {
      if (method === 'GET' && path === '/plans/all') return { status: 200, body: plans };
      if (method === 'GET' && path === '/plans/flags') return { status: 200, body: { flags: [HELLO_FLAG] } };
      if (method === 'PUT' && path === '/plans/2') return { status: 200, body: { ...plans[1], ...(body as object) } };
      return undefined;
    });
    renderPage(<PlansManager />);
    const withHello = (await screen.findByText('Com olá')).closest('tr') as HTMLElement;
    expect(await within(withHello).findByText('Olá')).toBeTruthy();
    const withoutHello = screen.getByText('Sem olá').closest('tr') as HTMLElement;
    expect(within(withoutHello).queryByText('Olá')).toBeNull();

    fireEvent.click(within(withoutHello).getByRole('button', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog');
    const checkbox = within(dialog).getByLabelText('Olá') as HTMLInputElement;
    expect(checkbox.checked).toBe(false);
    fireEvent.click(checkbox);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      name: 'Sem olá',
      useWhatsapp: true,
      pluginFlags: { useHello: true },
    });
  });

  it('explains why a plan in use cannot be deleted', async () => {
    serveApi(({ method, path }) => {
      if (method === 'GET' && path === '/plans/all') return { status: 200, body: [plan(1, 'Usado')] };
      if (method === 'DELETE' && path === '/plans/1') return { status: 409, body: { error: 'ERR_PLAN_IN_USE' } };
      return undefined;
    });
    renderPage(<PlansManager />);
    const row = (await screen.findByText('Usado')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Excluir' }));
    const confirm = await waitFor(() => document.querySelector('.ant-popconfirm') as HTMLElement);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    expect(
      await screen.findByText('Este plano está em uso por empresas e não pode ser excluído.', {}, { timeout: 3000 }),
    ).toBeTruthy();
  });
});
