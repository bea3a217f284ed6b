import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKETS_PAGE_SIZE, type Ticket } from '../../../shared/types';
import { planSearch, prefixKeyOf } from '../../search/search-plan';
import { type KitUser, TicketKit } from '../testing/ticket-kit';
import { tabReadStats } from '../ticket-list.service';

/** GET /tickets (docs/inbox-api.md "Tickets"): visibility per profile and permission, filters, paging, search, LGPD. */
let t: TestApp;
let kit: TicketKit;
beforeAll(async () => {
  t = await createTestApp();
  kit = new TicketKit(t);
});
afterAll(async () => {
  await t?.close();
});

const ids = (tickets: Ticket[]) => tickets.map((ticket) => ticket.id).sort((a, b) => a - b);
const sorted = (...values: number[]) => [...values].sort((a, b) => a - b);

describe('visibility of the lists (docs/product/roles-and-permissions.md#roles-in-the-inbox)', () => {
  let companyId: number;
  let admin: KitUser;
  let agent1: KitUser;
  let agent2: KitUser;
  let noQueue: KitUser;
  let allTicket: KitUser;
  let groups: KitUser;
  let allChat: KitUser;
  const tk = {} as Record<
    'closedAgent1' | 'groupQ1' | 'openAdmin' | 'openAgent1' | 'openAgent2' | 'pendingNoQueue' | 'pendingQ1' | 'pendingQ2',
    number
  >;

  beforeAll(async () => {
    ({ companyId, admin } = await kit.company());
    const q1 = await kit.queue(companyId, 'Vendas');
    const q2 = await kit.queue(companyId, 'Suporte');
    agent1 = await kit.user(companyId, { queueIds: [q1] });
    agent2 = await kit.user(companyId, { queueIds: [q2] });
    noQueue = await kit.user(companyId);
    allTicket = await kit.user(companyId, { queueIds: [q1], allTicket: 'enable' });
    groups = await kit.user(companyId, { queueIds: [q1], allowGroup: true });
    allChat = await kit.user(companyId, { queueIds: [q1], allUserChat: 'enabled' });
    tk.pendingQ1 = (await kit.ticket(companyId, { status: 'pending', queueId: q1 })).id;
    tk.pendingQ2 = (await kit.ticket(companyId, { status: 'pending', queueId: q2 })).id;
    tk.pendingNoQueue = (await kit.ticket(companyId, { status: 'pending' })).id;
    tk.openAgent1 = (await kit.ticket(companyId, { status: 'open', queueId: q1, userId: agent1.id })).id;
    tk.openAgent2 = (await kit.ticket(companyId, { status: 'open', queueId: q2, userId: agent2.id })).id;
    tk.groupQ1 = (await kit.ticket(companyId, { status: 'pending', queueId: q1, isGroup: true })).id;
    tk.closedAgent1 = (await kit.ticket(companyId, { status: 'closed', queueId: q1, userId: agent1.id })).id;
    tk.openAdmin = (await kit.ticket(companyId, { status: 'open', queueId: q1, userId: admin.id })).id;
  });

  it('an admin sees their own work without showAll, and every ticket of the tab with it', async () => {
    expect(ids((await kit.list(admin, { status: 'pending' })).body.tickets)).toEqual([tk.pendingNoQueue]);
    expect(ids((await kit.list(admin, { status: 'open' })).body.tickets)).toEqual([tk.openAdmin]);
    const all = await kit.list(admin, { status: 'pending', showAll: true });
    expect(ids(all.body.tickets)).toEqual(sorted(tk.pendingQ1, tk.pendingQ2, tk.pendingNoQueue, tk.groupQ1));
    expect(all.body.count).toBe(4);
    const open = await kit.list(admin, { status: 'open', showAll: true });
    expect(ids(open.body.tickets)).toEqual(sorted(tk.openAgent1, tk.openAgent2, tk.openAdmin));
  });

  it('an agent sees own tickets and unassigned ones of their queues; showAll is ignored', async () => {
    expect(ids((await kit.list(agent1, { status: 'pending' })).body.tickets)).toEqual([tk.pendingQ1]);
    expect(ids((await kit.list(agent1, { status: 'pending', showAll: true })).body.tickets)).toEqual([tk.pendingQ1]);
    expect(ids((await kit.list(agent1, { status: 'open', showAll: true })).body.tickets)).toEqual([tk.openAgent1]);
    expect(ids((await kit.list(agent1, { status: 'closed' })).body.tickets)).toEqual([tk.closedAgent1]);
    expect(ids((await kit.list(agent2, { status: 'pending' })).body.tickets)).toEqual([tk.pendingQ2]);
    expect((await kit.list(agent2, { status: 'pending', showAll: true })).body.count).toBe(1);
  });

  it('an agent without queues sees no unassigned ticket; allTicket adds the queue-less ones', async () => {
    expect((await kit.list(noQueue, { status: 'pending' })).body).toEqual({ tickets: [], hasMore: false, count: 0 });
    expect(ids((await kit.list(allTicket, { status: 'pending' })).body.tickets)).toEqual(sorted(tk.pendingQ1, tk.pendingNoQueue));
  });

  it('group tickets only with allowGroup', async () => {
    expect(ids((await kit.list(groups, { status: 'pending' })).body.tickets)).toEqual(sorted(tk.pendingQ1, tk.groupQ1));
    expect(ids((await kit.list(agent1, { status: 'pending' })).body.tickets)).not.toContain(tk.groupQ1);
  });

  it('allUserChat lets a profile user use showAll', async () => {
    expect(ids((await kit.list(allChat, { status: 'pending' })).body.tickets)).toEqual([tk.pendingQ1]);
    expect(ids((await kit.list(allChat, { status: 'pending', showAll: true })).body.tickets)).toEqual(
      sorted(tk.pendingQ1, tk.pendingQ2, tk.pendingNoQueue, tk.groupQ1),
    );
  });

  it('the search view covers every ticket for an admin and only what an agent may see', async () => {
    const adminSearch = await kit.list(admin, {});
    expect(adminSearch.body.count).toBe(8);
    const agentSearch = await kit.list(agent1, { showAll: true });
    expect(ids(agentSearch.body.tickets)).toEqual(sorted(tk.pendingQ1, tk.openAgent1, tk.closedAgent1));
    // docs/product/roles-and-permissions.md#who-sees-which-tickets: a profile user's search view never shows all tickets; allUserChat counts as admin for
    // the show-all toggle of the pending and open lists only
    const allChatSearch = await kit.list(allChat, { showAll: true });
    expect(ids(allChatSearch.body.tickets)).toEqual([tk.pendingQ1]);
  });

  it('answers tabs read at once (read together in few statements) as it answers them one by one', async () => {
    const users = [admin, agent1, agent2, noQueue, allTicket, groups, allChat];
    const asks: Array<[KitUser, Record<string, string | boolean>]> = [];
    for (const user of users) {
      for (const status of ['pending', 'open', 'closed']) asks.push([user, { status }]);
      asks.push([user, { status: 'pending', showAll: true }]);
    }
    asks.push([admin, { status: 'open', showAll: true, date: new Date().toISOString().slice(0, 10) }]);
    const alone = [];
    for (const [user, filters] of asks) alone.push((await kit.list(user, filters)).body);
    const before = tabReadStats(t.balcao.core.knex);
    const together = await Promise.all(asks.map(([user, filters]) => kit.list(user, filters)));
    expect(together.map((answer) => answer.body)).toEqual(alone);
    const after = tabReadStats(t.balcao.core.knex);
    expect(after.writes - before.writes).toBe(asks.length);
    expect(after.statements - before.statements).toBeLessThan(asks.length);
  });

  it('reads follow the same rules: a ticket the user may not see is 404', async () => {
    const read = (user: KitUser, id: number) => kit.call(user, 'GET', `/tickets/${id}`);
    expect((await read(agent1, tk.pendingQ1)).status).toBe(200);
    expect((await read(agent1, tk.openAgent1)).status).toBe(200);
    for (const id of [tk.pendingQ2, tk.openAgent2, tk.groupQ1, tk.pendingNoQueue]) {
      expect(await read(agent1, id)).toEqual({ status: 404, body: { error: 'ERR_NO_TICKET_FOUND' } });
    }
    expect((await read(groups, tk.groupQ1)).status).toBe(200);
    expect((await read(allTicket, tk.pendingNoQueue)).status).toBe(200);
    expect((await read(allChat, tk.openAgent2)).status).toBe(200);
    expect((await read(admin, tk.openAgent2)).status).toBe(200);
    expect((await read(admin, 2_000_000_000)).status).toBe(404);

    const uuid = ((await kit.row(tk.pendingQ2)) as { uuid: string }).uuid;
    expect((await kit.call(agent2, 'GET', `/tickets/u/${uuid}`)).status).toBe(200);
    expect((await kit.call(agent1, 'GET', `/tickets/u/${uuid}`)).body).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    expect((await kit.call(agent1, 'GET', '/tickets/u/123e4567-e89b-42d3-a456-426614174000')).status).toBe(404);
  });
});

