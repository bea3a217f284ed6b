import type { SlotContact, SlotTicket } from '@balcao/plugin-sdk/ui';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, serveApi, signIn } from '../testing/render';
import ComposerScheduleButton from './ComposerScheduleButton';

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

const ticket: SlotTicket = {
  id: 42,
  uuid: 'uuid-42',
  status: 'open',
  channel: 'whatsapp',
  isGroup: false,
  queueId: null,
  userId: 1,
  contactId: contact.id,
  contact,
  whatsappId: 3,
  lastMessage: 'oi',
  unreadMessages: 0,
  tags: [],
  updatedAt: '2024-03-05T10:00:00.000Z',
};

describe("the composer's schedule shortcut (composerToolbar slot)", () => {
  beforeEach(() => signIn());

  it("opens the dialog for the ticket's contact and connection, and saves the schedule", async () => {
    const calls = serveApi((call) => {
      if (call.path === '/contacts/10') return { status: 200, body: { id: 10, name: 'Cliente', number: '5511999990000' } };
      if (call.path === '/contacts') return { status: 200, body: { contacts: [], hasMore: false, count: 0 } };
      if (call.path === '/whatsapp') return { status: 200, body: [{ id: 3, name: 'Comercial' }] };
      if (call.method === 'POST' && call.path === '/schedules') return { status: 200, body: { id: 1 } };
      return { status: 200, body: [] };
    });
    renderPage(<ComposerScheduleButton ticket={ticket} insertText={() => {}} disabled={false} />);
    fireEvent.click(screen.getByLabelText('Agendar mensagem'));
    await screen.findByText('Cliente (5511999990000)', {}, { timeout: 5_000 });
    fireEvent.change(screen.getByLabelText('Mensagem'), { target: { value: 'Retorno amanhã' } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.path === '/schedules')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      contactId: 10,
      whatsappId: 3,
      body: 'Retorno amanhã',
    });
  });

  it('is not offered for a group', () => {
    serveApi(() => undefined);
    renderPage(<ComposerScheduleButton ticket={{ ...ticket, isGroup: true }} insertText={() => {}} disabled={false} />);
    expect(screen.queryByLabelText('Agendar mensagem')).toBeNull();
  });
});
