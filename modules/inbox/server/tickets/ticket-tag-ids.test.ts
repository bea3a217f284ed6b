import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ticket } from '../../shared/types';
import { MessageKit } from '../messages/testing/message-kit';

/**
 * The tag ids on a ticket's row (migration 0003) are always its own tags and its contact's, whoever writes
 * the tag rows — and the lists show the tags from them.
 */
let t: TestApp;
let kit: MessageKit;
beforeAll(async () => {
  t = await createTestApp();
  kit = new MessageKit(t);
});
afterAll(async () => {
  await t?.close();
});

/** The ids on the row, and what the tag rows say. */
async function idsOf(ticketId: number): Promise<{ stored: number[]; truth: number[] }> {
  const row = (await kit.knex('tickets').where({ id: ticketId }).first('tagIds', 'contactId')) as {
    tagIds: number[];
    contactId: number;
  };
  const own = (await kit.knex('ticketTags').where({ ticketId }).select('tagId')) as Array<{ tagId: number }>;
  const contact = (await kit.knex('contactTags').where({ contactId: row.contactId }).select('tagId')) as Array<{ tagId: number }>;
  const truth = [...new Set([...own, ...contact].map((link) => link.tagId))].sort((a, b) => a - b);
  return { stored: row.tagIds, truth };
}

describe('ticket tag ids', () => {
  it('follow ticket and contact tags, tag deletions, new tickets and tickets moved to another contact', async () => {
    const { companyId, admin } = await kit.company();
    const queue = await kit.queue(companyId);
    const [red, green, blue] = [
      await kit.tag(companyId, 'Red'),
      await kit.tag(companyId, 'Green'),
      await kit.tag(companyId, 'Blue'),
    ];
    const first = await kit.ticket(companyId, { status: 'open', queueId: queue, userId: admin.id });
    const second = await kit.ticket(companyId, { contactId: first.contactId, status: 'closed', queueId: queue });
    const other = await kit.ticket(companyId, { status: 'open', queueId: queue, userId: admin.id, whatsappId: 3 });
    const check = async () => {
      for (const ticket of [first, second, other]) {
        const { stored, truth } = await idsOf(ticket.id);
        expect(stored).toEqual(truth);
      }
    };

    await kit.tagTicket(companyId, first.id, red);
    await kit.tagContact(companyId, first.contactId, green);
    await check();
    expect((await idsOf(second.id)).stored).toEqual([green]);

    // through the API: a ticket tag, the contact's tags synced
    expect((await kit.call(admin, 'PUT', `/ticket-tags/${other.id}/${blue}`)).status).toBe(204);
    expect(
      (await kit.call(admin, 'POST', '/tags/sync', { contactId: first.contactId, tags: [{ id: blue, name: 'Blue' }] })).status,
    ).toBe(200);
    await check();
    expect((await idsOf(second.id)).stored).toEqual([blue]);

    // a new ticket of a tagged contact carries the contact's tags at once
    const third = await kit.ticket(companyId, { contactId: first.contactId, status: 'pending', queueId: queue, whatsappId: 2 });
    expect((await idsOf(third.id)).stored).toEqual([blue]);

    // a ticket moved to another contact (a merge) takes that contact's tags
    await kit.knex('tickets').where({ id: other.id }).update({ contactId: first.contactId });
    await check();

    // a tag deleted leaves every ticket
    expect((await kit.call(admin, 'DELETE', `/tags/${blue}`)).status).toBe(204);
    await check();
    expect((await idsOf(first.id)).stored).toEqual([red]);

    // the lists show them, named and coloured, by name
    await kit.tagTicket(companyId, first.id, green);
    const listed = await kit.list(admin, { status: 'open', showAll: true });
    const shown = listed.body.tickets.find((ticket: Ticket) => ticket.id === first.id);
    expect(shown?.tags.map((tag) => tag.name)).toEqual(['Green', 'Red']);
  });
});
