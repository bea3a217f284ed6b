import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../shared/types';
import { type KitUser, MessageKit } from '../test/message-kit';
import { SEARCH_TUNING } from './ticket-list.service';

/**
 * The tickets' search documents (migration 0002): whatever writes messages — a raw insert, an agent's send,
 * an edit, a move to another ticket (a merge), a delete — each ticket's parts hold exactly its messages'
 * lowercased bodies; and the search that probes them finds what `ILIKE` on the messages finds.
 */
let t: TestApp;
let kit: MessageKit;
let companyId: number;
let agent: KitUser;
let queue: number;

beforeAll(async () => {
  t = await createTestApp();
  kit = new MessageKit(t);
  ({ companyId } = await kit.company());
  queue = await kit.queue(companyId);
  agent = await kit.user(companyId, { queueIds: [queue] });
});
afterAll(async () => {
  await t?.close();
});

/** What a ticket's parts hold, as one sorted list of message texts. */
async function documented(ticketId: number): Promise<string[]> {
  const rows = (await kit.knex('ticketSearchDocs').where({ ticketId }).orderBy('part').select('doc', 'part')) as Array<{
    doc: string;
    part: number;
  }>;
  expect(rows.map((row) => row.part)).toEqual(rows.map((_row, index) => index));
  return rows.flatMap((row) => row.doc.split('\u0001')).sort();
}

/** What the ticket's messages say, lowercased, as one sorted list. */
async function said(ticketId: number): Promise<string[]> {
  const rows = (await kit
    .knex('messages')
    .where({ ticketId })
    .whereNot('body', '')
    .select(kit.knex.raw('lower(body) AS text'))) as Array<{
    text: string;
  }>;
  return rows.map((row) => row.text).sort();
}