describe('filters, order, paging and counts', () => {
  let companyId: number;
  let admin: KitUser;
  let agent: KitUser;
  let q1: number;
  let q2: number;
  const tk = {} as Record<'a' | 'b' | 'c' | 'contactTag' | 'd' | 'ticketTag', number>;

  beforeAll(async () => {
    ({ companyId, admin } = await kit.company());
    q1 = await kit.queue(companyId);
    q2 = await kit.queue(companyId);
    agent = await kit.user(companyId, { queueIds: [q1, q2] });
    const day = (d: number, h = 12) => new Date(2024, 4, d, h, 0, 0);
    tk.a = (
      await kit.ticket(companyId, {
        status: 'open',
        queueId: q1,
        userId: agent.id,
        whatsappId: 1,
        createdAt: day(1),
        updatedAt: day(1),
      })
    ).id;
    tk.b = (
      await kit.ticket(companyId, {
        status: 'open',
        queueId: q2,
        userId: admin.id,
        whatsappId: 2,
        createdAt: day(2),
        updatedAt: day(3),
      })
    ).id;
    tk.c = (
      await kit.ticket(companyId, { status: 'pending', queueId: q1, unreadMessages: 3, createdAt: day(2, 23), updatedAt: day(4) })
    ).id;
    tk.d = (
      await kit.ticket(companyId, { status: 'closed', queueId: q2, userId: agent.id, createdAt: day(5), updatedAt: day(5) })
    ).id;
    const ticketTag = await kit.tag(companyId);
    const contactTag = await kit.tag(companyId);
    await kit.tagTicket(companyId, tk.a, ticketTag);
    await kit.tagContact(companyId, ((await kit.row(tk.c)) as { contactId: number }).contactId, contactTag);
    tk.ticketTag = ticketTag;
    tk.contactTag = contactTag;
  });

  const adminList = (query: Record<string, string | number | boolean | Array<number | string>>) =>
    kit.list(admin, { showAll: true, ...query });

  it('queueIds, whatsapps, withUnreadMessages', async () => {
    expect(ids((await adminList({ queueIds: [q1] })).body.tickets)).toEqual(sorted(tk.a, tk.c));
    expect(ids((await adminList({ status: 'open', queueIds: [q2] })).body.tickets)).toEqual([tk.b]);
    expect(ids((await adminList({ whatsapps: [2] })).body.tickets)).toEqual([tk.b]);
    expect(ids((await adminList({ withUnreadMessages: true })).body.tickets)).toEqual([tk.c]);
  });

  it('tags match the ticket’s tags or its contact’s', async () => {
    expect(ids((await adminList({ tags: [tk.ticketTag] })).body.tickets)).toEqual([tk.a]);
    expect(ids((await adminList({ tags: [tk.contactTag] })).body.tickets)).toEqual([tk.c]);
    expect(ids((await adminList({ tags: [tk.ticketTag, tk.contactTag] })).body.tickets)).toEqual(sorted(tk.a, tk.c));
  });

  it('users filters for admins and is ignored for agents', async () => {
    expect(ids((await adminList({ users: [agent.id] })).body.tickets)).toEqual(sorted(tk.a, tk.d));
    // the agent's search view: own tickets and unassigned ones of their queues, whatever `users` says
    expect(ids((await kit.list(agent, { users: [admin.id] })).body.tickets)).toEqual(sorted(tk.a, tk.c, tk.d));
  });

  it('statusFilter narrows the search view; status wins over it', async () => {
    expect(ids((await adminList({ statusFilter: ['open', 'closed'] })).body.tickets)).toEqual(sorted(tk.a, tk.b, tk.d));
    expect(ids((await adminList({ status: 'pending', statusFilter: ['open'] })).body.tickets)).toEqual([tk.c]);
  });

  it('date (created that day) and updatedAt (updated that day)', async () => {
    expect(ids((await adminList({ date: '2024-05-02' })).body.tickets)).toEqual(sorted(tk.b, tk.c));
    expect(ids((await adminList({ updatedAt: '2024-05-03' })).body.tickets)).toEqual([tk.b]);
    expect((await adminList({ date: '2024-06-01' })).body.count).toBe(0);
  });

  it('sorts by updatedAt, newest first unless ASC', async () => {
    expect((await adminList({})).body.tickets.map((ticket) => ticket.id)).toEqual([tk.d, tk.c, tk.b, tk.a]);
    expect((await adminList({ sortTickets: 'ASC' })).body.tickets.map((ticket) => ticket.id)).toEqual([tk.a, tk.b, tk.c, tk.d]);
  });

  it('answers the API shape: queue, user, tags, contact', async () => {
    const [ticket] = (await adminList({ queueIds: [q1], status: 'open' })).body.tickets;
    expect(ticket).toMatchObject({
      id: tk.a,
      status: 'open',
      queue: { id: q1 },
      user: { id: agent.id },
      tags: [{ id: tk.ticketTag }],
      contact: { id: expect.any(Number), number: expect.stringMatching(/^5511/) },
    });
  });

  it('refuses malformed arrays and dates with ERR_VALIDATION', async () => {
    for (const query of ['queueIds=abc', 'tags=[1,"x"]', 'statusFilter=["bogus"]', 'date=2024-13-01', 'users=[99999999999]']) {
      const response = await kit.call(admin, 'GET', `/tickets?${query}`);
      expect(response.status, query).toBe(400);
      expect((response.body as { error: string }).error).toBe('ERR_VALIDATION');
    }
  });
});

