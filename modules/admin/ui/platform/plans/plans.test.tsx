import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Plan } from '../api';
import { renderPage, serveApi, signIn } from '../test-support';
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
  ...fields,
});

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
