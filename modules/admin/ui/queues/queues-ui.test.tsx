import { registerTranslations } from '@balcao/plugin-sdk/ui';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { defaultSchedules } from '../../shared/queues';
import { renderPage, serveApi, signIn } from '../team/testing/render';
import type { AdminQueueShape, OptionDraft } from './api';
import { ChatbotTreeEditor } from './components/ChatbotTreeEditor';
import { queuesLocales } from './index';
import { addOption, draftsOf, removeOption, treeBody, treeValid, updateOption } from './option-tree';
import { QueueDialog } from './QueueDialog';
import { QueuesPage } from './QueuesPage';

/** Signs in (an admin unless told) with the queues area's texts beside the team's. */
async function start(fields: Parameters<typeof signIn>[0] = {}) {
  await signIn(fields);
  // bundles merge deeply: the team's texts (and its `errors`) stay beside ours
  await registerTranslations('admin', queuesLocales);
}

const option = (id: number, name: string, fields: Partial<AdminQueueShape['chatbots'][number]> = {}) => ({
  id,
  queueId: 5,
  chatbotId: null,
  name,
  greetingMessage: '',
  queueType: 'text' as const,
  optQueueId: null,
  optUserId: null,
  optIntegrationId: null,
  optFileId: null,
  closeTicket: false,
  options: [],
  ...fields,
});

const QUEUE: AdminQueueShape = {
  id: 5,
  name: 'Vendas',
  color: '#2E7D32',
  orderQueue: 1,
  greetingMessage: 'Bem-vindo às vendas',
  outOfHoursMessage: '',
  tempoRoteador: 0,
  ativarRoteador: false,
  integrationId: null,
  fileListId: null,
  closeTicket: false,
  schedules: defaultSchedules(),
  chatbots: [
    option(11, 'Planos', {
      greetingMessage: 'Qual plano?',
      options: [option(12, 'Básico', { chatbotId: 11, greetingMessage: 'R$ 49' })],
    }),
  ],
};

describe('the option tree (pure)', () => {
  it('adds, changes and removes options by path, and writes the body with ids and nesting', () => {
    let tree: OptionDraft[] = draftsOf(QUEUE.chatbots);
    tree = addOption(tree, [0]);
    tree = updateOption(tree, [0, 1], { name: 'Completo', greetingMessage: 'R$ 199', queueType: 'queue', optQueueId: 3 });
    tree = addOption(tree, []);
    expect(treeValid(tree)).toBe(false);
    tree = removeOption(tree, [1]);
    expect(treeValid(tree)).toBe(true);
    expect(treeBody(tree)).toEqual([
      expect.objectContaining({
        id: 11,
        name: 'Planos',
        options: [
          expect.objectContaining({ id: 12, name: 'Básico', options: [] }),
          expect.objectContaining({ name: 'Completo', queueType: 'queue', optQueueId: 3, optUserId: null, options: [] }),
        ],
      }),
    ]);
    expect(treeBody(tree)[0]).not.toHaveProperty('key');
  });
});

/** The editor as the dialog holds it: its own state. */
function EditorHarness({ onTree }: { onTree(tree: OptionDraft[]): void }) {
  const [tree, setTree] = useState<OptionDraft[]>([]);
  return (
    <ChatbotTreeEditor
      value={tree}
      onChange={(next) => {
        setTree(next);
        onTree(next);
      }}
      queues={[{ id: 3, name: 'Suporte' }]}
      users={[{ id: 1, name: 'Ana' }]}
    />
  );
}

