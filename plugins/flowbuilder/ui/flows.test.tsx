import { narrowScreen } from '@balcao/plugin-sdk/testing/ui';
import { registerPermissions } from '@balcao/plugin-sdk/ui';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { duplicatePlacement, type emptyData, FLOW_LIMITS, newNodeId, placementAfter, questionVariables } from './flows/model';
import { NodeDialog } from './flows/NodeDialog';
import { mediaProblem } from './flows/validate';
import { FlowEditorPage } from './pages/FlowEditorPage';
import { FlowListPage } from './pages/FlowListPage';
import { FlowReplayPage } from './pages/FlowReplayPage';
import { renderPage, serveApi, signIn } from './testing/render';

const answer =
  (method: string, path: string, body: unknown, status = 200) =>
  (call: { method: string; path: string }) =>
    call.method === method && call.path === path ? { status, body } : undefined;

beforeAll(() => registerPermissions({ 'integrations:manage': ['admin'] }));

describe('FlowListPage', () => {
  beforeEach(() => signIn());

  it('lists flows as Ativo or Desativado and deletes one after the documented confirmation', async () => {
    const calls = serveApi(
      answer('GET', '/flowbuilder', {
        flows: [
          { id: 1, name: 'Boas-vindas', active: true },
          { id: 2, name: 'Pós-venda', active: false },
        ],
        hasMore: false,
      }),
      answer('DELETE', '/flowbuilder/2', undefined, 204),
    );
    renderPage(<FlowListPage />, '/flowbuilders');
    expect(await screen.findByText('Boas-vindas')).toBeTruthy();
    expect(screen.getByText('Ativo')).toBeTruthy();
    expect(screen.getByText('Desativado')).toBeTruthy();
    expect(screen.getByText('Fluxos de conversa')).toBeTruthy();

    fireEvent.click(screen.getByLabelText('Ações do fluxo Pós-venda'));
    fireEvent.click(await screen.findByText('Excluir'));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Tem certeza que deseja deletar este fluxo? Todas as integrações relacionados serão perdidos.'),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    // a busy machine: the toast follows the call's round trip
    expect(await screen.findByText('Fluxo excluído com sucesso', {}, { timeout: 5_000 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Pós-venda')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/flowbuilder/2')).toBe(true);
  });

  it('duplicates after its confirmation and shows the copy', async () => {
    const calls = serveApi(
      answer('GET', '/flowbuilder', { flows: [{ id: 1, name: 'Boas-vindas', active: true }], hasMore: false }),
      answer('POST', '/flowbuilder/duplicate', { id: 9, name: 'Boas-vindas - cópia', active: false }),
    );
    renderPage(<FlowListPage />, '/flowbuilders');
    fireEvent.click(await screen.findByLabelText('Ações do fluxo Boas-vindas'));
    fireEvent.click(await screen.findByText('Duplicar'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Tem certeza que deseja duplicar este fluxo?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Duplicar' }));
    expect(await screen.findByText('Fluxo duplicado com sucesso', {}, { timeout: 5_000 })).toBeTruthy();
    expect(await screen.findByText('Boas-vindas - cópia')).toBeTruthy();
    expect(calls.find((call) => call.path === '/flowbuilder/duplicate')?.body).toEqual({ flowId: 1 });
  });

  it('shows an empty state, and checks the new flow’s name with the documented texts', async () => {
    const calls = serveApi(answer('GET', '/flowbuilder', { flows: [], hasMore: false }));
    renderPage(<FlowListPage />, '/flowbuilders');
    expect(await screen.findByText('Nenhum fluxo criado ainda.')).toBeTruthy();
    fireEvent.click(screen.getByText('Adicionar Fluxo'));
    const dialog = await screen.findByRole('dialog');
    const submit = within(dialog).getByRole('button', { name: 'Adicionar' });
    fireEvent.click(submit);
    expect(await within(dialog).findByText('Digite um nome!')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'A' } });
    expect(await within(dialog).findByText('Muito curto!')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'x'.repeat(51) } });
    expect(await within(dialog).findByText('Muito longo!')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
});

describe('FlowListPage on a phone', () => {
  beforeEach(() => signIn());

  it('shows the flows as a list whose names open the editor', async () => {
    const wide = narrowScreen();
    try {
      serveApi(answer('GET', '/flowbuilder', { flows: [{ id: 3, name: 'Suporte', active: true }], hasMore: false }));
      renderPage(<FlowListPage />, '/flowbuilders');
      const link = await screen.findByRole('link', { name: 'Suporte' });
      expect(link.getAttribute('href')).toBe('/flowbuilder/3');
      expect(screen.queryByRole('table')).toBeNull();
      expect(screen.getByLabelText('Ações do fluxo Suporte')).toBeTruthy();
    } finally {
      wide();
    }
  });
});

describe('NodeDialog', () => {
  beforeEach(() => signIn());

  const open = (kind: Parameters<typeof emptyData>[0], saved: unknown[]) =>
    renderPage(
      <NodeDialog open mode="create" kind={kind} variables={['nome']} onSave={(data) => saved.push(data)} onCancel={() => {}} />,
    );

  it('keeps an interval inside 1 to 120 seconds with the documented texts', async () => {
    const saved: unknown[] = [];
    open('interval', saved);
    const seconds = await screen.findByLabelText('Segundos');
    fireEvent.change(seconds, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText('Adicione o valor de intervalo')).toBeTruthy();
    fireEvent.change(seconds, { target: { value: '121' } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText('Máximo de tempo atingido 120 segundos')).toBeTruthy();
    fireEvent.change(seconds, { target: { value: '30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(saved).toEqual([{ label: 'Intervalo 30 seg.', sec: 30 }]));
  });

  it('asks a ticket node for its queue', async () => {
    serveApi(answer('GET', '/queue', [{ id: 4, name: 'Vendas' }]));
    const saved: unknown[] = [];
    open('ticket', saved);
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText('Adicione uma fila')).toBeTruthy();
    expect(saved).toEqual([]);
  });

  it('refuses a content block with an empty message and shows the flow’s variables', async () => {
    const saved: unknown[] = [];
    open('singleBlock', saved);
    expect(await screen.findByText('{{nome}}')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: /Texto/ })[0] as HTMLElement);
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText('Campos de mensagem vazio!')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Texto'), { target: { value: 'Olá {{nome}}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const block = saved[0] as { seq: string[]; elements: { number: string; value: string }[] };
    expect(block.elements[0]?.value).toBe('Olá {{nome}}');
    expect(block.seq).toEqual([block.elements[0]?.number]);
  });

  it('needs a question’s message and variable', async () => {
    const saved: unknown[] = [];
    open('question', saved);
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText('Escreva a pergunta.')).toBeTruthy();
    expect(screen.getByText('Informe a variável que guarda a resposta.')).toBeTruthy();
  });
});

describe('the flow document rules', () => {
  it('makes node ids of 30 random alphanumerics', () => {
    const ids = new Set(Array.from({ length: 200 }, () => newNodeId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{30}$/);
  });

  it('places a new node 40 px after the last and a duplicate 240 px right of the right-most', () => {
    expect(placementAfter({ position: { x: 100, y: 50 }, measured: { width: 220 } })).toEqual({ x: 360, y: 50 });
    const nodes = [{ position: { x: 0, y: 0 } }, { position: { x: 900, y: 30 } }];
    expect(duplicatePlacement(nodes, { position: { x: 0, y: 70 } })).toEqual({
      x: 900 + FLOW_LIMITS.duplicateOffsetPx,
      y: 70,
    });
  });

  it('refuses media over 2, 5 and 20 MB or of another type', () => {
    const mb = 1024 * 1024;
    expect(mediaProblem('img', { name: 'a.png', size: 2 * mb })).toBeUndefined();
    expect(mediaProblem('img', { name: 'a.png', size: 2 * mb + 1 })).toBe('validation.imgSize');
    expect(mediaProblem('img', { name: 'a.gif', size: 10 })).toBe('validation.imgType');
    expect(mediaProblem('audio', { name: 'a.mp3', size: 5 * mb + 1 })).toBe('validation.audioSize');
    expect(mediaProblem('video', { name: 'a.mov', size: 10 })).toBe('validation.videoType');
    expect(mediaProblem('video', { name: 'a.mp4', size: 20 * mb })).toBeUndefined();
  });

  it('rebuilds the variable names from the question nodes', () => {
    const question = (answerKey: string) => ({ type: 'question', data: { typebotIntegration: { message: 'q', answerKey } } });
    expect(questionVariables([question('nome'), question('cpf'), question('nome'), { type: 'menu', data: {} }])).toEqual([
      'cpf',
      'nome',
    ]);
  });
});

describe('FlowReplayPage', () => {
  beforeEach(() => signIn());

  it('lists the steps a ticket took with the variables at each one', async () => {
    serveApi(
      answer('GET', '/flowbuilder/runs/77', {
        flowId: 5,
        steps: [
          { nodeId: '1', at: '2026-11-28T10:00:00.000Z', variables: {} },
          { nodeId: 'Q'.repeat(30), at: '2026-11-28T10:00:05.000Z', variables: { nome: 'Maria' } },
        ],
      }),
      answer('GET', '/flowbuilder/flow/5', {
        flow: {
          id: 5,
          name: 'Boas-vindas',
          active: true,
          flow: {
            nodes: [
              { id: '1', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Inicio do fluxo' } },
              {
                id: 'Q'.repeat(30),
                type: 'question',
                position: { x: 300, y: 0 },
                data: { typebotIntegration: { message: 'Seu nome?', answerKey: 'nome' } },
              },
            ],
            connections: [{ id: 'e1', source: '1', target: 'Q'.repeat(30), sourceHandle: 'a' }],
          },
        },
      }),
    );
    renderPage(
      <Routes>
        <Route path="/flowbuilder/runs/:ticketId" element={<FlowReplayPage />} />
      </Routes>,
      '/flowbuilder/runs/77',
    );
    expect(await screen.findByText('Caminho do ticket 77')).toBeTruthy();
    const steps = await screen.findAllByTestId('replay-step');
    expect(steps).toHaveLength(2);
    expect(within(steps[0] as HTMLElement).getByText('Sem variáveis neste passo.')).toBeTruthy();
    expect(within(steps[1] as HTMLElement).getByText('Maria')).toBeTruthy();
    expect(within(steps[1] as HTMLElement).getByText(/Pergunta/)).toBeTruthy();
  });

  it('says when the ticket never went through a flow', async () => {
    serveApi(answer('GET', '/flowbuilder/runs/78', { flowId: null, steps: [] }));
    renderPage(
      <Routes>
        <Route path="/flowbuilder/runs/:ticketId" element={<FlowReplayPage />} />
      </Routes>,
      '/flowbuilder/runs/78',
    );
    expect(await screen.findByText('Este ticket não passou por um fluxo.')).toBeTruthy();
  });
});

describe('FlowEditorPage', () => {
  beforeEach(() => signIn());

  it('shows the not-found result for an id that is no number', async () => {
    serveApi();
    renderPage(
      <Routes>
        <Route path="/flowbuilder/:id" element={<FlowEditorPage />} />
      </Routes>,
      '/flowbuilder/abc',
    );
    expect(await screen.findByText('Fluxo não encontrado.')).toBeTruthy();
  });

  const plan = (flags: Record<string, boolean>) => ({
    id: 1,
    name: 'Acme',
    planId: 1,
    plan: { id: 1, name: 'Plano', users: 10, connections: 10, queues: 10, useIntegrations: true, ...flags },
  });
  const OPENAI_NODE = {
    id: 'O'.repeat(30),
    type: 'openai',
    position: { x: 300, y: 0 },
    data: {
      typebotIntegration: {
        name: 'Assistente',
        prompt: 'Responda com educação.',
        apiKey: '••••••1234',
        voice: 'texto',
        voiceKey: '',
        voiceRegion: '',
        maxTokens: 100,
        temperature: 1,
        queueId: null,
        maxMessages: 10,
      },
    },
  };
  /** The editor on flow 5; `openaiAvailable`: the server's answer beside the flow. */
  const openEditor = (
    nodes: unknown[],
    connections: unknown[],
    openaiAvailable: boolean,
    ...more: Parameters<typeof serveApi>
  ) => {
    const calls = serveApi(
      answer('GET', '/flowbuilder/flow/5', {
        flow: { id: 5, name: 'Boas-vindas', active: true, flow: { nodes, connections } },
        openaiAvailable,
      }),
      ...more,
    );
    renderPage(
      <Routes>
        <Route path="/flowbuilder/:id" element={<FlowEditorPage />} />
      </Routes>,
      '/flowbuilder/5',
    );
    return calls;
  };
  // a whole editor (canvas, dialogs, the check) in happy-dom: a loaded two-core machine took 15 s for one
  const EDITOR_TEST_MS = 40_000;
  const START = { id: '1', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Inicio do fluxo' } };

  it('offers the openai node when the server says the company may run it', { timeout: EDITOR_TEST_MS }, async () => {
    const calls = openEditor([START], [], true, answer('GET', '/companies/listPlan/1', plan({ useOpenAi: true })));
    await screen.findByTestId('flow-node-start', {}, { timeout: 5_000 });
    fireEvent.click(screen.getByLabelText('Adicionar nó'));
    fireEvent.click(await screen.findByRole('menuitem', { name: /OpenAI/ }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Adicionar OpenAI')).toBeTruthy();
    expect((within(dialog).getByLabelText('Máximo de tokens') as HTMLInputElement).value).toBe('100');
    expect(Number((within(dialog).getByLabelText('Temperatura') as HTMLInputElement).value)).toBe(1);
    expect((within(dialog).getByLabelText('Máximo de mensagens') as HTMLInputElement).value).toBe('10');
    // the server's answer is the only one read: the editor no longer asks for the plugin list itself
    expect(calls.some((call) => call.path === '/plugins')).toBe(false);
  });

  it('hides the openai node when the server says no, and a flow’s openai node says it is unavailable', {
    timeout: EDITOR_TEST_MS,
  }, async () => {
    // the plan has useOpenAi, but the server (which knows whether the AI plugin runs) says no: the server wins
    const calls = openEditor(
      [START, OPENAI_NODE],
      [{ id: 'e1', source: '1', target: OPENAI_NODE.id, sourceHandle: 'a' }],
      false,
      answer('GET', '/companies/listPlan/1', plan({ useOpenAi: true })),
    );
    const notice = await screen.findByTestId('openai-unavailable', {}, { timeout: 5_000 });
    expect(notice.textContent).toContain('O nó OpenAI não está disponível para esta empresa');
    fireEvent.click(screen.getByLabelText('Adicionar nó'));
    expect(await screen.findByRole('menuitem', { name: /Menu/ })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: /OpenAI/ })).toBeNull();
    // the check before saving names it as an error: nothing is sent
    fireEvent.click(screen.getByRole('button', { name: /Salvar$/ }));
    expect(await screen.findByText('O serviço de IA não está disponível nesta instalação.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('loads a condition node, edits it in its dialog and saves it', { timeout: EDITOR_TEST_MS }, async () => {
    const condition = {
      id: 'C'.repeat(30),
      type: 'condition',
      position: { x: 300, y: 0 },
      data: { key: 'nome', condition: '==', value: 'Maria' },
    };
    const message = (id: string, label: string) => ({ id, type: 'message', position: { x: 600, y: 0 }, data: { label } });
    const calls = openEditor(
      [START, condition, message('M'.repeat(30), 'Olá Maria'), message('N'.repeat(30), 'Olá')],
      [
        { id: 'e1', source: '1', target: condition.id, sourceHandle: 'a' },
        { id: 'e2', source: condition.id, target: 'M'.repeat(30), sourceHandle: 'a' },
        { id: 'e3', source: condition.id, target: 'N'.repeat(30), sourceHandle: 'b' },
      ],
      false,
      answer('POST', '/flowbuilder/flow', { ok: true }),
    );
    const card = await screen.findByTestId('flow-node-condition', {}, { timeout: 5_000 });
    expect(within(card).getByText('nome == Maria')).toBeTruthy();
    expect(within(card).getByText('Verdadeiro')).toBeTruthy();
    fireEvent.doubleClick(card);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Editar Condição')).toBeTruthy();
    const value = within(dialog).getByLabelText('Valor') as HTMLInputElement;
    expect(value.value).toBe('Maria');
    fireEvent.change(value, { target: { value: 'João' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(within(card).getByText('nome == João')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: /Salvar$/ }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    const body = calls.find((call) => call.method === 'POST')?.body as { nodes: { id: string; data: unknown }[] };
    expect(body.nodes.find((node) => node.id === condition.id)?.data).toEqual({ key: 'nome', condition: '==', value: 'João' });
  });

  it('asks before the tab closes only while changes are unsaved', { timeout: EDITOR_TEST_MS }, async () => {
    openEditor([START], [], false, answer('POST', '/flowbuilder/flow', { ok: true }));
    await screen.findByTestId('flow-node-start', {}, { timeout: 5_000 });
    const leaving = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(leaving()).toBe(false);
    fireEvent.click(screen.getByLabelText('Adicionar nó'));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Mensagem/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Mensagem'), { target: { value: 'Olá' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await screen.findByTestId('flow-node-message');
    expect(leaving()).toBe(true);
    // saved: nothing to lose any more (the check lists the unreachable message first)
    fireEvent.click(screen.getByRole('button', { name: /Salvar$/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Salvar mesmo assim' }));
    expect(await screen.findByText('Fluxo salvo com sucesso', {}, { timeout: 5_000 })).toBeTruthy();
    expect(leaving()).toBe(false);
  });
});

describe('the openai node dialog', () => {
  beforeEach(() => signIn());

  const openAi = (saved: unknown[], data?: unknown, openaiAvailable = true) =>
    renderPage(
      <NodeDialog
        open
        mode={data ? 'edit' : 'create'}
        kind="openai"
        data={data as Parameters<typeof NodeDialog>[0]['data']}
        variables={[]}
        openaiAvailable={openaiAvailable}
        onSave={(value) => saved.push(value)}
        onCancel={() => {}}
      />,
    );

  it('needs a name, an api key and a prompt, and keeps the documented defaults', async () => {
    const saved: unknown[] = [];
    openAi(saved);
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar' }));
    expect(await screen.findAllByText('Nome, chave da API e prompt são obrigatórios.')).toHaveLength(3);
    fireEvent.change(screen.getByLabelText('Nome'), { target: { value: 'Assistente' } });
    fireEvent.change(screen.getByLabelText('Chave da API'), { target: { value: 'sk-test-9876' } });
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'Responda com educação.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({
      typebotIntegration: {
        name: 'Assistente',
        prompt: 'Responda com educação.',
        voice: 'texto',
        voiceKey: '',
        voiceRegion: '',
        maxTokens: 100,
        temperature: 1,
        apiKey: 'sk-test-9876',
        queueId: null,
        maxMessages: 10,
      },
    });
  });

  it('shows a saved key only masked and keeps it when left blank', async () => {
    const saved: unknown[] = [];
    openAi(saved, OPENAI_DATA);
    const key = (await screen.findByLabelText('Chave da API')) as HTMLInputElement;
    expect(key.value).toBe('');
    expect(screen.getByText('Deixe em branco para manter a chave salva (••••••1234).')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect((saved[0] as typeof OPENAI_DATA).typebotIntegration.apiKey).toBe('••••••1234');
  });

  it('only shows an openai node the company cannot run', async () => {
    const saved: unknown[] = [];
    openAi(saved, OPENAI_DATA, false);
    expect(await screen.findByText(/O nó OpenAI não está disponível para esta empresa/)).toBeTruthy();
    expect((screen.getByLabelText('Nome') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Salvar' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

const OPENAI_DATA = {
  typebotIntegration: {
    name: 'Assistente',
    prompt: 'Responda com educação.',
    apiKey: '••••••1234',
    voice: 'texto',
    voiceKey: '',
    voiceRegion: '',
    maxTokens: 100,
    temperature: 1,
    queueId: null,
    maxMessages: 10,
  },
};
