import { type PluginDefinition, runInTenant } from '@balcao/plugin-sdk/server';
import { Contact } from '../models/contact';
import { Message } from '../models/message';
import { Queue, UserQueue } from '../models/queue';
import { QuickMessage } from '../models/quick-message';
import { ContactTag, Tag, TicketTag } from '../models/tag';
import { Ticket, TicketNote } from '../models/ticket';

/**
 * The test walkers' rows of company A (docs/plugin-authoring.md, "Test walkers"): a queue with A's admin
 * and user in it, two contacts, a tag and a kanban tag, an open ticket of A's user with a message and a
 * note, and a general quick message — each carrying the marker in a text column. Keys are entity names
 * as path parameters name them (`:ticketId` → ticket); `ticketUuid` is the ticket's uuid, for
 * `:ticketUuid` (and `:uuid` routes mapping it with `fixtureParams: { uuid: 'ticketUuid' }`).
 */
export const seedInboxFixtures: NonNullable<NonNullable<PluginDefinition['seed']>['fixtures']> = async ({ companyA, marker }) =>
  runInTenant({ companyId: companyA.id }, async () => {
    const queue = await Queue.query().insert({ name: `Queue ${marker}`, color: '#1677FF', orderQueue: 1 });
    await UserQueue.query().insert([
      { userId: companyA.adminId, queueId: queue.id },
      { userId: companyA.userId, queueId: queue.id },
    ]);
    // company A is new on every run, so fixed numbers are free; GET /contacts/profile/:number names the first
    const contact = await Contact.query().insert({
      name: `Contact ${marker}`,
      number: '5511900000001',
      email: 'alpha@fixture.test',
    });
    const secondContact = await Contact.query().insert({ name: `Second contact ${marker}`, number: '5511900000002' });
    const tag = await Tag.query().insert({ name: `Tag ${marker}`, color: '#AA3300', kanban: 0 });
    const kanbanTag = await Tag.query().insert({ name: `Lane ${marker}`, color: '#00AA33', kanban: 1 });
    await ContactTag.query().insert({ contactId: contact.id, tagId: tag.id });
    const ticket = await Ticket.query().insertAndFetch({
      status: 'open',
      contactId: contact.id,
      userId: companyA.userId,
      queueId: queue.id,
      lastMessage: `Hello ${marker}`,
    });
    await TicketTag.query().insert({ ticketId: ticket.id, tagId: kanbanTag.id });
    const message = await Message.query().insert({
      ticketId: ticket.id,
      contactId: contact.id,
      queueId: queue.id,
      body: `Hello ${marker}`,
      fromMe: false,
      channelMessageId: `fixture-${marker}`,
    });
    const note = await TicketNote.query().insert({
      ticketId: ticket.id,
      contactId: contact.id,
      userId: companyA.userId,
      note: `Note ${marker}`,
    });
    const quickMessage = await QuickMessage.query().insert({
      userId: companyA.adminId,
      shortcode: `hello${marker.toLowerCase()}`,
      message: `Quick ${marker}`,
      geral: true,
      visao: true,
      status: true,
    });
    return {
      queue: queue.id,
      contact: contact.id,
      secondContact: secondContact.id,
      tag: tag.id,
      kanbanTag: kanbanTag.id,
      ticket: ticket.id,
      ticketUuid: ticket.uuid,
      message: message.id,
      note: note.id,
      ticketNote: note.id,
      quickMessage: quickMessage.id,
    };
  });
