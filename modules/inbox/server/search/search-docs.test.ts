import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../shared/types';
import { type KitUser, MessageKit } from '../messages/testing/message-kit';
import { planSearch, SEARCH_TUNING, SEARCH_WORD_SEPARATORS, searchesWords } from './search-plan';

/**
 * The tickets' search documents (migration 0002): whatever writes messages — a raw insert, an agent's send,
 * an edit, a move to another ticket (a merge), a delete — each ticket's parts hold exactly its messages'
 * lowercased bodies, and its words (migration 0004) exactly the words of those bodies; and every way the
 * search reads them finds what `ILIKE` on the messages finds.
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
        // one word is counted in tickets (their words), a phrase in messages: both thresholds move together
        SEARCH_TUNING.gatherAboveMessages = gatherAbove;
        SEARCH_TUNING.probeAboveMessages = probeAbove;
        SEARCH_TUNING.gatherAboveTickets = gatherAbove;
        SEARCH_TUNING.probeAboveTickets = probeAbove;
        SEARCH_TUNING.recentWindow = window;
        for (const word of ['alfa', 'BETA', 'nada 3', 'lfa']) {
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

/** A body's words as migration 0004 cuts them (written again here): lowercased by Postgres, split in JS. */
function wordsOf(lowered: string): string[] {
  const words = new Set<string>();
  const split: string[][] = [[]];
  for (const character of lowered) {
    if (SEARCH_WORD_SEPARATORS.has(character)) split.push([]);
    else split.at(-1)?.push(character);
  }
  for (const characters of split) {
    if (characters.length === 0) continue;
    // a long word as pieces of 100 characters every 50
    for (let start = 0; start === 0 || start < characters.length - 50; start += 50) {
      words.add(characters.slice(start, start + 100).join(''));
    }
  }
  return [...words];
}

