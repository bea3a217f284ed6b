import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyToList } from './api';
import ChatsPage from './pages/ChatsPage';
import ChatPopover from './slots/ChatPopover';
import { type ApiCall, narrowScreen, renderPage, serveApi, signIn } from './testing/render';
import type { Chat, ChatList, ChatMessage } from './types';

const member = (userId: number, name: string, unreads = 0, lastReadAt: string | null = null) => ({
  userId,
  unreads,
  lastReadAt,
  user: { id: userId, name },
});

const chat = (id: number, fields: Partial<Chat> = {}): Chat => ({
  id,
  uuid: `00000000-0000-4000-8000-00000000000${id}`,
  title: `Chat ${id}`,
  ownerId: 1,
  lastMessage: `última ${id}`,
  createdAt: '2024-03-05T10:00:00.000Z',
  updatedAt: '2024-03-05T10:00:00.000Z',
  users: [member(1, 'Ana'), member(2, 'Bruno')],
  ...fields,
});

const message = (id: number, senderId: number, text: string, createdAt = '2024-03-05T10:00:00.000Z'): ChatMessage => ({
  id,
  chatId: 1,
  senderId,
  sender: { id: senderId, name: senderId === 1 ? 'Ana' : 'Bruno' },
  message: text,
  mediaName: null,
  mediaType: null,
  mediaUrl: null,
  createdAt,
});

/** The page at `path`, routed as the shell routes it. */
const renderChats = (path = '/chats') =>
  renderPage(
    <Routes>
      <Route path="/chats/:id?" element={<ChatsPage />} />
      <Route path="/tickets/:ticketId" element={<p>ticket page</p>} />
    </Routes>,
    path,
  );

/** A stand-in API: the given chats and messages; writes answer what the server would. */
function serveChats(chats: Chat[], messages: ChatMessage[] = []): ApiCall[] {
  return serveApi((call) => {
    if (call.method === 'GET' && call.path === '/chats') {
      const unreads = chats.reduce((sum, c) => sum + (c.users.find((m) => m.userId === 1)?.unreads ?? 0), 0);
      return { status: 200, body: { records: chats, hasMore: false, unreads } };
    }
    const byUuid = /^\/chats\/u\/(.+)$/.exec(call.path);
    if (call.method === 'GET' && byUuid) {
      const found = chats.find((c) => c.uuid === byUuid[1]);
      return found ? { status: 200, body: found } : { status: 404, body: { error: 'ERR_NO_CHAT_FOUND' } };
    }
    if (call.method === 'GET' && /^\/chats\/\d+\/messages$/.test(call.path))
      return { status: 200, body: { records: messages, hasMore: false } };
    if (call.method === 'POST' && /^\/chats\/\d+\/messages$/.test(call.path)) {
      return { status: 200, body: message(99, 1, (call.body as { message: string }).message) };
    }
    const read = /^\/chats\/(\d+)\/read$/.exec(call.path);
    if (call.method === 'POST' && read) return { status: 200, body: chats.find((c) => c.id === Number(read[1])) };
    if (call.method === 'GET' && call.path === '/users/list') {
      return {
        status: 200,
        body: [
          { id: 1, name: 'Ana' },
          { id: 2, name: 'Bruno' },
          { id: 3, name: 'Carla' },
        ],
      };
    }
    if (call.method === 'POST' && call.path === '/chats') return { status: 200, body: chat(5, { title: 'Novo' }) };
    if (call.method === 'DELETE') return { status: 204 };
    if (call.method === 'GET' && call.path === '/tickets/42') return { status: 200, body: { id: 42, uuid: 'ticket-uuid-42' } };
    if (call.method === 'GET' && call.path.startsWith('/tickets/'))
      return { status: 404, body: { error: 'ERR_NO_TICKET_FOUND' } };
    return undefined;
  });
}

