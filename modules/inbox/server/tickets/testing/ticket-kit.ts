/**
 * Test helpers of the tickets tests: companies of their own (so the demo's and the fixtures' rows never
 * change a count), users with the permission fields of docs/product/roles-and-permissions.md#roles-in-the-inbox, queues, contacts, tags and tickets
 * written straight to the database, and a socket client. Not a test file itself.
 */
import { randomBytes } from 'node:crypto';
import { PLAN_FLAGS, type PluginContext } from '@balcao/plugin-sdk/server';
import type { TestApp, TestSession } from '@balcao/plugin-sdk/testing';
import type { Knex } from 'knex';
import type { Ticket, TicketStatus } from '../../../shared/types';
import { inboxCtx } from '../../directory/testing/directory-rows';
import { inboxState } from '../../state';

/** The demo's password: users made here copy the hash of a demo user. */
const DEMO_PASSWORD = 'demo1234';
/** Contact numbers made here: unique within a test file's database. */
let numberSequence = 0;

export interface KitUser {
  id: number;
  email: string;
  session: TestSession;
  token: string;
}

export interface UserFields {
  name?: string;
  profile?: 'admin' | 'user';
  allTicket?: 'enable' | 'disable';
  allowGroup?: boolean;
  allUserChat?: 'enabled' | 'disabled';
  userClosePendingTicket?: 'enabled' | 'disabled';
  farewellMessage?: string | null;
  queueIds?: number[];
}

export interface TicketFields {
  contactId: number;
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number | null;
  isGroup?: boolean;
  unreadMessages?: number;
  lastMessage?: string;
  createdAt?: Date;
  updatedAt?: Date;
}

export class TicketKit {
  readonly knex: Knex;
  readonly ctx: PluginContext;
  private passwordHash: string | null = null;

  constructor(readonly t: TestApp) {
    this.knex = t.balcao.core.knex;
    this.ctx = inboxCtx(t);
  }