describe('pages and the count', () => {
  let companyId: number;
  let admin: KitUser;
  const created: number[] = [];

  beforeAll(async () => {
    ({ companyId, admin } = await kit.company());
    const base = Date.now() - 3_600_000;
    for (let index = 0; index < TICKETS_PAGE_SIZE + 5; index += 1) {
      const ticket = await kit.ticket(companyId, { status: 'pending', updatedAt: new Date(base + index * 1_000) });
      created.push(ticket.id);
    }
    await kit
      .knex('contacts')
      .whereIn('id', kit.knex('tickets').whereIn('id', created).select('contactId'))
      .update({ name: 'Paged person' });
  });

  it('page 1 is full and has more; page 2 the last 5; past the end nothing, still counted', async () => {
    const total = TICKETS_PAGE_SIZE + 5;
    const first = await kit.list(admin, { status: 'pending', pageNumber: 1 });
    expect(first.body.tickets).toHaveLength(TICKETS_PAGE_SIZE);
    expect(first.body).toMatchObject({ hasMore: true, count: total });
    expect(first.body.tickets[0]?.id).toBe(created[total - 1]);
    const second = await kit.list(admin, { status: 'pending', pageNumber: 2 });
    expect(second.body.tickets.map((ticket) => ticket.id)).toEqual(created.slice(0, 5).reverse());
    expect(second.body).toMatchObject({ hasMore: false, count: total });
    expect((await kit.list(admin, { status: 'pending', pageNumber: 3 })).body).toEqual({
      tickets: [],
      hasMore: false,
      count: total,
    });
  });

  it('a search pages and counts the same way', async () => {
    const total = TICKETS_PAGE_SIZE + 5;
    const first = await kit.list(admin, { searchParam: 'paged', pageNumber: 1 });
    expect(first.body).toMatchObject({ hasMore: true, count: total });
    expect(first.body.tickets).toHaveLength(TICKETS_PAGE_SIZE);
    const second = await kit.list(admin, { searchParam: 'paged', pageNumber: 2 });
    expect(second.body).toMatchObject({ hasMore: false, count: total });
    expect(second.body.tickets).toHaveLength(5);
    expect((await kit.list(admin, { searchParam: 'paged', pageNumber: 9 })).body).toEqual({
      tickets: [],
      hasMore: false,
      count: total,
    });
  });
});

