import { runInTenant } from '@balcao/plugin-sdk/server';
import { connectSocket, createTestApp, nextEvent, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ContactEvent, Tag, TagEvent, TicketEvent } from '../../../shared/types';
import { ContactTag, Tag as TagModel, TicketTag } from '../../models/tag';
import { makeContact, makeQueue, makeTag, makeTicket } from '../testing/directory-rows';

let t: TestApp;
let acme: number;
let admin: TestSession;
let agent: TestSession;
let liteAdmin: TestSession;
const sockets: Socket[] = [];
let listening: Promise<string> | undefined;
/** The app's base URL for sockets (listening once). */
const baseUrl = () => {
  listening ??= t.listen();
  return listening;
};

beforeAll(async () => {
  t = await createTestApp();
  acme = t.demo.companies.acme;
  admin = await t.login('admin@acme.test');
  agent = await t.login('agent@acme.test');
  liteAdmin = await t.login('admin@lite.test');
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await t?.close();
});

const post = (payload: Record<string, unknown>, token = admin.token) =>
  t.inject({ method: 'POST', url: '/api/tags', token, payload });

describe('tags', () => {
  it('creates a tag with the default colour and kanban 0, and refuses short names and bad colours', async () => {
    const res = await post({ name: 'Urgent' }, agent.token);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      name: 'Urgent',
      color: '#7C7C7C',
      kanban: 0,
      userId: null,
      timeLane: null,
      nextLaneId: null,
      greetingMessageLane: null,
      rollbackLaneId: null,
      ticketTags: 0,
      contacts: 0,
    });
    for (const payload of [{ name: 'ab' }, { name: '  ab  ' }, { name: 'Valid', color: 'red' }, { name: 'Valid', kanban: 2 }]) {
      const bad = await post(payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().error).toBe('ERR_VALIDATION');
    }
  });

  it('lets only lane managers (dashboard:view) create, change or delete lanes; plain tags stay open', async () => {
    const lane = (await post({ name: 'Managed lane', kanban: 1 })).json() as Tag;
    const plain = (await post({ name: 'Agent plain' }, agent.token)).json() as Tag;
    const refused = [
      await post({ name: 'Agent lane', kanban: 1 }, agent.token),
      await t.inject({ method: 'PUT', url: `/api/tags/${lane.id}`, token: agent.token, payload: { name: 'Renamed lane' } }),
      await t.inject({ method: 'PUT', url: `/api/tags/${lane.id}`, token: agent.token, payload: { name: 'Lane', kanban: 0 } }),
      await t.inject({
        method: 'PUT',
        url: `/api/tags/${plain.id}`,
        token: agent.token,
        payload: { name: 'Now a lane', kanban: 1 },
      }),
      await t.inject({ method: 'DELETE', url: `/api/tags/${lane.id}`, token: agent.token }),
    ];
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    expect((await t.inject({ method: 'GET', url: `/api/tags/${lane.id}`, token: admin.token })).json()).toMatchObject({
      name: 'Managed lane',
      kanban: 1,
    });
    const renamed = await t.inject({
      method: 'PUT',
      url: `/api/tags/${plain.id}`,
      token: agent.token,
      payload: { name: 'Plain again' },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await t.inject({ method: 'DELETE', url: `/api/tags/${lane.id}`, token: admin.token })).statusCode).toBe(204);
  });

  it('takes lanes that are kanban tags of the company only', async () => {
    const lane = (await post({ name: 'Lane one', kanban: 1, color: '#00ff00' })).json() as Tag;
    const plain = (await post({ name: 'Plain one' })).json() as Tag;
    const lite = (await post({ name: 'Lite lane', kanban: 1 }, liteAdmin.token)).json() as Tag;
    const res = await post({
      name: 'Lane two',
      kanban: 1,
      nextLaneId: lane.id,
      rollbackLaneId: lane.id,
      timeLane: 2,
      greetingMessageLane: 'Hi',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ kanban: 1, nextLaneId: lane.id, rollbackLaneId: lane.id, timeLane: 2 });
    expect(lane.color).toBe('#00FF00');
    for (const payload of [
      { name: 'Lane x', kanban: 1, nextLaneId: plain.id },
      { name: 'Lane x', kanban: 1, rollbackLaneId: lite.id },
      { name: 'Lane x', kanban: 1, nextLaneId: 2_000_000_000 },
    ]) {
      const bad = await post(payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().error).toBe('ERR_VALIDATION');
    }
    // another company's user is refused by the core, as any id of another company
    const foreignUser = await post({ name: 'Lane x', userId: t.demo.users.liteAdmin });
    expect(foreignUser.statusCode).toBe(404);
    expect(foreignUser.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
  });

  it('lists tags by name with counts, searching, paging and filtering kanban; /tags/list and /tags/:id', async () => {
    const prefix = `Pg${Date.now().toString(36)}`;
    for (let i = 0; i < 42; i += 1)
      await makeTag(acme, { name: `${prefix} ${String(i).padStart(2, '0')}`, kanban: i < 2 ? 1 : 0 });
    const page1 = await t.inject({ method: 'GET', url: `/api/tags?searchParam=${prefix.toLowerCase()}`, token: agent.token });
    expect(page1.json().hasMore).toBe(true);
    expect(page1.json().tags).toHaveLength(40);
    expect(page1.json().tags[0].name).toBe(`${prefix} 00`);
    const page2 = await t.inject({ method: 'GET', url: `/api/tags?searchParam=${prefix}&pageNumber=2`, token: agent.token });
    expect(page2.json()).toMatchObject({ hasMore: false });
    expect(page2.json().tags).toHaveLength(2);
    const lanes = await t.inject({ method: 'GET', url: `/api/tags?searchParam=${prefix}&kanban=1`, token: agent.token });
    expect(lanes.json().tags.map((tag: Tag) => tag.name)).toEqual([`${prefix} 00`, `${prefix} 01`]);
    const list = await t.inject({ method: 'GET', url: `/api/tags/list?kanban=1&companyId=${acme}`, token: agent.token });
    expect(list.json().every((tag: Tag) => tag.kanban === 1)).toBe(true);

    const tag = await makeTag(acme, { name: `${prefix} counted` });
    const contact = await makeContact(acme);
    const ticket = await makeTicket(acme, { contactId: contact.id });
    await runInTenant({ companyId: acme }, async () => {
      await ContactTag.query().insert({ contactId: contact.id, tagId: tag.id });
      await TicketTag.query().insert({ ticketId: ticket.id, tagId: tag.id });
    });
    const one = await t.inject({ method: 'GET', url: `/api/tags/${tag.id}`, token: agent.token });
    expect(one.json()).toMatchObject({ id: tag.id, ticketTags: 1, contacts: 1 });
    expect((await t.inject({ method: 'GET', url: '/api/tags/2000000000', token: agent.token })).json()).toEqual({
      error: 'ERR_NO_TAG_FOUND',
    });
  });

  it('updates and deletes a tag, emitting company{id}-tag (no hyphen) to the company', async () => {
    const url = await baseUrl();
    const socket = await connectSocket(url, acme, agent.token);
    sockets.push(socket);
    const channel = `company${acme}-tag`;
    const created = nextEvent<TagEvent>(socket, channel, (p) => p.action === 'create');
    const tag = (await post({ name: 'Evented tag' })).json() as Tag;
    expect(await created).toEqual({ action: 'create', tag });

    const updated = nextEvent<TagEvent>(socket, channel, (p) => p.action === 'update');
    const put = await t.inject({
      method: 'PUT',
      url: `/api/tags/${tag.id}`,
      token: agent.token,
      payload: { name: 'Renamed tag', color: '#abcdef' },
    });
    expect(put.json()).toMatchObject({ id: tag.id, name: 'Renamed tag', color: '#ABCDEF' });
    expect(await updated).toMatchObject({ action: 'update', tag: { id: tag.id, name: 'Renamed tag' } });

    const deleted = nextEvent<TagEvent>(socket, channel, (p) => p.action === 'delete');
    const del = await t.inject({ method: 'DELETE', url: `/api/tags/${tag.id}`, token: agent.token });
    expect(del.statusCode).toBe(204);
    expect(await deleted).toEqual({ action: 'delete', tagId: tag.id });
    expect((await t.inject({ method: 'DELETE', url: `/api/tags/${tag.id}`, token: agent.token })).statusCode).toBe(404);
  });
});

