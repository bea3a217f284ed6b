import { runInTenant } from '@balcao/plugin-sdk/server';
import { createTestApp, seedTenantFixtures, type TenantFixtures, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contact } from '../models/contact';
import { Message } from '../models/message';
import { UserQueue } from '../models/queue';
import { QuickMessage } from '../models/quick-message';
import { Tag } from '../models/tag';
import { Ticket, TicketNote } from '../models/ticket';

let t: TestApp;
let fx: TenantFixtures;

beforeAll(async () => {
  t = await createTestApp();
  fx = await seedTenantFixtures(t);
});
afterAll(async () => {
  await t?.close();
});

describe('inbox fixtures for the walkers', () => {
  it("seeds company A's rows with the marker, under the entity names path parameters use", async () => {
    const ids = fx.idsA;
    for (const key of [
      'queue',
      'contact',
      'secondContact',
      'tag',
      'kanbanTag',
      'ticket',
      'ticketUuid',
      'message',
      'note',
      'quickMessage',
    ])
      expect(ids[key], key).toBeDefined();
    await runInTenant({ companyId: fx.a.companyId }, async () => {
      const ticket = await Ticket.query().findById(Number(ids.ticket));
      expect(ticket).toMatchObject({ status: 'open', userId: fx.a.userId, queueId: ids.queue, uuid: ids.ticketUuid });
      expect(ticket?.lastMessage).toContain(fx.marker);
      expect((await Contact.query().findById(Number(ids.contact)))?.name).toContain(fx.marker);
      expect((await Tag.query().findById(Number(ids.kanbanTag)))?.kanban).toBe(1);
      expect((await Message.query().findById(Number(ids.message)))?.body).toContain(fx.marker);
      expect((await TicketNote.query().findById(Number(ids.note)))?.note).toContain(fx.marker);
      expect((await QuickMessage.query().findById(Number(ids.quickMessage)))?.geral).toBe(true);
      const members = await UserQueue.query().where('queueId', Number(ids.queue));
      expect(members.map((m) => m.userId).sort()).toEqual([fx.a.adminId, fx.a.userId].sort());
    });
  });
});