describe('search', () => {
  let companyId: number;
  let admin: KitUser;
  let agent: KitUser;
  const tk = {} as Record<'joao' | 'maria' | 'other', number>;

  beforeAll(async () => {
    ({ companyId, admin } = await kit.company());
    const q1 = await kit.queue(companyId);
    const q2 = await kit.queue(companyId);
    agent = await kit.user(companyId, { queueIds: [q1] });
    const maria = await kit.contact(companyId, { name: 'Maria Aparecida', number: '5511987654321' });
    const joao = await kit.contact(companyId, { name: 'João 100% Silva', number: '5521912345678' });
    const other = await kit.contact(companyId, { name: 'Outra Pessoa', number: '5531900000000' });
    tk.maria = (await kit.ticket(companyId, { contactId: maria, status: 'open', queueId: q1, userId: agent.id })).id;
    tk.joao = (await kit.ticket(companyId, { contactId: joao, status: 'pending', queueId: q1 })).id;
    tk.other = (await kit.ticket(companyId, { contactId: other, status: 'pending', queueId: q2 })).id;
    await kit.message(companyId, tk.other, 'Quero o orçamento do ventilador');
    await kit.message(companyId, tk.joao, 'bom dia');
  });

  const search = (user: KitUser, searchParam: string, extra: Record<string, boolean> = {}) =>
    kit.list(user, { searchParam, ...extra }).then((response) => ids(response.body.tickets));

  it('matches the contact name, case-insensitively', async () => {
    expect(await search(admin, 'maria apa')).toEqual([tk.maria]);
    expect(await search(admin, 'SILVA')).toEqual([tk.joao]);
  });

  it('matches the number by its digits, whatever the punctuation', async () => {
    expect(await search(admin, '+55 (11) 98765')).toEqual([tk.maria]);
    expect(await search(admin, '912345')).toEqual([tk.joao]);
  });

  it('matches the ticket id', async () => {
    expect(await search(admin, String(tk.other))).toContain(tk.other);
  });

  it('matches message contents only with searchOnMessages', async () => {
    expect(await search(admin, 'ventilador')).toEqual([]);
    expect(await search(admin, 'ventilador', { searchOnMessages: true })).toEqual([tk.other]);
    // the contact search still applies alongside
    expect(await search(admin, 'maria', { searchOnMessages: true })).toEqual([tk.maria]);
  });

  it('takes LIKE wildcards literally', async () => {
    expect(await search(admin, '100%')).toEqual([tk.joao]);
    expect(await search(admin, '%')).toEqual([tk.joao]);
    expect(await search(admin, '_')).toEqual([]);
  });

  it('stays within what an agent may see', async () => {
    expect(await search(agent, 'ventilador', { searchOnMessages: true })).toEqual([]);
    expect(await search(agent, 'bom dia', { searchOnMessages: true })).toEqual([tk.joao]);
  });

  it('survives odd text', async () => {
    for (const text of ["'; DROP TABLE tickets; --", '\\', '😀', '\u202Ename']) {
      const response = await kit.list(admin, { searchParam: text, searchOnMessages: true });
      expect(response.status, text).toBe(200);
    }
    // a NUL is no text any column holds: refused like every field of every route
    expect(await kit.list(admin, { searchParam: 'a\u0000b', searchOnMessages: true })).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'ERR_VALIDATION' }),
    });
  });
});

