import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { CARD_ROW_HEIGHT } from './components/KanbanCard';
import { EmbedKeysPage } from './pages/EmbedKeysPage';
import { KanbanPage } from './pages/KanbanPage';
import { TagsKanbanPage } from './pages/TagsKanbanPage';
import { dataTransfer, renderPage, serveApi, signIn } from './testing/render';
import type { EmbedKey, KanbanTicket, Lane } from './types';

const lane = (id: number, name: string, fields: Partial<Lane> = {}): Lane => ({
  id,
  name,
  color: '#00AA33',
  kanban: 1,
  timeLane: null,
  nextLaneId: null,
  greetingMessageLane: null,
  rollbackLaneId: null,
  ticketTags: 0,
  ...fields,
});

const card = (id: number, laneId: number | null, fields: Partial<KanbanTicket> = {}): KanbanTicket => ({
  id,
  uuid: `uuid-${id}`,
  status: 'open',
  channel: 'whatsapp',
  contact: { id: 100 + id, name: `Cliente ${id}`, number: '5511999990000', isGroup: false },
  lastMessage: `Mensagem ${id}`,
  unreadMessages: 0,
  updatedAt: '2024-03-05T10:00:00.000Z',
  whatsapp: null,
  user: null,
  queueId: null,
  tags: [],
  laneId,
  ...fields,
});

const answer =
  (method: string, path: string, body: unknown, status = 200) =>
  (call: { method: string; path: string }) =>
    call.method === method && call.path === path ? { status, body } : undefined;

