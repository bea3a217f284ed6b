/**
 * Helpers of the kanban's server tests: companies of their own (on a plan with or without useKanban),
 * users, queues, contacts, tickets and lanes written straight to the database, and the plugin's context.
 * Not a test file itself.
 */
import { randomBytes } from 'node:crypto';
import { PLAN_FLAGS } from '@balcao/plugin-sdk/server';
import type { TestApp, TestSession } from '@balcao/plugin-sdk/testing';
import type { Knex } from 'knex';
import type { KanbanContext } from '../config';

const DEMO_PASSWORD = 'demo1234';
let sequence = 0;
const next = () => {
  sequence += 1;
  return `${Date.now().toString(36)}${sequence}`;
};

export interface KitUser {
  id: number;
  token: string;
  session: TestSession;
}

export class KanbanKit {
  readonly knex: Knex;

  constructor(readonly t: TestApp) {
    this.knex = t.balcao.core.knex;
  }

  /** The kanban plugin's context (its jobs, its services). */
  get ctx(): KanbanContext {
    const plugin = this.t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'kanban');
    if (!plugin) throw new Error('the kanban plugin is not loaded');
    // the loader's list holds every feature's context untyped; this one is the kanban's
    return plugin.ctx as KanbanContext;
  }

  /** A company of its own and its admin; `kanban: false` puts it on a plan without useKanban. */
  async company(options: { kanban?: boolean } = {}): Promise<{ companyId: number; admin: KitUser }> {
    const tag = next();
    const [plan] = await this.knex('plans')
      .insert({
        name: `Kanban plan ${tag}`,
        users: 100,
        connections: 10,
        queues: 100,
        amount: 1,
        isPublic: false,
        ...Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, flag === 'useKanban' ? options.kanban !== false : true])),
      })
      .returning('id');
    const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const [company] = await this.knex('companies')
      .insert({ name: `Kanban ${tag}`, email: `kanban-${tag}@test.test`, planId: plan.id, dueDate: due, status: true })
      .returning('id');
    const admin = await this.user(company.id, { profile: 'admin' });
    return { companyId: company.id, admin };
  }

  /** A logged-in user of the company (profile user unless told), in the given queues. */
  async user(
    companyId: number,
    fields: { profile?: 'admin' | 'user'; queueIds?: number[]; email?: string } = {},
  ): Promise<KitUser> {
    const hash = (await this.knex('users').where({ email: 'admin@acme.test' }).first('passwordHash')).passwordHash;
    const email = fields.email ?? `kanban-${next()}@test.test`;
    const [user] = await this.knex('users')
      .insert({ companyId, name: `User ${email.split('@')[0]}`, email, passwordHash: hash, profile: fields.profile ?? 'user' })
      .returning('id');
    for (const queueId of fields.queueIds ?? []) await this.knex('userQueues').insert({ companyId, userId: user.id, queueId });
    const session = await this.t.login(email, DEMO_PASSWORD);
    return { id: user.id, token: session.token, session };
  }

  async queue(companyId: number, name = `Queue ${next()}`): Promise<number> {
    const [queue] = await this.knex('queues').insert({ companyId, name, color: '#1677FF' }).returning('id');
    return queue.id;
  }

  async lane(
    companyId: number,
    fields: {
      name?: string;
      timeLane?: number | null;
      nextLaneId?: number | null;
      rollbackLaneId?: number | null;
      greetingMessageLane?: string | null;
    } = {},
  ): Promise<number> {
    const [lane] = await this.knex('tags')
      .insert({ companyId, name: fields.name ?? `Lane ${next()}`, color: '#00AA33', kanban: 1, ...fields })
      .returning('id');
    return lane.id;
  }

  async plainTag(companyId: number): Promise<number> {
    const [tag] = await this.knex('tags')
      .insert({ companyId, name: `Tag ${next()}`, color: '#AA3300', kanban: 0 })
      .returning('id');
    return tag.id;
  }

  /** An open ticket of a new contact. */
  async ticket(
    companyId: number,
    fields: { queueId?: number | null; userId?: number | null; status?: string; createdAt?: Date; lastMessage?: string } = {},
  ): Promise<{ id: number; uuid: string; contactId: number }> {
    const number = `55119${String(Date.now() % 1e6).padStart(6, '0')}${String(sequence++).padStart(4, '0')}`;
    const [contact] = await this.knex('contacts')
      .insert({ companyId, name: `Contact ${number.slice(-4)}`, number })
      .returning('id');
    const [ticket] = await this.knex('tickets')
      .insert({
        companyId,
        contactId: contact.id,
        status: fields.status ?? 'open',
        queueId: fields.queueId ?? null,
        userId: fields.userId ?? null,
        lastMessage: fields.lastMessage ?? 'Olá',
        ...(fields.createdAt ? { createdAt: fields.createdAt, updatedAt: fields.createdAt } : {}),
      })
      .returning(['id', 'uuid']);
    return { id: ticket.id, uuid: ticket.uuid, contactId: contact.id };
  }

  /** The ticket's lane tags. */
  async lanesOf(ticketId: number): Promise<number[]> {
    const rows = await this.knex('ticketTags as tt')
      .join('tags as t', 't.id', 'tt.tagId')
      .where({ 'tt.ticketId': ticketId, 't.kanban': 1 })
      .select('t.id');
    return rows.map((row: { id: number }) => row.id);
  }

  laneLogs(ticketId: number) {
    return this.knex('ticketLogs').where({ ticketId, type: 'lane' }).orderBy('id');
  }

  /** Moves a ticket the way the board does (docs/product/administration.md#states-and-transitions): DELETE its lane, then PUT the new one. */
  async boardMove(token: string, ticketId: number, laneId: number | null): Promise<void> {
    const removed = await this.t.inject({ method: 'DELETE', url: `/api/ticket-tags/${ticketId}`, token });
    if (removed.statusCode !== 204) throw new Error(`DELETE answered ${removed.statusCode} ${removed.body}`);
    if (laneId === null) return;
    const added = await this.t.inject({ method: 'PUT', url: `/api/ticket-tags/${ticketId}/${laneId}`, token });
    if (added.statusCode !== 204) throw new Error(`PUT answered ${added.statusCode} ${added.body}`);
  }
}

export const randomOrigin = () => `https://site-${randomBytes(3).toString('hex')}.example`;
