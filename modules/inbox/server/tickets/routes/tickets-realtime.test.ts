import { companyEvent } from '@balcao/plugin-sdk/server';
import { connectSocket, createTestApp, nextEvent, recordEvents, type TestApp } from '@balcao/plugin-sdk/testing';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Ticket, TicketEvent } from '../../../shared/types';
import { type KitUser, TicketKit } from '../testing/ticket-kit';

/**
 * `company-{id}-ticket` events of the ticket routes reach only the users entitled to the ticket (docs/product/roles-and-permissions.md#roles-in-the-inbox,
 * docs/product/tickets-and-inbox.md#calls-and-realtime-events): real sockets against the test app.
 */
let t: TestApp;
let kit: TicketKit;
let url: string;
let companyId: number;
let admin: KitUser;
let agentQ1: KitUser;
let agentQ2: KitUser;
let q1: number;
let q2: number;
const open: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  kit = new TicketKit(t);
  url = await t.listen();
  ({ companyId, admin } = await kit.company());
  q1 = await kit.queue(companyId);
  q2 = await kit.queue(companyId);
  agentQ1 = await kit.user(companyId, { queueIds: [q1] });
  agentQ2 = await kit.user(companyId, { queueIds: [q2] });
});
afterEach(() => {
  for (const socket of open.splice(0)) socket.close();
});
afterAll(async () => {
  await t?.close();
});

async function socketOf(user: KitUser): Promise<{ socket: Socket; events: Array<{ event: string; payload: unknown }> }> {
  const socket = await connectSocket(url, companyId, user.token);
  open.push(socket);
  return { socket, events: recordEvents(socket) };
}

const ticketEvent = () => companyEvent(companyId, 'ticket');
const about = (id: number) => (event: TicketEvent) =>
  (event.action === 'update' && event.ticket.id === id) || (event.action !== 'update' && event.ticketId === id);

/** Events the socket got about one ticket. */
const eventsAbout = (events: Array<{ event: string; payload: unknown }>, id: number) =>
  events
    .filter((entry) => entry.event === ticketEvent() && about(id)(entry.payload as TicketEvent))
    .map((entry) => entry.payload);