describe('search words', () => {
  it('answer one word of 3 to 51 characters', () => {
    expect(searchesWords('est')).toBe(true);
    expect(searchesWords('es')).toBe(false);
    expect(searchesWords('x'.repeat(51))).toBe(true);
    expect(searchesWords('x'.repeat(52))).toBe(false);
    // characters, not UTF-16 units
    expect(searchesWords('😀'.repeat(51))).toBe(true);
    expect(searchesWords('bom dia')).toBe(false);
    expect(searchesWords('bom\u00a0dia')).toBe(true);
    expect(searchesWords('pedido\u0001')).toBe(false);
    expect(searchesWords('a\tb\nc')).toBe(false);
  });

  /** The rows of a ticket's words, sorted. */
  async function stored(ticketId: number): Promise<string[]> {
    const rows = (await kit.knex('ticketSearchWords').where({ ticketId }).select('word', 'companyId')) as Array<{
      word: string;
      companyId: number;
    }>;
    expect(rows.every((row) => row.companyId === companyId)).toBe(true);
    return rows.map((row) => row.word).sort();
  }
  /** What the ticket's messages say, as words, sorted. */
  async function spoken(ticketId: number): Promise<string[]> {
    return [...new Set((await said(ticketId)).flatMap(wordsOf))].sort();
  }

  it('follow inserts, sends, edits, moves and deletes; the vocabulary holds every word', async () => {
    const a = await kit.ticket(companyId, { status: 'open', queueId: queue, userId: agent.id });
    const b = await kit.ticket(companyId, { status: 'open', queueId: queue, userId: agent.id });
    const link = `https://loja.example/pedido/${'abcdefghij'.repeat(23)}`;
    await kit.message(companyId, a.id, 'Bom DIA,\tquero\no  ESTORNO.');
    await kit.message(companyId, a.id, `segue o link ${link}`);
    // several messages in one statement, as the receive writes them
    await kit.knex.raw(
      `INSERT INTO messages (company_id, ticket_id, body) SELECT ?, ?, 'Mensagem número ' || g FROM generate_series(1, 30) g`,
      [companyId, a.id],
    );
    expect(await stored(a.id)).toEqual(await spoken(a.id));
    expect(await stored(a.id)).toContain('estorno.');
    // the 236-character link is kept as pieces: none longer than 100
    expect((await stored(a.id)).filter((word) => word.startsWith('https://'))).toHaveLength(1);
    expect(Math.max(...(await stored(a.id)).map((word) => Array.from(word).length))).toBe(100);

    const sent = await kit.call<{ messages: Message[] }>(agent, 'POST', `/messages/${a.id}`, { body: 'Ôi, já VERIFICO' });
    expect(sent.status).toBe(201);
    expect(await stored(a.id)).toContain('verifico');
    const message = sent.body.messages[0] as Message;
    expect((await kit.call(agent, 'POST', `/messages/edit/${message.id}`, { body: 'Corrigido' })).status).toBe(200);
    expect(await stored(a.id)).toEqual(await spoken(a.id));
    expect(await stored(a.id)).not.toContain('verifico');

    await kit.message(companyId, b.id, 'Do outro ticket');
    await kit.knex('messages').where({ ticketId: a.id }).update({ ticketId: b.id });
    expect(await stored(a.id)).toEqual([]);
    expect(await stored(b.id)).toEqual(await spoken(b.id));

    await kit.knex('messages').where({ ticketId: b.id }).whereILike('body', 'mensagem número %').delete();
    expect(await stored(b.id)).toEqual(await spoken(b.id));
    expect(await stored(b.id)).not.toContain('número');

    const vocabulary = (await kit.knex('searchVocabulary').where({ companyId }).pluck('word')) as string[];
    expect(vocabulary).toEqual(expect.arrayContaining([...(await spoken(b.id)), 'verifico']));
    await kit.knex('tickets').where({ id: b.id }).delete();
    expect(await stored(b.id)).toEqual([]);
  });

  it('a gathered search also finds the contact names and the ticket id, for an agent and an admin', async () => {
    const { companyId: company, admin } = await kit.company();
    const q = await kit.queue(company);
    const viewer = await kit.user(company, { queueIds: [q] });
    const base = Date.now() - 3_600_000;
    const said = await kit.ticket(company, { status: 'pending', queueId: q, updatedAt: new Date(base + 1_000) });
    const named = await kit.ticket(company, {
      status: 'open',
      userId: viewer.id,
      contactId: await kit.contact(company, { name: 'Zeta7 Silva' }),
      updatedAt: new Date(base + 2_000),
    });
    const hidden = await kit.ticket(company, { status: 'open', userId: admin.id, updatedAt: new Date(base + 3_000) });
    const other = await kit.ticket(company, { status: 'pending', queueId: q, updatedAt: new Date(base + 4_000) });
    await kit.message(company, said.id, 'pedido ZETA7x confirmado');
    await kit.message(company, hidden.id, 'zeta7 também');
    await kit.message(company, other.id, 'nada a ver');
    const tuning = { ...SEARCH_TUNING };
    try {
      // every word's search gathers, and the agent's lists are read whole and joined
      SEARCH_TUNING.gatherAboveTickets = 0;
      expect((await planSearch(kit.knex, company, 'zeta7', true, {})).messages).toBe('gather');
      const ids = async (user: KitUser, text: string) =>
        (await kit.list(user, { searchParam: text, searchOnMessages: true })).body.tickets.map((ticket) => ticket.id);
      expect(await ids(viewer, 'zeta7')).toEqual([named.id, said.id]);
      expect(await ids(admin, 'zeta7')).toEqual([hidden.id, named.id, said.id]);
      expect(await ids(viewer, String(other.id))).toContain(other.id);
      expect(await ids(admin, String(other.id))).toContain(other.id);
    } finally {
      Object.assign(SEARCH_TUNING, tuning);
    }
  });

  it("find a part of a word, its case, punctuation and a long link; never another company's; not deleted messages under LGPD", async () => {
    const { companyId: company, admin } = await kit.company();
    const { companyId: otherCompany, admin: otherAdmin } = await kit.company();
    const link = `https://loja.example/p/${'0123456789'.repeat(20)}`;
    const refund = await kit.ticket(company, { status: 'pending' });
    const blender = await kit.ticket(company, { status: 'pending' });
    const linked = await kit.ticket(company, { status: 'closed' });
    const foreign = await kit.ticket(otherCompany, { status: 'pending' });
    await kit.message(company, refund.id, 'Quero o ESTORNO, por favor!');
    await kit.message(company, blender.id, 'o liquidificador (novo) quebrou');
    await kit.message(company, linked.id, `veja ${link} obrigado`);
    await kit.message(otherCompany, foreign.id, 'estorno também aqui');
    const search = async (user: KitUser, text: string, settings?: Record<string, string>) => {
      for (const [key, value] of Object.entries(settings ?? {})) await kit.setting(company, key, value);
      const answer = await kit.list(user, { searchParam: text, searchOnMessages: true });
      expect(answer.status).toBe(200);
      return answer.body.tickets.map((ticket) => ticket.id);
    };
    expect((await planSearch(kit.knex, company, 'Estorno', true, {})).source).toBe('words');
    expect(await search(admin, 'Estorno')).toEqual([refund.id]);
    expect(await search(admin, 'storn')).toEqual([refund.id]);
    expect(await search(admin, 'estorno,')).toEqual([refund.id]);
    expect(await search(admin, '(novo)')).toEqual([blender.id]);
    expect(await search(admin, 'quidifi')).toEqual([blender.id]);
    // 51 characters from the middle of the link's 220-character word, across two of its pieces' starts
    const middle = Array.from(link).slice(60, 111).join('');
    expect((await planSearch(kit.knex, company, middle, true, {})).source).toBe('words');
    expect(await search(admin, middle)).toEqual([linked.id]);
    // 52: the messages' way, same answer
    const longer = Array.from(link).slice(60, 112).join('');
    expect((await planSearch(kit.knex, company, longer, true, {})).source).toBe('messages');
    expect(await search(admin, longer)).toEqual([linked.id]);
    expect(await search(admin, 'ausente')).toEqual([]);
    expect(await search(otherAdmin, 'liquidificador')).toEqual([]);
    expect(
      (await kit.list(otherAdmin, { searchParam: 'estorno', searchOnMessages: true })).body.tickets.map((t) => t.id),
    ).toEqual([foreign.id]);

    // a deleted message, hidden under LGPD, is found only when deleted messages are shown
    await kit.knex('messages').where({ ticketId: blender.id }).update({ isDeleted: true });
    expect(await search(admin, 'quidifi')).toEqual([blender.id]);
    expect(await search(admin, 'quidifi', { enableLGPD: 'enabled', lgpdDeleteMessage: 'enabled' })).toEqual([]);
  });
});
