import { api, store } from '@balcao/plugin-sdk/ui';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, serveApi, signIn } from '../testing/render';
import type { Schedule } from '../types';
import { SchedulesPage } from './SchedulesPage';

const today = new Date();
const at = new Date(today.getFullYear(), today.getMonth(), 15, 10, 30);

const schedule: Schedule = {
  id: 5,
  body: 'Lembrete da consulta',
  sendAt: at.toISOString(),
  dueAt: at.toISOString(),
  contactId: 9,
  contact: { id: 9, name: 'Maria Silva', number: '5511988887777' },
  userId: 1,
  ticketUserId: null,
  queueId: null,
  whatsappId: 3,
  intervalo: 1,
  valorIntervalo: 0,
  enviarQuantasVezes: 1,
  tipoDias: 4,
  openTicket: 'disabled',
  statusTicket: 'closed',
  assinar: false,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  status: 'PENDENTE',
  sentAt: null,
  sentCount: 0,
  ticketId: null,
  error: null,
  createdAt: at.toISOString(),
  updatedAt: at.toISOString(),
};

const lookups = (call: { method: string; path: string }) => {
  if (call.path === '/contacts') return { status: 200, body: { contacts: [schedule.contact], hasMore: false, count: 1 } };
  if (call.path === '/contacts/9') return { status: 200, body: schedule.contact };
  if (call.path === '/whatsapp') return { status: 200, body: [{ id: 3, name: 'Comercial' }] };
  if (call.path === '/queue') return { status: 200, body: [] };
  if (call.path === '/users/list') return { status: 200, body: [] };
  return undefined;
};

describe('the schedules page', () => {
  beforeEach(() => {
    signIn();
    // each test answers the calendar's read its own way: nothing cached from the one before
    store.dispatch(api.util.resetApiState());
  });

  it('shows the month with the schedule under its contact name and the calendar labels in Portuguese', async () => {
    const calls = serveApi((call) =>
      call.method === 'GET' && call.path === '/schedules'
        ? { status: 200, body: { schedules: [schedule], count: 1, hasMore: false } }
        : lookups(call),
    );
    renderPage(<SchedulesPage />);
    expect(await screen.findByText('Maria Silva', {}, { timeout: 5_000 })).toBeTruthy();
    for (const label of ['Mês', 'Semana', 'Dias úteis', 'Dia', 'Agenda', 'Hoje']) expect(screen.getByText(label)).toBeTruthy();
    const read = calls.find((call) => call.path === '/schedules');
    expect(read?.query.get('pageNumber')).toBe('1');
    expect(read?.query.get('start')).toBeTruthy();
    // the event carries its edit and delete icons
    const event = screen.getByTestId('schedule-5');
    expect(within(event).getByLabelText('Editar')).toBeTruthy();
    expect(within(event).getByLabelText('Excluir')).toBeTruthy();
  });

  it('says when the period has no schedule', async () => {
    serveApi((call) =>
      call.method === 'GET' && call.path === '/schedules'
        ? { status: 200, body: { schedules: [], count: 0, hasMore: false } }
        : lookups(call),
    );
    renderPage(<SchedulesPage />);
    const empty = 'Nenhum agendamento neste período. Crie um para enviar uma mensagem a um contato na hora certa.';
    expect(await screen.findByText(empty, {}, { timeout: 5_000 })).toBeTruthy();
  });

  it('opens the add dialog for ?contactId= and creates the schedule with the dialog fields', async () => {
    const calls = serveApi((call) => {
      if (call.method === 'GET' && call.path === '/schedules')
        return { status: 200, body: { schedules: [], count: 0, hasMore: false } };
      if (call.method === 'POST' && call.path === '/schedules') return { status: 200, body: { ...schedule, id: 6 } };
      return lookups(call);
    });
    renderPage(<SchedulesPage />, '/schedules?contactId=9');
    expect(await screen.findByText('Novo agendamento', { selector: '.ant-modal-title' }, { timeout: 5_000 })).toBeTruthy();
    await screen.findByText('Maria Silva (5511988887777)', {}, { timeout: 5_000 });
    fireEvent.change(screen.getByLabelText('Mensagem'), { target: { value: 'Olá, Maria!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.path === '/schedules')).toBe(true));
    const post = calls.find((call) => call.method === 'POST' && call.path === '/schedules');
    expect(post?.body).toMatchObject({
      body: 'Olá, Maria!',
      contactId: 9,
      intervalo: 1,
      valorIntervalo: 0,
      enviarQuantasVezes: 1,
      tipoDias: 4,
      openTicket: 'disabled',
      statusTicket: 'closed',
      assinar: false,
    });
    expect(new Date((post?.body as { sendAt: string } | undefined)?.sendAt ?? 0).getTime()).toBeGreaterThan(Date.now());
  });
});