describe('search of a common text (probed ticket by ticket)', () => {
  it('finds, orders, pages and counts (up to 100) like the indexed search', async () => {
    const { companyId, admin } = await kit.company();
    const queue = await kit.queue(companyId);
    const agent = await kit.user(companyId, { queueIds: [queue] });
    const base = Date.now() - 86_400_000;
    const made: number[] = [];
    for (let index = 0; index < 150; index += 1) {
      const ticket = await kit.ticket(companyId, {
        status: index % 2 === 0 ? 'pending' : 'closed',
        queueId: index % 3 === 0 ? queue : null,
        updatedAt: new Date(base + index * 1_000),
      });
      made.push(ticket.id);
    }
    // 15,000 messages saying "muito obrigado" on the even tickets: far past the planner's threshold
    await kit.knex.raw(
      `INSERT INTO messages (company_id, ticket_id, body)
       SELECT ?, (?::int[])[1 + (g % 75) * 2], 'Muito obrigado pela ajuda ' || g FROM generate_series(1, 15000) g`,
      [companyId, made],
    );
    await kit.knex.raw('ANALYZE messages');
    const even = made.filter((_id, index) => index % 2 === 0);

    const page = TICKETS_PAGE_SIZE;
    const first = await kit.list(admin, { searchParam: 'obrigado', searchOnMessages: true });
    expect(first.body.tickets.map((ticket) => ticket.id)).toEqual([...even].reverse().slice(0, page));
    expect(first.body).toMatchObject({ hasMore: true, count: 75 });
    const second = await kit.list(admin, { searchParam: 'obrigado', searchOnMessages: true, pageNumber: 2 });
    expect(second.body.tickets.map((ticket) => ticket.id)).toEqual([...even].reverse().slice(page, 2 * page));
    const lastPage = Math.ceil(75 / page);
    const last = await kit.list(admin, { searchParam: 'obrigado', searchOnMessages: true, pageNumber: lastPage });
    expect(last.body.tickets.map((ticket) => ticket.id)).toEqual([...even].reverse().slice((lastPage - 1) * page, 75));
    expect(last.body.hasMore).toBe(false);

    // the agent: only the unassigned tickets of their queue
    const mine = even.filter((id) => made.indexOf(id) % 3 === 0);
    const agentList = await kit.list(agent, { searchParam: 'obrigado', searchOnMessages: true });
    expect(ids(agentList.body.tickets)).toEqual(sorted(...mine));

    // more than 100 matches: the count stops at 100, paging goes on
    await kit.knex.raw(`INSERT INTO messages (company_id, ticket_id, body) SELECT ?, t, 'obrigado!' FROM unnest(?::int[]) t`, [
      companyId,
      made,
    ]);
    const all = await kit.list(admin, { searchParam: 'obrigado', searchOnMessages: true, pageNumber: 3 });
    expect(all.body).toMatchObject({ count: 100, hasMore: true });
    expect(all.body.tickets.map((ticket) => ticket.id)).toEqual([...made].reverse().slice(2 * page, 3 * page));
  });
});