describe('KanbanPage', () => {
  beforeEach(() => signIn());

  it('shows the default lane and one lane per kanban tag with their cards and the fields of docs/product/administration.md#screens-and-routes', async () => {
    serveApi(
      answer('GET', '/tag/kanban', { lista: [lane(7, 'Proposta'), lane(8, 'Fechado')] }),
      answer('GET', '/ticket/kanban', {
        tickets: [card(1, null), card(2, 7, { unreadMessages: 3, user: { id: 5, name: 'Bruno' } }), card(3, 7)],
      }),
    );
    renderPage(<KanbanPage />);
    const proposta = await screen.findByTestId('kanban-lane-7');
    expect(within(screen.getByTestId('kanban-lane-default')).getByText('Em aberto')).toBeTruthy();
    expect(within(proposta).getByText('Proposta')).toBeTruthy();
    expect(within(proposta).getByText('2 tickets')).toBeTruthy();
    expect(within(screen.getByTestId('kanban-lane-8')).getByText('Nenhum ticket nesta coluna')).toBeTruthy();
    const second = screen.getByTestId('kanban-card-2');
    expect(within(second).getByText('#2 Cliente 2')).toBeTruthy();
    expect(within(second).getByText('Mensagem 2')).toBeTruthy();
    expect(within(second).getByText('Bruno')).toBeTruthy();
    expect(within(second).getByText('05/03/2024')).toBeTruthy();
    expect(within(second).getByText('Ver Ticket').closest('a')?.getAttribute('href')).toBe('/tickets/uuid-2');
    expect(screen.getByText('+ Adicionar colunas')).toBeTruthy();
  });

  it('moves a dropped card with DELETE then PUT and their toasts', async () => {
    const calls = serveApi(
      answer('GET', '/tag/kanban', { lista: [lane(7, 'Proposta'), lane(8, 'Fechado')] }),
      answer('GET', '/ticket/kanban', { tickets: [card(2, 7)] }),
      answer('DELETE', '/ticket-tags/2', undefined, 204),
      answer('PUT', '/ticket-tags/2/8', undefined, 204),
    );
    renderPage(<KanbanPage />);
    const cardElement = await screen.findByTestId('kanban-card-2');
    const drag = dataTransfer();
    fireEvent.dragStart(cardElement, { dataTransfer: drag });
    fireEvent.dragOver(screen.getByTestId('kanban-lane-8'), { dataTransfer: drag });
    fireEvent.drop(screen.getByTestId('kanban-lane-8'), { dataTransfer: drag });
    await screen.findByText('Ticket Tag Adicionado com Sucesso!', undefined, { timeout: 5_000 });
    expect(screen.getByText('Ticket Tag Removido!')).toBeTruthy();
    const writes = calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.path}`);
    expect(writes).toEqual(['DELETE /ticket-tags/2', 'PUT /ticket-tags/2/8']);
  });

  it('shows a dropped card in its new lane at once, faded in its old one, until the board reloads', async () => {
    let moved = false;
    const calls = serveApi(
      answer('GET', '/tag/kanban', { lista: [lane(7, 'Proposta'), lane(8, 'Fechado')] }),
      (call) =>
        call.path === '/ticket/kanban' && call.method === 'GET'
          ? {
              status: 200,
              body: {
                tickets: [card(2, moved ? 8 : 7), card(3, 7)],
                laneCounts: [
                  { laneId: null, count: 0 },
                  { laneId: 7, count: moved ? 1 : 2 },
                  { laneId: 8, count: moved ? 1 : 0 },
                ],
              },
            }
          : undefined,
      (call) => (call.method === 'DELETE' ? { status: 204 } : undefined),
      (call) => {
        if (call.method !== 'PUT') return undefined;
        moved = true;
        return { status: 204 };
      },
    );
    renderPage(<KanbanPage />);
    const drag = dataTransfer();
    fireEvent.dragStart(await screen.findByTestId('kanban-card-2'), { dataTransfer: drag });
    fireEvent.drop(screen.getByTestId('kanban-lane-8'), { dataTransfer: drag });
    const [fechado, proposta] = [screen.getByTestId('kanban-lane-8'), screen.getByTestId('kanban-lane-7')];
    expect(within(fechado).getByTestId('kanban-card-2').className).not.toContain('kb-moving');
    expect(within(proposta).getByTestId('kanban-card-2').className).toContain('kb-moving');
    expect(within(fechado).getByText('1 ticket')).toBeTruthy();
    expect(within(proposta).getByText('1 ticket')).toBeTruthy();
    // the reload after the PUT: the server's answer, the card only in its new lane
    await waitFor(() => expect(within(proposta).queryByTestId('kanban-card-2')).toBeNull());
    expect(within(fechado).getByTestId('kanban-card-2').className).not.toContain('kb-moving');
    expect(calls.filter((call) => call.path === '/ticket/kanban').length).toBeGreaterThanOrEqual(2);
  });

  it('to the default lane only removes the lane tag', async () => {
    const calls = serveApi(
      answer('GET', '/tag/kanban', { lista: [lane(7, 'Proposta')] }),
      answer('GET', '/ticket/kanban', { tickets: [card(2, 7)] }),
      answer('DELETE', '/ticket-tags/2', undefined, 204),
    );
    renderPage(<KanbanPage />);
    const drag = dataTransfer();
    fireEvent.dragStart(await screen.findByTestId('kanban-card-2'), { dataTransfer: drag });
    fireEvent.drop(screen.getByTestId('kanban-lane-default'), { dataTransfer: drag });
    await screen.findByText('Ticket Tag Removido!', undefined, { timeout: 5_000 });
    expect(calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.path}`)).toEqual([
      'DELETE /ticket-tags/2',
    ]);
  });

  it("moves a card through its 'Mover para' menu too (touch screens, keyboards)", async () => {
    const calls = serveApi(
      answer('GET', '/tag/kanban', { lista: [lane(7, 'Proposta'), lane(8, 'Fechado')] }),
      answer('GET', '/ticket/kanban', { tickets: [card(2, 7)] }),
      answer('DELETE', '/ticket-tags/2', undefined, 204),
      answer('PUT', '/ticket-tags/2/8', undefined, 204),
    );
    renderPage(<KanbanPage />);
    const cardElement = await screen.findByTestId('kanban-card-2');
    fireEvent.click(within(cardElement).getByLabelText('Mover para'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Fechado' }));
    await screen.findByText('Ticket Tag Adicionado com Sucesso!', undefined, { timeout: 5_000 });
    expect(calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.path}`)).toEqual([
      'DELETE /ticket-tags/2',
      'PUT /ticket-tags/2/8',
    ]);
  });

  it('renders only a window of a lane of 5,000 cards', async () => {
    const many = Array.from({ length: 5_000 }, (_unused, index) => card(index + 1, 7));
    serveApi(answer('GET', '/tag/kanban', { lista: [lane(7, 'Proposta')] }), answer('GET', '/ticket/kanban', { tickets: many }));
    renderPage(<KanbanPage />);
    const laneElement = await screen.findByTestId('kanban-lane-7');
    await within(laneElement).findByText('5000 tickets');
    const rendered = laneElement.querySelectorAll('[data-ticket-id]').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(40);
  });

  it("loads every lane's first cards with the counts, then a lane's further cards as it scrolls to them", async () => {
    const first = Array.from({ length: 20 }, (_unused, index) => card(1_000 + index, 7));
    const calls = serveApi(
      answer('GET', '/tag/kanban', { lista: [lane(7, 'Proposta')] }),
      (call) =>
        call.path === '/ticket/kanban' && call.query.get('perLane') === '20'
          ? {
              status: 200,
              body: {
                tickets: first,
                laneCounts: [
                  { laneId: null, count: 0 },
                  { laneId: 7, count: 120 },
                ],
              },
            }
          : undefined,
      (call) => {
        if (call.path !== '/ticket/kanban' || call.query.get('lane') !== '7') return undefined;
        const offset = Number(call.query.get('offset'));
        const tickets = Array.from({ length: 50 }, (_unused, index) => card(1_000 + offset + index, 7));
        return { status: 200, body: { tickets, laneCounts: [{ laneId: 7, count: 120 }] } };
      },
    );
    renderPage(<KanbanPage />);
    const laneElement = await screen.findByTestId('kanban-lane-7');
    await within(laneElement).findByText('120 tickets');
    expect(within(laneElement).getByTestId('kanban-card-1000')).toBeTruthy();
    // the first screen (and a little more) needs nothing beyond the first cards
    expect(calls.filter((call) => call.query.has('lane'))).toHaveLength(0);

    const list = screen.getByTestId('kanban-lane-list-7');
    list.scrollTop = CARD_ROW_HEIGHT * 40;
    fireEvent.scroll(list);
    // row 40 is card 40 of the lane: in the page of 50 from offset 20
    await within(laneElement).findByTestId('kanban-card-1040');
    const pages = calls.filter((call) => call.query.has('lane'));
    expect(pages.map((call) => `${call.query.get('offset')}+${call.query.get('limit')}`)).toEqual(['20+50']);
    expect(laneElement.querySelectorAll('[data-ticket-id]').length).toBeLessThan(40);
  });

  it("sends the user's queues and hides '+ Adicionar colunas' without dashboard:view", async () => {
    await signIn({ profile: 'user', showDashboard: 'disabled', queues: [{ id: 4, name: 'Vendas', color: '#000' }] });
    const calls = serveApi(answer('GET', '/tag/kanban', { lista: [] }), answer('GET', '/ticket/kanban', { tickets: [] }));
    renderPage(<KanbanPage />);
    await screen.findByTestId('kanban-lane-default');
    expect(calls.find((call) => call.path === '/ticket/kanban')?.query.get('queueIds')).toBe('[4]');
    expect(screen.queryByText('+ Adicionar colunas')).toBeNull();
  });

  it('applies the date range on Buscar', async () => {
    const calls = serveApi(answer('GET', '/tag/kanban', { lista: [] }), answer('GET', '/ticket/kanban', { tickets: [] }));
    renderPage(<KanbanPage />);
    await screen.findByTestId('kanban-lane-default');
    fireEvent.change(screen.getByLabelText('Data de início'), { target: { value: '2024-01-01' } });
    fireEvent.change(screen.getByLabelText('Data de fim'), { target: { value: '2024-01-31' } });
    fireEvent.click(screen.getByText('Buscar'));
    await waitFor(() => {
      const last = calls.filter((call) => call.path === '/ticket/kanban').at(-1);
      expect(last?.query.get('startDate')).toBe('2024-01-01');
      expect(last?.query.get('endDate')).toBe('2024-01-31');
    });
  });
});

describe('TagsKanbanPage', () => {
  beforeEach(() => signIn());

  it('lists the kanban tags with chip, ticket count and automation, and offers add and the way back', async () => {
    const calls = serveApi(
      answer('GET', '/tags', {
        tags: [lane(7, 'Proposta', { ticketTags: 12, timeLane: 30, nextLaneId: 8 }), lane(8, 'Follow-up')],
        hasMore: false,
      }),
      answer('GET', '/tag/kanban', { lista: [lane(7, 'Proposta'), lane(8, 'Follow-up')] }),
    );
    renderPage(<TagsKanbanPage />);
    expect(await screen.findByText('Proposta')).toBeTruthy();
    expect(screen.getByText('12')).toBeTruthy();
    expect(await screen.findByText('Após 30 min → Follow-up', undefined, { timeout: 3_000 })).toBeTruthy();
    expect(screen.getByText('Voltar para o Kanban')).toBeTruthy();
    expect(screen.getByText('Adicionar coluna')).toBeTruthy();
    expect(calls.find((call) => call.path === '/tags')?.query.get('kanban')).toBe('1');
  });

  it('offers edit, delete and add only to those who may manage lanes (not to an agent who opens it by URL)', async () => {
    const lanes = () =>
      serveApi(
        answer('GET', '/tags', { tags: [lane(7, 'Proposta')], hasMore: false }),
        answer('GET', '/tag/kanban', { lista: [lane(7, 'Proposta')] }),
      );
    signIn({ profile: 'user', showDashboard: 'disabled' });
    lanes();
    const agentView = renderPage(<TagsKanbanPage />);
    expect(await screen.findByText('Proposta')).toBeTruthy();
    expect(screen.queryByLabelText('Editar')).toBeNull();
    expect(screen.queryByLabelText('Excluir')).toBeNull();
    expect(screen.queryByText('Adicionar coluna')).toBeNull();
    expect(screen.getByText('Voltar para o Kanban')).toBeTruthy();
    agentView.unmount();
    signIn();
    lanes();
    renderPage(<TagsKanbanPage />);
    expect(await screen.findByText('Proposta')).toBeTruthy();
    expect(screen.getByLabelText('Editar')).toBeTruthy();
    expect(screen.getByLabelText('Excluir')).toBeTruthy();
    expect(screen.getByText('Adicionar coluna')).toBeTruthy();
  });
});

describe('EmbedKeysPage', () => {
  beforeEach(() => signIn());

  it('lists the keys and shows the snippet of one', async () => {
    const key: EmbedKey = {
      id: 3,
      name: 'Loja',
      key: 'kbk_abcdefghijklmnopqrstuvwxyz012345',
      secret: 's3cr3t',
      allowedOrigins: ['https://loja.example'],
      mayMove: true,
      signedUsers: false,
      laneIds: null,
      revoked: false,
      revokedAt: null,
      lastUsedAt: null,
      createdAt: '2024-01-01T00:00:00.000Z',
    };
    serveApi(answer('GET', '/kanban-embed-keys', [key]), answer('GET', '/tag/kanban', { lista: [] }));
    renderPage(<EmbedKeysPage />);
    expect(await screen.findByText('Loja')).toBeTruthy();
    expect(screen.getByText('https://loja.example')).toBeTruthy();
    expect(screen.getByText('Pode mover')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Código'));
    const snippet = (await screen.findByTestId('embed-snippet')) as HTMLTextAreaElement;
    expect(snippet.value).toContain('data-key="kbk_abcdefghijklmnopqrstuvwxyz012345"');
    expect(snippet.value).toContain('/plugins/kanban/widget/kanban-widget.js');
  });
});
