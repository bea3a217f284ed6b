import type { InboundMessage, InboxService } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureInbound, inboxServiceOf } from '../testing/fixture-driver';
import { knownTicketBatcher } from './inbound-batch';

/** Receives that arrive while others are being written leave together as one statement (inbound-batch.ts). */
let t: TestApp;
let knex: Knex;
let inbox: InboxService;
let acme: number;
let lite: number;
let whatsappId = 700;

beforeAll(async () => {
  t = await createTestApp();
  knex = t.balcao.core.knex;
  inbox = inboxServiceOf(t);
  acme = t.demo.companies.acme;
  lite = t.demo.companies.lite;
});
afterAll(async () => {
  await t?.close();
});

let numberSeq = 0;
const newNumber = () => {
  numberSeq += 1;
  return `55219${String(Date.now() % 1e5).padStart(5, '0')}${String(numberSeq).padStart(3, '0')}`;
};

/** A contact with an active ticket on the connection (its first message made both). */
async function knownContact(companyId: number, wa: number) {
  const number = newNumber();
  const first = await inbox.receive(fixtureInbound(companyId, wa, { number, body: 'primeira' }));
  return { number, ticketId: first.ticketId, contactId: first.contactId };
}

describe('inbound batches', () => {
  it('writes a burst of receives in few statements, each answered as if alone', async () => {
    whatsappId += 1;
    const wa = whatsappId;
    const contacts = await Promise.all([1, 2, 3, 4, 5].map(() => knownContact(acme, wa)));
    const liteContact = await knownContact(lite, wa);
    const batcher = knownTicketBatcher(knex);
    const before = { ...batcher.stats };

    const burst: InboundMessage[] = [];
    for (let round = 0; round < 8; round++) {
      for (const [index, contact] of contacts.entries()) {
        burst.push(
          fixtureInbound(acme, wa, { number: contact.number, id: `b-${wa}-${index}-${round}`, body: `c${index} r${round}` }),
        );
      }
      burst.push(fixtureInbound(lite, wa, { number: liteContact.number, id: `b-${wa}-lite-${round}`, body: `lite r${round}` }));
    }
    // a redelivery and a reply to a message of the same burst
    const redelivered = burst[7] as InboundMessage;
    burst.push(structuredClone(redelivered));
    burst.push(
      fixtureInbound(acme, wa, {
        number: (contacts[0] as { number: string }).number,
        id: `b-${wa}-reply`,
        body: 'respondendo',
        message: { quotedId: (burst[0] as InboundMessage).message.id },
      }),
    );
    // someone new, and a known number from an identifier not seen before (found by number)
    const stranger = newNumber();
    burst.push(fixtureInbound(acme, wa, { number: stranger, id: `b-${wa}-stranger`, body: 'oi' }));
    const byNumber = contacts[1] as { number: string; contactId: number; ticketId: number };
    burst.push(
      fixtureInbound(acme, wa, {
        number: byNumber.number,
        identifiers: [`lid-${byNumber.number}`],
        id: `b-${wa}-lid`,
        body: 'pelo lid',
      }),
    );

    const results = await Promise.all(burst.map((input) => inbox.receive(input)));

    // batched: fewer statements than writes, at least one of several
    const statements = batcher.stats.statements - before.statements;
    const writes = batcher.stats.writes - before.writes;
    expect(writes).toBe(burst.length);
    expect(statements).toBeLessThan(writes);
    expect(batcher.stats.largest).toBeGreaterThan(1);

    // the redelivery: stored once (by whichever copy is written first), the other copy answered with the
    // stored message
    const copies = [results[7], results[burst.length - 4]];
    expect(copies.map((copy) => copy?.created).sort()).toEqual([false, true]);
    expect(copies[1]?.messageId).toBe(copies[0]?.messageId);
    expect(copies[1]?.ticketId).toBe(copies[0]?.ticketId);
    expect(await knex('messages').where({ channelMessageId: redelivered.message.id, whatsappId: wa }).count()).toEqual([
      { count: 1 },
    ]);

    for (const [index, contact] of contacts.entries()) {
      const rows = await knex('messages').where({ ticketId: contact.ticketId }).orderBy('id').select('body', 'channelMessageId');
      const own = rows.filter((row) => row.body.startsWith(`c${index} `)).map((row) => row.body);
      // every message once, in the order they were received
      expect(own).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((round) => `c${index} r${round}`));
      const ticket = await knex('tickets').where({ id: contact.ticketId }).first();
      expect(ticket.unreadMessages).toBe(rows.length);
    }
    const reply = await knex('messages')
      .where({ channelMessageId: `b-${wa}-reply` })
      .first();
    const quoted = await knex('messages')
      .where({ channelMessageId: (burst[0] as InboundMessage).message.id })
      .first();
    expect(reply.quotedMsgId).toBe(quoted.id);
    expect(reply.ticketId).toBe(contacts[0]?.ticketId);

    // each company's messages on its own ticket
    const liteRows = await knex('messages').where({ ticketId: liteContact.ticketId }).select('companyId');
    expect(liteRows).toHaveLength(9);
    expect(new Set(liteRows.map((row) => row.companyId))).toEqual(new Set([lite]));

    const strangerResult = results[burst.length - 2];
    expect(strangerResult).toMatchObject({ created: true, ticketCreated: true });
    const lidResult = results[burst.length - 1];
    expect(lidResult).toMatchObject({ created: true, ticketId: byNumber.ticketId, contactId: byNumber.contactId });
    const identities = await knex('contactIdentities').where({ contactId: byNumber.contactId }).pluck('identifier');
    expect(identities).toContain(`lid-${byNumber.number}`);
  });

  it('a batch that fails is written again message by message: only the bad one fails', async () => {
    whatsappId += 1;
    const wa = whatsappId;
    const contact = await knownContact(acme, wa);
    const batcher = knownTicketBatcher(knex);
    const fallbacks = batcher.stats.fallbacks;
    const burst = Array.from({ length: 12 }, (_, i) =>
      fixtureInbound(acme, wa, { number: contact.number, id: `f-${wa}-${i}`, body: i === 6 ? 'nul \u0000 byte' : `m${i}` }),
    );
    const settled = await Promise.allSettled(burst.map((input) => inbox.receive(input)));
    expect(settled[6]?.status).toBe('rejected');
    expect(settled.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(11);
    expect(batcher.stats.fallbacks).toBeGreaterThan(fallbacks);
    const bodies = await knex('messages').where({ ticketId: contact.ticketId }).orderBy('id').pluck('body');
    expect(bodies).toHaveLength(12);
    const ticket = await knex('tickets').where({ id: contact.ticketId }).first();
    expect(ticket.unreadMessages).toBe(12);
  });
});