describe('ChatsPage', () => {
  beforeEach(() => signIn());

  it('lists the chats with unread counts, edit and delete for the owner only, and an empty state', async () => {
    serveChats([chat(1, { users: [member(1, 'Ana', 3), member(2, 'Bruno')] }), chat(2, { ownerId: 2 })]);
    renderChats();
    const list = await screen.findByTestId('chat-list');
    await within(list).findByText('Chat 1');
    const first = within(list).getByTestId('chat-item-1');
    const second = within(list).getByTestId('chat-item-2');
    expect(within(first as HTMLElement).getByText('3')).toBeTruthy();
    expect(within(first as HTMLElement).getByRole('button', { name: 'Editar' })).toBeTruthy();
    expect(within(first as HTMLElement).getByRole('button', { name: 'Excluir' })).toBeTruthy();
    expect(within(second as HTMLElement).queryByRole('button', { name: 'Editar' })).toBeNull();
    expect(within(second as HTMLElement).queryByRole('button', { name: 'Excluir' })).toBeNull();
    expect(screen.getByText('Selecione um chat para ver as mensagens')).toBeTruthy();
  });

  it('opens /chats/:uuid, marks it read when it has unreads, and sends on Enter ignoring blank text', async () => {
    const unread = chat(1, { users: [member(1, 'Ana', 2), member(2, 'Bruno', 0, '2024-03-05T11:00:00.000Z')] });
    const calls = serveChats([unread], [message(1, 2, 'oi Ana'), message(2, 1, 'oi Bruno', '2024-03-05T10:30:00.000Z')]);
    renderChats(`/chats/${unread.uuid}`);
    const conversation = await screen.findByTestId('chat-messages');
    await within(conversation).findByText('oi Ana');
    // Bruno read after Ana's last message: "seen by" under it
    expect(within(conversation).getByTestId('seen-by').textContent).toBe('Visto por Bruno');
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/chats/1/read')).toBe(true));
    expect(calls.find((c) => c.path === '/chats/1/read')?.body).toEqual({ userId: 1 });

    const box = screen.getByRole('textbox', { name: 'Digite uma mensagem' });
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13, charCode: 13 });
    fireEvent.change(box, { target: { value: 'tudo certo? ✅' } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13, charCode: 13 });
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST' && c.path === '/chats/1/messages')).toHaveLength(1));
    expect(calls.find((c) => c.path === '/chats/1/messages' && c.method === 'POST')?.body).toEqual({ message: 'tudo certo? ✅' });
  });

  it('links a ticket mention (#42) to the ticket, as text around it, and stays put on one the user may not see', async () => {
    const calls = serveChats([chat(1)], [message(1, 2, 'olha o #42 e o #7, <b>urgente</b>')]);
    renderChats(`/chats/${chat(1).uuid}`);
    const conversation = await screen.findByTestId('chat-messages');
    await within(conversation).findByText(/urgente/);
    expect(conversation.querySelector('b')).toBeNull();
    fireEvent.click(within(conversation).getByRole('button', { name: 'Abrir o atendimento 7' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/tickets/7')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('ticket page')).toBeNull();
    fireEvent.click(within(conversation).getByRole('button', { name: 'Abrir o atendimento 42' }));
    expect(await screen.findByText('ticket page')).toBeTruthy();
  });

  it('keeps Save disabled until the new chat has a title and a member', async () => {
    const calls = serveChats([]);
    renderChats();
    await screen.findByText('Nenhum chat ainda');
    fireEvent.click(screen.getByRole('button', { name: /Novo chat/ }));
    const dialog = await screen.findByRole('dialog');
    const save = within(dialog).getByRole('button', { name: 'Salvar' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(within(dialog).getAllByRole('textbox')[0] as HTMLElement, { target: { value: '  ' } });
    expect(save.disabled).toBe(true);
    fireEvent.change(within(dialog).getAllByRole('textbox')[0] as HTMLElement, { target: { value: 'Plantão' } });
    expect(save.disabled).toBe(true);
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    fireEvent.click(await screen.findByText('Carla'));
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.path === '/chats')?.body).toEqual({ title: 'Plantão', users: [3] }),
    );
  });

  describe('on a narrow screen', () => {
    let wide: () => void;
    beforeEach(() => {
      wide = narrowScreen();
    });
    afterEach(() => wide());

    it('shows two tabs, Chats and Mensagens, and opens the messages tab on a chat', async () => {
      serveChats([chat(1)], [message(1, 2, 'bom dia')]);
      renderChats();
      expect(await screen.findByRole('tab', { name: 'Chats' })).toBeTruthy();
      fireEvent.click(await screen.findByText('Chat 1'));
      expect(await screen.findByText('bom dia')).toBeTruthy();
      expect(screen.getByRole('tab', { name: 'Mensagens' }).getAttribute('aria-selected')).toBe('true');
    });
  });
});

describe('the top bar popover', () => {
  beforeEach(() => signIn());

  it('shows the unread total on its button and lists the latest chats with their counts; a chat opens its page', async () => {
    const calls = serveChats([
      chat(1, { users: [member(1, 'Ana', 2), member(2, 'Bruno')] }),
      chat(2, { users: [member(1, 'Ana', 1)] }),
    ]);
    renderPage(
      <Routes>
        <Route path="/" element={<ChatPopover narrow={false} />} />
        <Route path="/chats/:id?" element={<p>chats page</p>} />
      </Routes>,
    );
    const button = await screen.findByRole('button', { name: 'Abrir o chat interno' });
    fireEvent.click(button);
    const popover = await screen.findByRole('tooltip');
    await within(popover).findByText('Chat 2');
    expect(button.closest('.ant-badge')?.querySelector('sup')?.getAttribute('title')).toBe('3');
    expect(within(popover).getByText('2')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/chats')).toHaveLength(1);
    expect(within(popover).getByText('Ver todos os chats')).toBeTruthy();
    fireEvent.click(within(popover).getByText('Chat 1'));
    expect(await screen.findByText('chats page')).toBeTruthy();
  });
});

describe('live list updates', () => {
  const list = (records: Chat[], unreads: number): ChatList => ({ records, hasMore: false, unreads });

  it("moves a chat with news to the top and follows the user's unread total", () => {
    const draft = list([chat(1), chat(2)], 0);
    const news = chat(2, { users: [member(1, 'Ana', 1), member(2, 'Bruno')] });
    applyToList(draft, { action: 'new-message', chat: news, newMessage: message(5, 2, 'oi') }, 1, '');
    expect(draft.records.map((c) => c.id)).toEqual([2, 1]);
    expect(draft.unreads).toBe(1);
    applyToList(draft, { action: 'update', chat: chat(2) }, 1, '');
    expect(draft.unreads).toBe(0);
    applyToList(draft, { action: 'delete', id: 1 }, 1, '');
    expect(draft.records.map((c) => c.id)).toEqual([2]);
    // a chat beyond the loaded page: a colleague's message adds one
    applyToList(draft, { action: 'new-message', chat: chat(9), newMessage: message(6, 2, 'oi') }, 1, 'nada');
    expect(draft.unreads).toBe(1);
    expect(draft.records.map((c) => c.id)).toEqual([2]);
  });
});