describe('ChatbotTreeEditor', () => {
  it('builds a two-level tree: a nested option only once its parent has a message; names need 4 characters', async () => {
    await start();
    let tree: OptionDraft[] = [];
    renderPage(<EditorHarness onTree={(next) => (tree = next)} />);
    expect(screen.getByText('Nenhuma opção. O contato escolhe a fila e aguarda um atendente.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Adicionar opção/ }));
    const name = screen.getByLabelText('Opção 1 — Nome da opção');
    fireEvent.change(name, { target: { value: 'Sim' } });
    expect(screen.getByRole('alert').textContent).toContain('O nome precisa de pelo menos 4 caracteres.');
    fireEvent.change(name, { target: { value: 'Planos' } });
    expect(screen.queryByRole('alert')).toBeNull();
    const nest = screen.getByRole('button', { name: 'Opção 1 — Adicionar sub-opção' }) as HTMLButtonElement;
    expect(nest.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Opção 1 — Mensagem enviada ao escolher esta opção'), {
      target: { value: 'Qual plano?' },
    });
    expect(nest.disabled).toBe(false);
    fireEvent.click(nest);
    fireEvent.change(screen.getByLabelText('Opção 1.1 — Nome da opção'), { target: { value: 'Básico' } });
    fireEvent.change(screen.getByLabelText('Opção 1.1 — Mensagem enviada ao escolher esta opção'), {
      target: { value: 'R$ 49' },
    });
    expect(tree).toEqual([
      expect.objectContaining({
        name: 'Planos',
        greetingMessage: 'Qual plano?',
        options: [expect.objectContaining({ name: 'Básico', greetingMessage: 'R$ 49', options: [] })],
      }),
    ]);
    // removing the nested option leaves the parent
    fireEvent.click(screen.getByRole('button', { name: 'Opção 1.1 — Remover opção' }));
    expect(tree[0]?.options).toEqual([]);
    expect(screen.queryByLabelText('Opção 1.1 — Nome da opção')).toBeNull();
  });
});

describe('QueueDialog', () => {
  it('shows a stored two-level tree, saves its changes with the queue, and says so', async () => {
    await start();
    const calls = serveApi(({ method, path, body }) => {
      if (method === 'GET' && path === '/queue/5') return { status: 200, body: QUEUE };
      if (method === 'GET' && path === '/queue') return { status: 200, body: [] };
      if (method === 'GET' && path === '/users/list') return { status: 200, body: [{ id: 1, name: 'Ana' }] };
      if (method === 'GET' && path === '/settings') return { status: 200, body: [{ key: 'scheduleType', value: 'disabled' }] };
      if (method === 'PUT' && path === '/queue/5') return { status: 200, body: { ...QUEUE, ...(body as object) } };
      return undefined;
    });
    let closed = false;
    renderPage(<QueueDialog open queueId={5} onClose={() => (closed = true)} />);
    const nested = await screen.findByLabelText('Opção 1.1 — Nome da opção');
    expect((nested as HTMLInputElement).value).toBe('Básico');
    // no schedule tab unless scheduleType is queue
    expect(screen.queryByRole('tab', { name: 'Horários de atendimento' })).toBeNull();
    fireEvent.change(nested, { target: { value: 'Plano básico' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(closed).toBe(true));
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toMatchObject({
      name: 'Vendas',
      chatbots: [{ id: 11, name: 'Planos', options: [{ id: 12, name: 'Plano básico', options: [] }] }],
    });
    // the first toast of a file loads the toast holders' code
    expect(await screen.findByText('Fila salva com sucesso!', {}, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByText('Bot saved successfully')).toBeTruthy();
  });

  it('validates before saving and shows the schedule tab when scheduleType is queue', async () => {
    await start();
    const calls = serveApi(({ method, path }) => {
      if (method === 'GET' && path === '/queue') return { status: 200, body: [] };
      if (method === 'GET' && path === '/users/list') return { status: 200, body: [] };
      if (method === 'GET' && path === '/settings') return { status: 200, body: [{ key: 'scheduleType', value: 'queue' }] };
      if (method === 'POST' && path === '/queue') return { status: 409, body: { error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' } };
      return undefined;
    });
    renderPage(<QueueDialog open queueId={null} onClose={() => {}} />);
    expect(await screen.findByRole('tab', { name: 'Horários de atendimento' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Corrija os campos destacados antes de salvar.')).toBeTruthy();
    expect(screen.getByText('Obrigatório quando o horário é por fila')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    const dialog = screen.getByRole('dialog');
    // name, greeting, out-of-hours message
    const [name, , outOfHours] = within(dialog).getAllByRole('textbox') as HTMLInputElement[];
    fireEvent.change(name as HTMLInputElement, { target: { value: 'Nova' } });
    fireEvent.change(outOfHours as HTMLInputElement, { target: { value: 'Fechado' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    // the catalogue's code, translated by the core
    expect(await screen.findByText('Esta cor já está em uso, escolha outra.', {}, { timeout: 5000 })).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      name: 'Nova',
      color: '#7C7C7C',
      outOfHoursMessage: 'Fechado',
    });
  });
});

describe('QueuesPage', () => {
  it('lists id, name, colour, order and greeting for admins', async () => {
    await start();
    const { chatbots: _tree, ...row } = QUEUE;
    serveApi(({ method, path }) => (method === 'GET' && path === '/queue' ? { status: 200, body: [row] } : undefined));
    renderPage(<QueuesPage />);
    expect(await screen.findByText('Vendas')).toBeTruthy();
    expect(screen.getByText('#2E7D32')).toBeTruthy();
    expect(screen.getByText('Bem-vindo às vendas')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Adicionar fila/ })).toBeTruthy();
  });

  it('denies profile users', async () => {
    await start({ profile: 'user' });
    const calls = serveApi();
    renderPage(<QueuesPage />);
    expect(await screen.findByText('Oops! Acesso Negado!')).toBeTruthy();
    expect(calls.some((call) => call.path === '/queue')).toBe(false);
  });
});