describe('search of a long word (the trigram index asked for its prefix)', () => {
  it('takes the first six characters of the longest word of eight or more', () => {
    expect(prefixKeyOf('liquidificador')).toBe('liquid');
    expect(prefixKeyOf('meu liquidificador novo')).toBe('liquid');
    expect(prefixKeyOf('estorno')).toBeNull();
    expect(prefixKeyOf('ção😀ção😀ção')).toBe('ção😀çã');
  });

  it('asks for a prefix as rare as the word, for the whole word when the prefix is common; finds the same', async () => {
    const { companyId, admin } = await kit.company();
    const made: number[] = [];
    for (let index = 0; index < 6; index += 1) made.push((await kit.ticket(companyId, { status: 'pending' })).id);
    const [blender1, blender2, informed, other] = made as [number, number, number, number];
    // "liquidificador" in two tickets and no other word starting so; "informatizado" in one ticket among 120
    // messages saying "informação"
    await kit.knex.raw(
      `INSERT INTO messages (company_id, ticket_id, body) VALUES
        (:c, :b1, 'O Liquidificador quebrou'), (:c, :b2, 'troca do liquidificador, por favor'),
        (:c, :i, 'sistema informatizado')`,
      { c: companyId, b1: blender1, b2: blender2, i: informed },
    );
    await kit.knex.raw(
      `INSERT INTO messages (company_id, ticket_id, body) SELECT ?, ?, 'uma informação ' || g FROM generate_series(1, 120) g`,
      [companyId, other],
    );

    // one word is read from the tickets' words; the messages' trigram index is asked when deleted messages
    // must be left out (LGPD), which the words can't tell
    expect(await planSearch(kit.knex, companyId, 'liquidificador', true, {})).toMatchObject({
      messages: 'index',
      source: 'words',
    });
    const hidingDeleted = { enableLGPD: 'enabled', lgpdDeleteMessage: 'enabled' };
    const blender = await planSearch(kit.knex, companyId, 'liquidificador', true, hidingDeleted);
    expect(blender).toMatchObject({ messages: 'index', indexKey: '%liquid%', source: 'messages' });
    const inform = await planSearch(kit.knex, companyId, 'informatizado', true, hidingDeleted);
    expect(inform).toMatchObject({ messages: 'index', indexKey: null, source: 'messages' });

    const search = async (text: string) =>
      ids((await kit.list(admin, { searchParam: text, searchOnMessages: true })).body.tickets);
    expect(await search('liquidificador')).toEqual(sorted(blender1, blender2));
    expect(await search('LIQUIDIFICADOR')).toEqual(sorted(blender1, blender2));
    expect(await search('informatizado')).toEqual([informed]);
  });
});

