import { type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import type { TestApp } from '@balcao/plugin-sdk/testing';
import type { TicketStatus } from '../../../shared/types';
import { Contact } from '../../models/contact';
import { Queue, UserQueue } from '../../models/queue';
import { Tag } from '../../models/tag';
import { Ticket } from '../../models/ticket';

/** Rows for the directory tests, written straight through the models in a company's scope. */

/** The inbox's plugin context of a test app. */
export function inboxCtx(t: TestApp): PluginContext {
  const plugin = t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'inbox');
  if (!plugin) throw new Error('the inbox module is not loaded');
  return plugin.ctx;
}

let numbers = 0;
/** A fresh valid number (unique within a test process). */
export function freshNumber(): string {
  numbers += 1;
  return `55${String(Date.now() % 1e9).padStart(9, '0')}${String(numbers).padStart(4, '0')}`;
}

export function makeContact(companyId: number, values: Partial<Contact> = {}): Promise<Contact> {
  return runInTenant({ companyId }, async () =>
    Contact.query().insertAndFetch({ name: 'Some contact', number: freshNumber(), ...values }),
  );
}

/** A queue with these users in it; their cached sessions are dropped so that they see it. */
export async function makeQueue(t: TestApp, companyId: number, name: string, userIds: number[] = []): Promise<Queue> {
  const queue = await runInTenant({ companyId }, async () => {
    const row = await Queue.query().insertAndFetch({ name, color: '#112233' });
    if (userIds.length > 0) await UserQueue.query().insert(userIds.map((userId) => ({ userId, queueId: row.id })));
    return row;
  });
  for (const userId of userIds) await inboxCtx(t).session.invalidateUser(userId);
  await inboxCtx(t).events.publish('user.updated', { companyId, userId: userIds[0] ?? 0 });
  return queue;
}

export function makeTicket(
  companyId: number,
  values: { contactId: number; userId?: number | null; queueId?: number | null; status?: TicketStatus; isGroup?: boolean },
): Promise<Ticket> {
  return runInTenant({ companyId }, async () =>
    Ticket.query().insertAndFetch({ status: 'open', userId: null, queueId: null, ...values }),
  );
}

export function makeTag(companyId: number, values: Partial<Tag> = {}): Promise<Tag> {
  return runInTenant({ companyId }, async () =>
    Tag.query().insertAndFetch({ name: 'Some tag', color: '#123456', kanban: 0, ...values }),
  );
}

/** Sets company settings (the session and realtime caches follow through settings.updated). */
export async function setSettings(t: TestApp, companyId: number, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) await inboxCtx(t).settings.set(companyId, key, value);
}
