import type { SlotContact, SlotTicket } from '@balcao/plugin-sdk/ui';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, serveApi, signIn } from '../testing/render';
import type { Lane } from '../types';
import LaneField from './LaneField';

const lane = (id: number, name: string): Lane => ({
  id,
  name,
  color: '#00AA33',
  kanban: 1,
  timeLane: null,
  nextLaneId: null,
  greetingMessageLane: null,
  rollbackLaneId: null,
  ticketTags: 0,
});

const contact: SlotContact = {
  id: 10,
  name: 'Cliente',
  number: '5511999990000',
  email: null,
  urlPicture: null,
  isGroup: false,
  channel: 'whatsapp',
  tags: [],
};

const ticket = (tags: SlotTicket['tags']): SlotTicket => ({
  id: 42,
  uuid: 'uuid-42',
  status: 'open',
  channel: 'whatsapp',
  isGroup: false,
  queueId: null,
  userId: 1,
  contactId: contact.id,
  contact,
  whatsappId: null,
  lastMessage: 'oi',
  unreadMessages: 0,
  tags,
  updatedAt: '2024-03-05T10:00:00.000Z',
});

const lanes = { lista: [lane(7, 'Proposta'), lane(8, 'Fechado')] };

describe("the contact drawer's lane field (contactDrawer slot)", () => {
  beforeEach(() => signIn());

  it("shows the ticket's lane among the company's lanes, under its heading", async () => {
    serveApi((call) => (call.method === 'GET' && call.path === '/tag/kanban' ? { status: 200, body: lanes } : undefined));
    renderPage(
      <LaneField
        contact={contact}
        ticket={ticket([
          { id: 3, name: 'VIP', color: '#f00' },
          { id: 7, name: 'Proposta', color: '#0a3' },
        ])}
      />,
    );
    expect(screen.getByText('Etapa do Kanban')).toBeTruthy();
    expect(await screen.findByText('Proposta')).toBeTruthy();
    expect(screen.queryByText('Sem etapa')).toBeNull();
  });

  it('moves the ticket: out of its lanes, then into the chosen one', async () => {
    const calls = serveApi((call) => {
      if (call.method === 'GET' && call.path === '/tag/kanban') return { status: 200, body: lanes };
      if (call.path.startsWith('/ticket-tags/')) return { status: 204 };
      return undefined;
    });
    renderPage(<LaneField contact={contact} ticket={ticket([])} />);
    await waitFor(() => expect(calls.some((call) => call.path === '/tag/kanban')).toBe(true));
    expect(screen.getByText('Sem etapa')).toBeTruthy();
    fireEvent.mouseDown(screen.getByLabelText('Etapa do Kanban'));
    const option = await waitFor(() => {
      const found = [...document.querySelectorAll('.ant-select-item-option')].find((item) => item.textContent === 'Fechado');
      if (!found) throw new Error('no option Fechado yet');
      return found;
    });
    fireEvent.click(option);
    await waitFor(() =>
      expect(calls.filter((call) => call.path.startsWith('/ticket-tags/')).map((call) => `${call.method} ${call.path}`)).toEqual([
        'DELETE /ticket-tags/42',
        'PUT /ticket-tags/42/8',
      ]),
    );
  });

  it('shows nothing for a contact opened without a ticket', () => {
    serveApi();
    const { container } = renderPage(<LaneField contact={contact} />);
    expect(container.textContent).toBe('');
    expect(screen.queryByText('Etapa do Kanban')).toBeNull();
  });
});
