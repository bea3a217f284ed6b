import { runInTenant } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TicketNote } from '../../../shared/types';
import { makeContact, makeQueue, makeTicket } from '../../directory/testing/directory-rows';
import { TicketNote as TicketNoteModel } from '../../models/ticket';

let t: TestApp;
let acme: number;
let admin: TestSession;
let agent: TestSession;
let liteAdmin: TestSession;

beforeAll(async () => {
  t = await createTestApp();
  acme = t.demo.companies.acme;
  admin = await t.login('admin@acme.test');
  agent = await t.login('agent@acme.test');
  liteAdmin = await t.login('admin@lite.test');
});
afterAll(async () => {
  await t?.close();
});

async function agentsTicket() {
  const contact = await makeContact(acme);
  const ticket = await makeTicket(acme, { contactId: contact.id, userId: t.demo.users.acmeAgent });
  return { contact, ticket };
}

const addNote = (token: string, payload: Record<string, unknown>) =>
  t.inject({ method: 'POST', url: '/api/ticket-notes', token, payload });

describe('ticket notes', () => {
  it('adds notes (2+ characters) and lists them newest first with the author’s name', async () => {
    const { contact, ticket } = await agentsTicket();
    const first = await addNote(agent.token, { note: 'First note', ticketId: ticket.id, contactId: contact.id });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      id: expect.any(Number),
      note: 'First note',
      ticketId: ticket.id,
      contactId: contact.id,
      userId: t.demo.users.acmeAgent,
      user: { name: 'Alex Agente' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    await addNote(admin.token, { note: 'Second note', ticketId: ticket.id, contactId: contact.id });
    const list = await t.inject({
      method: 'GET',
      url: `/api/ticket-notes/list?ticketId=${ticket.id}&contactId=${contact.id}`,
      token: agent.token,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((note: TicketNote) => [note.note, note.user?.name])).toEqual([
      ['Second note', 'Ana Admin'],
      ['First note', 'Alex Agente'],
    ]);

    for (const note of ['x', '  y  ', '']) {
      const bad = await addNote(agent.token, { note, ticketId: ticket.id, contactId: contact.id });
      expect(bad.statusCode, JSON.stringify(note)).toBe(400);
      expect(bad.json().error).toBe('ERR_VALIDATION');
    }
  });

  it("refuses a contact that isn't the ticket's (400) and a ticket the user may not see (404)", async () => {
    const { ticket } = await agentsTicket();
    const stranger = await makeContact(acme);
    const mismatch = await addNote(agent.token, { note: 'Wrong contact', ticketId: ticket.id, contactId: stranger.id });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error).toBe('ERR_VALIDATION');

    const queue = await makeQueue(t, acme, 'Notes hidden queue', []);
    const contact = await makeContact(acme);
    const hidden = await makeTicket(acme, { contactId: contact.id, queueId: queue.id, status: 'pending' });
    const refused = await addNote(agent.token, { note: 'Hidden note', ticketId: hidden.id, contactId: contact.id });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    const list = await t.inject({
      method: 'GET',
      url: `/api/ticket-notes/list?ticketId=${hidden.id}&contactId=${contact.id}`,
      token: agent.token,
    });
    expect(list.statusCode).toBe(404);
    // the admin may
    expect((await addNote(admin.token, { note: 'Admin note', ticketId: hidden.id, contactId: contact.id })).statusCode).toBe(201);
  });

  it('lets the author or an admin delete a note, and no one else', async () => {
    const { contact, ticket } = await agentsTicket();
    const byAdmin = (await addNote(admin.token, { note: 'Admin wrote', ticketId: ticket.id, contactId: contact.id })).json();
    const byAgent = (await addNote(agent.token, { note: 'Agent wrote', ticketId: ticket.id, contactId: contact.id })).json();
    const refused = await t.inject({ method: 'DELETE', url: `/api/ticket-notes/${byAdmin.id}`, token: agent.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await t.inject({ method: 'DELETE', url: `/api/ticket-notes/${byAgent.id}`, token: agent.token })).statusCode).toBe(
      204,
    );
    expect((await t.inject({ method: 'DELETE', url: `/api/ticket-notes/${byAdmin.id}`, token: admin.token })).statusCode).toBe(
      204,
    );
    const gone = await t.inject({ method: 'DELETE', url: `/api/ticket-notes/${byAdmin.id}`, token: admin.token });
    expect(gone.json()).toEqual({ error: 'ERR_NO_NOTE_FOUND' });
  });

  it("refuses another company's admin every note call with A's ids", async () => {
    const { contact, ticket } = await agentsTicket();
    const note = (await addNote(agent.token, { note: 'Acme secret note', ticketId: ticket.id, contactId: contact.id })).json();
    const calls = [
      { method: 'POST', url: '/api/ticket-notes', payload: { note: 'Intruder', ticketId: ticket.id, contactId: contact.id } },
      { method: 'GET', url: `/api/ticket-notes/list?ticketId=${ticket.id}&contactId=${contact.id}` },
      { method: 'DELETE', url: `/api/ticket-notes/${note.id}` },
    ] as const;
    for (const call of calls) {
      const res = await t.inject({ ...call, token: liteAdmin.token });
      expect(res.statusCode, call.method).toBe(404);
      expect(res.body).not.toContain('Acme secret note');
    }
    const notes = await runInTenant({ companyId: acme }, () => TicketNoteModel.query().where('ticketId', ticket.id));
    expect(notes.map((row) => row.note)).toEqual(['Acme secret note']);
  });
});