describe('ticket events', () => {
  it('an agent of another queue never receives the ticket; the queue’s agent and the admin do', async () => {
    const q1Agent = await socketOf(agentQ1);
    const q2Agent = await socketOf(agentQ2);
    const adminSocket = await socketOf(admin);

    const contactId = await kit.contact(companyId);
    const createdForQ1 = nextEvent<TicketEvent>(q1Agent.socket, ticketEvent(), (event) => event.action === 'update');
    const createdForAdmin = nextEvent<TicketEvent>(adminSocket.socket, ticketEvent(), (event) => event.action === 'update');
    const created = await kit.call<Ticket>(admin, 'POST', '/tickets', { contactId, queueId: q1, status: 'pending' });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(await createdForQ1).toMatchObject({ action: 'update', ticket: { id, status: 'pending' } });
    expect(await createdForAdmin).toMatchObject({ action: 'update', ticket: { id } });

    const accepted = nextEvent<TicketEvent>(
      q1Agent.socket,
      ticketEvent(),
      (event) => event.action === 'update' && event.ticket.status === 'open',
    );
    expect((await kit.call(agentQ1, 'PUT', `/tickets/${id}`, { status: 'open', userId: agentQ1.id })).status).toBe(200);
    await accepted;
    expect((await kit.call(agentQ1, 'PUT', `/tickets/${id}`, { status: 'closed' })).status).toBe(200);

    // a later event to the q2 agent is the barrier: everything before it has been delivered
    const barrier = nextEvent<TicketEvent>(q2Agent.socket, ticketEvent());
    await kit.call(admin, 'POST', '/tickets', { contactId: await kit.contact(companyId), queueId: q2, status: 'pending' });
    await barrier;
    expect(eventsAbout(q2Agent.events, id)).toEqual([]);
  });

  it('a transfer to another queue: the new queue’s agent gets the update, the old one removeFromList', async () => {
    const ticket = await kit.ticket(companyId, { status: 'pending', queueId: q1 });
    const q1Agent = await socketOf(agentQ1);
    const q2Agent = await socketOf(agentQ2);
    const removed = nextEvent<TicketEvent>(q1Agent.socket, ticketEvent(), about(ticket.id));
    const arrived = nextEvent<TicketEvent>(q2Agent.socket, ticketEvent(), about(ticket.id));
    const response = await kit.call(admin, 'PUT', `/tickets/${ticket.id}`, { isTransfered: true, queueId: q2 });
    expect(response.status).toBe(200);
    expect(await removed).toEqual({ action: 'removeFromList', ticketId: ticket.id });
    expect(await arrived).toMatchObject({ action: 'update', ticket: { id: ticket.id, queueId: q2, status: 'pending' } });
  });

  it('delete reaches the entitled users only', async () => {
    const ticket = await kit.ticket(companyId, { status: 'pending', queueId: q2 });
    const q1Agent = await socketOf(agentQ1);
    const q2Agent = await socketOf(agentQ2);
    const deleted = nextEvent<TicketEvent>(q2Agent.socket, ticketEvent(), about(ticket.id));
    expect((await kit.call(admin, 'DELETE', `/tickets/${ticket.id}`)).status).toBe(204);
    expect(await deleted).toEqual({ action: 'delete', ticketId: ticket.id });
    const barrier = nextEvent<TicketEvent>(q1Agent.socket, ticketEvent());
    await kit.call(admin, 'POST', '/tickets', { contactId: await kit.contact(companyId), queueId: q1, status: 'pending' });
    await barrier;
    expect(eventsAbout(q1Agent.events, ticket.id)).toEqual([]);
  });

  it('closeAll emits each closed ticket to its audience', async () => {
    const company = await kit.company();
    const queue = await kit.queue(company.companyId);
    const agent = await kit.user(company.companyId, { queueIds: [queue] });
    const ticket = await kit.ticket(company.companyId, { status: 'pending', queueId: queue });
    const socket = await connectSocket(url, company.companyId, agent.token);
    open.push(socket);
    const closed = nextEvent<TicketEvent>(
      socket,
      companyEvent(company.companyId, 'ticket'),
      (event) => event.action === 'update' && event.ticket.id === ticket.id && event.ticket.status === 'closed',
    );
    expect((await kit.call(company.admin, 'POST', '/tickets/closeAll', { status: 'pending' })).body).toEqual({ closed: 1 });
    await closed;
  });

  it('profile users get masked numbers in ticket events when LGPD hides them', async () => {
    const company = await kit.company();
    const queue = await kit.queue(company.companyId);
    const agent = await kit.user(company.companyId, { queueIds: [queue] });
    await kit.setting(company.companyId, 'enableLGPD', 'enabled');
    await kit.setting(company.companyId, 'lgpdHideNumber', 'enabled');
    const contactId = await kit.contact(company.companyId, { number: '5511988887766' });
    const agentSocket = await connectSocket(url, company.companyId, agent.token);
    const adminSocket = await connectSocket(url, company.companyId, company.admin.token);
    open.push(agentSocket, adminSocket);
    const forAgent = nextEvent<TicketEvent>(agentSocket, companyEvent(company.companyId, 'ticket'));
    const forAdmin = nextEvent<TicketEvent>(adminSocket, companyEvent(company.companyId, 'ticket'));
    const created = await kit.call<Ticket>(company.admin, 'POST', '/tickets', { contactId, queueId: queue, status: 'pending' });
    expect(created.body.contact.number).toBe('5511988887766');
    expect(((await forAgent) as { ticket: Ticket }).ticket.contact.number).toBe('***********66');
    expect(((await forAdmin) as { ticket: Ticket }).ticket.contact.number).toBe('5511988887766');
  });
});