describe('POST /tags/sync and DELETE /tags-contacts/:tagId/:contactId', () => {
  it("creates free tags (3+ characters, random colour, kanban 0) and sets the contact's tags exactly", async () => {
    const contact = await makeContact(acme);
    const kept = await makeTag(acme, { name: 'Kept tag' });
    const dropped = await makeTag(acme, { name: 'Dropped tag' });
    await runInTenant({ companyId: acme }, () => ContactTag.query().insert({ contactId: contact.id, tagId: dropped.id }));
    const name = `Fresh ${Date.now().toString(36)}`;
    const res = await t.inject({
      method: 'POST',
      url: '/api/tags/sync',
      token: agent.token,
      payload: { contactId: contact.id, tags: [{ id: kept.id, name: 'Kept tag' }, { name }, { name: 'kept TAG' }] },
    });
    expect(res.statusCode).toBe(200);
    const tags = res.json().tags as Array<{ id: number; name: string; color: string }>;
    expect(tags.map((tag) => tag.name)).toEqual([name, 'Kept tag']);
    const fresh = await runInTenant({ companyId: acme }, () => TagModel.query().findOne({ name }));
    expect(fresh).toMatchObject({ kanban: 0 });
    expect(fresh?.color).toMatch(/^#[0-9A-F]{6}$/);

    // an empty list clears them; the free tag stays in the company
    const cleared = await t.inject({
      method: 'POST',
      url: '/api/tags/sync',
      token: agent.token,
      payload: { contactId: contact.id, tags: [] },
    });
    expect(cleared.json()).toEqual({ tags: [] });
    expect((await t.inject({ method: 'GET', url: `/api/contactTags/${contact.id}`, token: agent.token })).json()).toEqual([]);

    const short = await t.inject({
      method: 'POST',
      url: '/api/tags/sync',
      token: agent.token,
      payload: { contactId: contact.id, tags: [{ name: 'ab' }] },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe('ERR_VALIDATION');
  });

  it("emits the contact update and the updates of the contact's open tickets", async () => {
    const queue = await makeQueue(t, acme, 'Sync queue', [t.demo.users.acmeAgent]);
    const contact = await makeContact(acme);
    const ticket = await makeTicket(acme, { contactId: contact.id, queueId: queue.id, status: 'pending' });
    const url = await baseUrl();
    const socket = await connectSocket(url, acme, agent.token);
    sockets.push(socket);
    const contactEvent = nextEvent<ContactEvent>(
      socket,
      `company-${acme}-contact`,
      (p) => p.action === 'update' && p.contact.id === contact.id,
    );
    const ticketEvent = nextEvent<TicketEvent>(
      socket,
      `company-${acme}-ticket`,
      (p) => p.action === 'update' && p.ticket.id === ticket.id,
    );
    const tagEvent = nextEvent<TagEvent>(socket, `company${acme}-tag`, (p) => p.action === 'create');
    await t.inject({
      method: 'POST',
      url: '/api/tags/sync',
      token: admin.token,
      payload: { contactId: contact.id, tags: [{ name: 'Sync evented' }] },
    });
    const [onContact, onTicket, onTag] = await Promise.all([contactEvent, ticketEvent, tagEvent]);
    expect(onContact.action === 'update' && onContact.contact.tags.map((tag) => tag.name)).toEqual(['Sync evented']);
    expect(onTicket.action === 'update' && onTicket.ticket.tags.map((tag) => tag.name)).toEqual(['Sync evented']);
    expect(onTag).toMatchObject({ action: 'create', tag: { name: 'Sync evented', kanban: 0 } });
  });

  it("removes one tag from a contact; refuses another company's ids", async () => {
    const contact = await makeContact(acme);
    const tag = await makeTag(acme, { name: 'Removable' });
    await runInTenant({ companyId: acme }, () => ContactTag.query().insert({ contactId: contact.id, tagId: tag.id }));
    const asLite = await t.inject({
      method: 'DELETE',
      url: `/api/tags-contacts/${tag.id}/${contact.id}`,
      token: liteAdmin.token,
    });
    expect(asLite.statusCode).toBe(404);
    const sync = await t.inject({
      method: 'POST',
      url: '/api/tags/sync',
      token: liteAdmin.token,
      payload: { contactId: contact.id, tags: [] },
    });
    expect(sync.statusCode).toBe(404);
    const res = await t.inject({ method: 'DELETE', url: `/api/tags-contacts/${tag.id}/${contact.id}`, token: agent.token });
    expect(res.statusCode).toBe(204);
    expect((await t.inject({ method: 'GET', url: `/api/contactTags/${contact.id}`, token: agent.token })).json()).toEqual([]);
  });

  it("refuses syncing a contact with another company's tag id", async () => {
    const contact = await makeContact(acme);
    const liteTag = (await post({ name: 'Lite private' }, liteAdmin.token)).json() as Tag;
    const res = await t.inject({
      method: 'POST',
      url: '/api/tags/sync',
      token: admin.token,
      payload: { contactId: contact.id, tags: [{ id: liteTag.id, name: 'Lite private' }] },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_TAG_FOUND' });
  });
});

describe('ticket tags (kanban lanes)', () => {
  it('puts a tag on a visible ticket and removes only its kanban tags', async () => {
    const contact = await makeContact(acme);
    const ticket = await makeTicket(acme, { contactId: contact.id, userId: t.demo.users.acmeAgent });
    const lane = await makeTag(acme, { name: 'Lane A', kanban: 1 });
    const plain = await makeTag(acme, { name: 'Plain A' });
    for (const tag of [lane, plain]) {
      const res = await t.inject({ method: 'PUT', url: `/api/ticket-tags/${ticket.id}/${tag.id}`, token: agent.token });
      expect(res.statusCode).toBe(204);
    }
    // twice is fine
    expect(
      (await t.inject({ method: 'PUT', url: `/api/ticket-tags/${ticket.id}/${lane.id}`, token: agent.token })).statusCode,
    ).toBe(204);
    const tagsOf = () =>
      runInTenant({ companyId: acme }, () => TicketTag.query().where('ticketId', ticket.id).orderBy('tagId')).then((rows) =>
        rows.map((row) => row.tagId),
      );
    expect(await tagsOf()).toEqual([lane.id, plain.id].sort((a, b) => a - b));
    const del = await t.inject({ method: 'DELETE', url: `/api/ticket-tags/${ticket.id}`, token: agent.token });
    expect(del.statusCode).toBe(204);
    expect(await tagsOf()).toEqual([plain.id]);
  });

  it('refuses a ticket the user may not see (404, as if missing), an unknown tag, and other companies', async () => {
    const contact = await makeContact(acme);
    const hiddenQueue = await makeQueue(t, acme, 'Hidden queue', []);
    const hidden = await makeTicket(acme, { contactId: contact.id, queueId: hiddenQueue.id, status: 'pending' });
    const lane = await makeTag(acme, { name: 'Lane B', kanban: 1 });
    for (const call of [
      { method: 'PUT', url: `/api/ticket-tags/${hidden.id}/${lane.id}` },
      { method: 'DELETE', url: `/api/ticket-tags/${hidden.id}` },
    ] as const) {
      const res = await t.inject({ ...call, token: agent.token });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
      expect((await t.inject({ ...call, token: liteAdmin.token })).statusCode).toBe(404);
    }
    // the admin sees it
    expect(
      (await t.inject({ method: 'PUT', url: `/api/ticket-tags/${hidden.id}/${lane.id}`, token: admin.token })).statusCode,
    ).toBe(204);
    const unknownTag = await t.inject({ method: 'PUT', url: `/api/ticket-tags/${hidden.id}/2000000000`, token: admin.token });
    expect(unknownTag.json()).toEqual({ error: 'ERR_NO_TAG_FOUND' });
  });
});

describe('cross-tenant', () => {
  it("refuses another company's admin the tag reads and changes, leaving the tag unchanged", async () => {
    const tag = await makeTag(acme, { name: 'Acme secret tag' });
    for (const call of [
      { method: 'GET', url: `/api/tags/${tag.id}` },
      { method: 'PUT', url: `/api/tags/${tag.id}`, payload: { name: 'Hacked' } },
      { method: 'DELETE', url: `/api/tags/${tag.id}` },
    ] as const) {
      const res = await t.inject({ ...call, token: liteAdmin.token });
      expect(res.statusCode, call.method).toBe(404);
    }
    const lists = await Promise.all(
      ['/api/tags?searchParam=Acme secret', '/api/tags/list'].map((url) =>
        t.inject({ method: 'GET', url, token: liteAdmin.token }),
      ),
    );
    for (const res of lists) expect(res.body).not.toContain('Acme secret tag');
    expect(await runInTenant({ companyId: acme }, () => TagModel.query().findById(tag.id))).toMatchObject({
      name: 'Acme secret tag',
    });
  });
});