describe('search documents', () => {
  it('follow inserts, sends, edits, moves and deletes', async () => {
    const a = await kit.ticket(companyId, { status: 'open', queueId: queue, userId: agent.id });
    const b = await kit.ticket(companyId, { status: 'open', queueId: queue, userId: agent.id });
    await kit.message(companyId, a.id, 'Bom DIA, Quero o Estorno');
    await kit.message(companyId, a.id, '');
    // a long conversation: several parts of about 1,000 bytes
    await kit.knex.raw(
      `INSERT INTO messages (company_id, ticket_id, body) SELECT ?, ?, 'Mensagem número ' || g || ' ' || repeat('x', 90) FROM generate_series(1, 40) g`,
      [companyId, a.id],
    );
    expect((await kit.knex('ticketSearchDocs').where({ ticketId: a.id })).length).toBeGreaterThan(3);
    expect(await documented(a.id)).toEqual(await said(a.id));

    const sent = await kit.call<{ messages: Message[] }>(agent, 'POST', `/messages/${a.id}`, { body: 'Ôi, já VERIFICO' });
    expect(sent.status).toBe(201);
    expect(await documented(a.id)).toContain('ôi, já verifico');
    const message = sent.body.messages[0] as Message;
    expect((await kit.call(agent, 'POST', `/messages/edit/${message.id}`, { body: 'Corrigido' })).status).toBe(200);
    expect(await documented(a.id)).toEqual(await said(a.id));
    expect(await documented(a.id)).not.toContain('ôi, já verifico');

    // a merge moves every message of a ticket in one statement
    await kit.message(companyId, b.id, 'Do outro ticket');
    await kit.knex('messages').where({ ticketId: a.id }).update({ ticketId: b.id });
    expect(await documented(a.id)).toEqual([]);
    expect(await documented(b.id)).toEqual(await said(b.id));
    expect(await documented(b.id)).toContain('do outro ticket');

    await kit.knex('messages').where({ ticketId: b.id }).whereILike('body', 'mensagem número %').delete();
    expect(await documented(b.id)).toEqual(await said(b.id));
    await kit.knex('tickets').where({ id: b.id }).delete();
    expect(await kit.knex('ticketSearchDocs').where({ ticketId: b.id })).toEqual([]);
  });

  it('a common text is probed in them and finds what ILIKE finds, as the agent may see it', async () => {
    const mine: number[] = [];
    const others: number[] = [];
    const base = Date.now() - 86_400_000;
    for (let index = 0; index < 30; index += 1) {
      const ticket = await kit.ticket(companyId, {
        status: index % 3 === 0 ? 'closed' : 'pending',
        queueId: index % 2 === 0 ? queue : null,
        userId: index % 5 === 0 ? agent.id : null,
        updatedAt: new Date(base + index * 1_000),
      });
      (index % 5 === 0 || (index % 2 === 0 && index % 5 !== 0) ? mine : others).push(ticket.id);
    }
    const all = [...mine, ...others];
    // more than the planner's threshold of matching messages: the search probes the documents
    await kit.knex.raw(
      `INSERT INTO messages (company_id, ticket_id, body)
       SELECT ?, (?::int[])[1 + g % ?], 'Pedido CONFIRMADO nº ' || g FROM generate_series(1, 700) g`,
      [companyId, all, all.length],
    );
    const confirmed = await kit.list(agent, { searchParam: 'confirmado', searchOnMessages: true });
    const expected = mine.filter((id) => all.indexOf(id) < 30);
    expect(confirmed.body.tickets.map((ticket) => ticket.id).sort((x, y) => x - y)).toEqual([...expected].sort((x, y) => x - y));
    expect(confirmed.body.count).toBe(expected.length);
    // newest first
    const order = confirmed.body.tickets.map((ticket) => Date.parse(ticket.updatedAt));
    expect(order).toEqual([...order].sort((x, y) => y - x));
    // a text with the documents' separator is looked for in the messages themselves: same answer
    const withSeparator = await kit.list(agent, { searchParam: 'confirmado\u0001', searchOnMessages: true });
    expect(withSeparator.body).toEqual({ tickets: [], hasMore: false, count: 0 });
  });

  it('every way of searching (tickets read, walked past the gathered ones, probed; in a window, then part by part) answers what ILIKE answers', async () => {
    const { companyId: company, admin } = await kit.company();
    const q1 = await kit.queue(company);
    const q2 = await kit.queue(company);
    const viewer = await kit.user(company, { queueIds: [q1, q2] });
    const base = Date.now() - 86_400_000;
    const made: Array<{ id: number; visible: boolean }> = [];
    const statuses = ['pending', 'open', 'closed'] as const;
    for (let index = 0; index < 36; index += 1) {
      const own = index % 4 === 0;
      const queueId = index % 3 === 0 ? null : index % 3 === 1 ? q1 : q2;
      const ticket = await kit.ticket(company, {
        status: statuses[index % 3],
        queueId,
        userId: own ? viewer.id : index % 4 === 1 ? admin.id : null,
        // not in id order: list order is updated_at
        updatedAt: new Date(base + ((index * 7) % 36) * 60_000),
      });
      made.push({ id: ticket.id, visible: own || (index % 4 !== 1 && queueId !== null) });
    }
    // "alfa" in two tickets out of three, "Beta" in one out of five
    for (const [index, ticket] of made.entries()) {
      await kit.message(company, ticket.id, index % 3 !== 2 ? `Olá ALFA ${index}` : `nada ${index}`);
      if (index % 5 === 0) await kit.message(company, ticket.id, `com beta dentro ${index}`);
    }
    const expected = async (word: string, user: 'admin' | 'viewer', page = 1) => {
      const rows = (await kit
        .knex('tickets as t')
        .where('t.companyId', company)
        .whereIn(
          't.id',
          made.filter((ticket) => user === 'admin' || ticket.visible).map((ticket) => ticket.id),
        )
        .whereExists((sub) =>
          sub.select(1).from('messages as m').whereRaw('m.ticket_id = t.id').whereILike('m.body', `%${word}%`),
        )
        .orderBy([
          { column: 't.updatedAt', order: 'desc' },
          { column: 't.id', order: 'desc' },
        ])
        .select('t.id')) as Array<{ id: number }>;
      const ids = rows.map((row) => row.id);
      return { ids: ids.slice((page - 1) * 40, page * 40), count: Math.min(ids.length, 100) };
    };
    const tuning = { ...SEARCH_TUNING };
    try {
      for (const [gatherAbove, probeAbove, window] of [
        [1_000, 2_000, 1_500],
        [2, 1_000, 1_500],
        [2, 1_000, 3],
        [0, 2, 1_500],
        [0, 2, 4],
        [0, 2, 1],
      ] as const) {
        SEARCH_TUNING.gatherAboveMessages = gatherAbove;
        SEARCH_TUNING.probeAboveMessages = probeAbove;
        SEARCH_TUNING.recentWindow = window;
        for (const word of ['alfa', 'BETA', 'nada 3']) {
          for (const [user, who] of [
            [admin, 'admin'],
            [viewer, 'viewer'],
          ] as const) {
            const answer = await kit.list(user, { searchParam: word, searchOnMessages: true });
            const want = await expected(word, who);
            expect(
              { ids: answer.body.tickets.map((ticket) => ticket.id), count: answer.body.count },
              `${word} as ${who}, gather above ${gatherAbove}, probe above ${probeAbove}, window ${window}`,
            ).toEqual(want);
          }
        }
      }
    } finally {
      Object.assign(SEARCH_TUNING, tuning);
    }
  });
});