  /** A company of its own on a plan with every flag, and its admin (logged in). */
  async company(): Promise<{ companyId: number; admin: KitUser }> {
    const tag = randomBytes(4).toString('hex');
    const [plan] = await this.knex('plans')
      .insert({
        name: `Tickets plan ${tag}`,
        users: 100,
        connections: 10,
        queues: 100,
        amount: 1,
        isPublic: false,
        ...Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, true])),
      })
      .returning('id');
    const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const [company] = await this.knex('companies')
      .insert({ name: `Tickets ${tag}`, email: `tickets-${tag}@test.test`, planId: plan.id, dueDate: due, status: true })
      .returning('id');
    const admin = await this.user(company.id, { profile: 'admin', name: `Admin ${tag}` });
    return { companyId: company.id, admin };
  }

  /** A user of the company (profile user unless told), in the given queues, logged in. */
  async user(companyId: number, fields: UserFields = {}): Promise<KitUser> {
    this.passwordHash ??= (
      (await this.knex('users').whereRaw('lower(email) = ?', ['admin@acme.test']).first('passwordHash')) as {
        passwordHash: string;
      }
    ).passwordHash;
    const email = `u-${randomBytes(5).toString('hex')}@tickets.test`;
    const { queueIds = [], ...columns } = fields;
    const [row] = await this.knex('users')
      .insert({
        companyId,
        name: columns.name ?? email.split('@')[0],
        email,
        passwordHash: this.passwordHash,
        profile: columns.profile ?? 'user',
        allTicket: columns.allTicket ?? 'disable',
        allowGroup: columns.allowGroup ?? false,
        allUserChat: columns.allUserChat ?? 'disabled',
        userClosePendingTicket: columns.userClosePendingTicket ?? 'enabled',
        farewellMessage: columns.farewellMessage ?? null,
      })
      .returning('id');
    if (queueIds.length > 0) {
      await this.knex('userQueues').insert(queueIds.map((queueId) => ({ companyId, userId: row.id, queueId })));
    }
    // the realtime audience of the company is cached for a few seconds: it must see this user
    inboxState(this.ctx).realtime.invalidate(companyId);
    const session = await this.t.login(email, DEMO_PASSWORD);
    return { id: row.id, email, session, token: session.token };
  }

  async queue(companyId: number, name = `Queue ${randomBytes(3).toString('hex')}`): Promise<number> {
    const [row] = await this.knex('queues').insert({ companyId, name, color: '#112233' }).returning('id');
    return row.id;
  }

  async contact(companyId: number, fields: { name?: string; number?: string | null; isGroup?: boolean } = {}): Promise<number> {
    const [row] = await this.knex('contacts')
      .insert({
        companyId,
        name: fields.name ?? `Contact ${randomBytes(3).toString('hex')}`,
        number: fields.number === undefined ? `5511${String(++numberSequence).padStart(9, '0')}` : fields.number,
        isGroup: fields.isGroup ?? false,
      })
      .returning('id');
    return row.id;
  }

  async tag(companyId: number, name = `Tag ${randomBytes(3).toString('hex')}`): Promise<number> {
    const [row] = await this.knex('tags').insert({ companyId, name, color: '#445566' }).returning('id');
    return row.id;
  }

  async tagContact(companyId: number, contactId: number, tagId: number): Promise<void> {
    await this.knex('contactTags').insert({ companyId, contactId, tagId });
  }

  async tagTicket(companyId: number, ticketId: number, tagId: number): Promise<void> {
    await this.knex('ticketTags').insert({ companyId, ticketId, tagId });
  }

  /** A ticket written straight to the table (a new contact of its own unless given). */
  async ticket(companyId: number, fields: Partial<TicketFields> = {}): Promise<{ id: number; uuid: string; contactId: number }> {
    const contactId = fields.contactId ?? (await this.contact(companyId, { isGroup: fields.isGroup }));
    const [row] = await this.knex('tickets')
      .insert({
        companyId,
        contactId,
        status: fields.status ?? 'pending',
        userId: fields.userId ?? null,
        queueId: fields.queueId ?? null,
        whatsappId: fields.whatsappId ?? null,
        isGroup: fields.isGroup ?? false,
        unreadMessages: fields.unreadMessages ?? 0,
        lastMessage: fields.lastMessage ?? '',
        ...(fields.createdAt ? { createdAt: fields.createdAt } : {}),
        ...(fields.updatedAt ? { updatedAt: fields.updatedAt } : {}),
      })
      .returning(['id', 'uuid']);
    return { id: row.id, uuid: row.uuid, contactId };
  }

  async message(companyId: number, ticketId: number, body: string): Promise<void> {
    await this.knex('messages').insert({ companyId, ticketId, body });
  }

  async setting(companyId: number, key: string, value: string): Promise<void> {
    await this.ctx.settings.set(companyId, key, value);
  }

  async row(ticketId: number): Promise<Record<string, unknown>> {
    return (await this.knex('tickets').where({ id: ticketId }).first()) as Record<string, unknown>;
  }

  async logs(ticketId: number): Promise<Array<{ type: string; userId: number | null; queueId: number | null }>> {
    return this.knex('ticketLogs').where({ ticketId }).orderBy('id').select('type', 'userId', 'queueId');
  }

  /** Calls the API as a user. */
  async call<T = unknown>(
    user: { token: string },
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<{ status: number; body: T }> {
    const response = await this.t.inject({
      method,
      url: `/api${url}`,
      token: user.token,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: (response.body ? response.json() : null) as T };
  }

  /** `GET /tickets` with a query object (arrays as JSON, as the client sends them). */
  async list(
    user: { token: string },
    query: Record<string, string | number | boolean | Array<number | string>> = {},
  ): Promise<{ status: number; body: { tickets: Ticket[]; hasMore: boolean; count: number } }> {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query))
      params.set(key, Array.isArray(value) ? JSON.stringify(value) : String(value));
    return this.call(user, 'GET', `/tickets?${params.toString()}`);
  }
}
