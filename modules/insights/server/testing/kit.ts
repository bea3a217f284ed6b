/**
 * Helpers of the insights' tests: a company of its own (so no other test's rows change a count), users with
 * the permission fields of docs/product/roles-and-permissions.md#roles-in-the-inbox, queues, contacts, and tickets driven through their transitions with
 * the instants the test chooses (the triggers take a change's instant from the row's `updated_at`). Not a
 * test file itself.
 */
import { randomBytes } from 'node:crypto';
import { PLAN_FLAGS } from '@balcao/plugin-sdk/server';
import type { TestApp, TestSession } from '@balcao/plugin-sdk/testing';
import type { Knex } from 'knex';

const DEMO_PASSWORD = 'demo1234';
let numberSequence = 0;

export interface KitUser {
  id: number;
  email: string;
  token: string;
  session: TestSession;
}

export class InsightsKit {
  readonly knex: Knex;
  private passwordHash: string | null = null;

  constructor(readonly t: TestApp) {
    this.knex = t.balcao.core.knex;
  }

  async company(): Promise<{ companyId: number; admin: KitUser }> {
    const tag = randomBytes(4).toString('hex');
    const [plan] = await this.knex('plans')
      .insert({
        name: `Insights plan ${tag}`,
        users: 100,
        connections: 10,
        queues: 100,
        amount: 1,
        isPublic: false,
        ...Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, true])),
      })
      .returning('id');
    const [company] = await this.knex('companies')
      .insert({
        name: `Insights ${tag}`,
        email: `insights-${tag}@test.test`,
        planId: plan.id,
        dueDate: '2999-12-31',
        status: true,
      })
      .returning('id');
    const admin = await this.user(company.id, { profile: 'admin', name: `Admin ${tag}` });
    return { companyId: company.id, admin };
  }

  async user(
    companyId: number,
    fields: {
      name?: string;
      profile?: 'admin' | 'user';
      showDashboard?: 'enabled' | 'disabled';
      allowRealTime?: 'enabled' | 'disabled';
      queueIds?: number[];
    } = {},
  ): Promise<KitUser> {
    this.passwordHash ??= (
      (await this.knex('users').whereRaw('lower(email) = ?', ['admin@acme.test']).first('passwordHash')) as {
        passwordHash: string;
      }
    ).passwordHash;
    const email = `u-${randomBytes(5).toString('hex')}@insights.test`;
    const [row] = await this.knex('users')
      .insert({
        companyId,
        name: fields.name ?? email.split('@')[0],
        email,
        passwordHash: this.passwordHash,
        profile: fields.profile ?? 'user',
        showDashboard: fields.showDashboard ?? 'disabled',
        allowRealTime: fields.allowRealTime ?? 'disabled',
      })
      .returning('id');
    if (fields.queueIds?.length) {
      await this.knex('userQueues').insert(fields.queueIds.map((queueId) => ({ companyId, userId: row.id, queueId })));
    }
    const session = await this.t.login(email, DEMO_PASSWORD);
    return { id: row.id, email, token: session.token, session };
  }

  async queue(companyId: number, name = `Queue ${randomBytes(3).toString('hex')}`): Promise<number> {
    const [row] = await this.knex('queues').insert({ companyId, name, color: '#112233' }).returning('id');
    return row.id;
  }

  async contact(companyId: number, fields: { name?: string; isGroup?: boolean } = {}): Promise<number> {
    const [row] = await this.knex('contacts')
      .insert({
        companyId,
        name: fields.name ?? `Contact ${randomBytes(3).toString('hex')}`,
        number: `5521${String(++numberSequence).padStart(9, '0')}`,
        isGroup: fields.isGroup ?? false,
      })
      .returning('id');
    return row.id;
  }

  /** A ticket as a writer inserts it, at `at`. */
  async ticket(
    companyId: number,
    fields: {
      contactId: number;
      at: string;
      status?: string;
      userId?: number | null;
      queueId?: number | null;
      isGroup?: boolean;
    },
  ): Promise<number> {
    const [row] = await this.knex('tickets')
      .insert({
        companyId,
        contactId: fields.contactId,
        status: fields.status ?? 'pending',
        userId: fields.userId ?? null,
        queueId: fields.queueId ?? null,
        isGroup: fields.isGroup ?? false,
        createdAt: new Date(fields.at),
        updatedAt: new Date(fields.at),
      })
      .returning('id');
    return row.id;
  }

  /** A transition at `at`, as the inbox writes one (status, user, queue; `updated_at` moved to the instant). */
  async change(
    ticketId: number,
    at: string,
    patch: { status?: string; userId?: number | null; queueId?: number | null },
  ): Promise<void> {
    const closing = patch.status === 'closed';
    await this.knex('tickets')
      .where({ id: ticketId })
      .update({
        ...patch,
        updatedAt: new Date(at),
        ...(patch.status === undefined ? {} : { closedAt: closing ? new Date(at) : null }),
      });
  }

  async rate(companyId: number, ticketId: number, rate: number, userId: number | null): Promise<void> {
    await this.knex('ticketRatings').insert({ companyId, ticketId, userId, rate });
  }

  async get<T>(token: string, url: string): Promise<{ status: number; body: T }> {
    const response = await this.t.inject({ method: 'GET', url: `/api${url}`, token });
    return { status: response.statusCode, body: response.json() as T };
  }
}