describe('LGPD number masking in list answers', () => {
  it('masks numbers for profile users when enableLGPD and lgpdHideNumber are on, groups excepted', async () => {
    const { companyId, admin } = await kit.company();
    const queue = await kit.queue(companyId);
    const agent = await kit.user(companyId, { queueIds: [queue] });
    const person = await kit.contact(companyId, { number: '5511999998877' });
    const group = await kit.contact(companyId, { number: '120363000000001', isGroup: true });
    const personTicket = await kit.ticket(companyId, { contactId: person, status: 'open', queueId: queue, userId: agent.id });
    await kit.ticket(companyId, { contactId: group, isGroup: true, status: 'open', queueId: queue, userId: agent.id });

    const numbers = async (user: KitUser) =>
      (await kit.list(user, { status: 'open', showAll: true })).body.tickets.map((ticket) => ticket.contact.number).sort();
    expect(await numbers(agent)).toEqual(['120363000000001', '5511999998877']);

    await kit.setting(companyId, 'enableLGPD', 'enabled');
    await kit.setting(companyId, 'lgpdHideNumber', 'enabled');
    expect(await numbers(agent)).toEqual(['***********77', '120363000000001']);
    expect(await numbers(admin)).toEqual(['120363000000001', '5511999998877']);
    expect(((await kit.call(agent, 'GET', `/tickets/${personTicket.id}`)).body as Ticket).contact.number).toBe('***********77');
    expect(((await kit.call(agent, 'GET', `/tickets/u/${personTicket.uuid}`)).body as Ticket).contact.number).toBe(
      '***********77',
    );

    // only both settings together mask
    await kit.setting(companyId, 'enableLGPD', 'disabled');
    expect(await numbers(agent)).toEqual(['120363000000001', '5511999998877']);
  });
});
