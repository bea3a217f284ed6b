import { PLAN_FLAGS, type PlanFlags, type SessionUser } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import type { InvalidationBus } from './invalidation';
import { TtlCache } from './ttl-cache';

/** What every request needs to know about a company: is it usable, and what does its plan allow. */
export interface CompanyState {
  id: number;
  name: string;
  status: boolean;
  dueDate: string;
  planId: number;
  flags: PlanFlags;
  settings: Record<string, string>;
}

/** The platform company (the super user's), whose subscription never ends (docs/product/tickets-and-inbox.md#states-and-transitions and #constants-and-limits). */
export const PLATFORM_COMPANY_ID = 1;
export const PLATFORM_DUE_DATE = '2999-12-31';

/** A feature's contribution to the session user (queues, …). */
export type SessionContributor = (user: SessionUser) => Promise<Partial<SessionUser>>;

const USER_COLUMNS = [
  'id',
  'name',
  'email',
  'companyId',
  'profile',
  'super',
  'showDashboard',
  'allowRealTime',
  'allowConnections',
  'allTicket',
  'allowGroup',
  'allHistoric',
  'allUserChat',
  'userClosePendingTicket',
  'defaultTheme',
  'defaultMenu',
  'defaultTicketsManagerWidth',
  'profileImage',
  'online',
] as const;

/**
 * Session data (the user as docs/product/tickets-and-inbox.md#entities describes it, and the company's state) cached per process with a
 * short TTL and dropped everywhere at once when something changes (see InvalidationBus).
 */
export class SessionStore {
  private readonly users: TtlCache<number, SessionUser | null>;
  private readonly companies: TtlCache<number, CompanyState | null>;
  private readonly contributors: SessionContributor[] = [];

  constructor(
    private readonly knex: Knex,
    private readonly bus: InvalidationBus,
    ttlMs = 30_000,
    /** The loaded plugins' own plan flags: a company's state carries each (off unless its plan has it). */
    private readonly pluginFlagKeys: readonly string[] = [],
  ) {
    this.users = new TtlCache(ttlMs);
    this.companies = new TtlCache(ttlMs);
    bus.onInvalidate((message) => {
      if (message.kind === 'user') this.users.delete(message.id);
      else if (message.kind === 'company') {
        this.companies.delete(message.id);
        // the session user embeds company data
        this.users.clear();
      } else if (message.kind === 'plan') {
        this.companies.clear();
        this.users.clear();
      }
    });
  }

  addContributor(contributor: SessionContributor): void {
    this.contributors.push(contributor);
  }

  /** The company's state, or null when it doesn't exist. */
  company(companyId: number): Promise<CompanyState | null> {
    return this.companies.get(companyId, () => this.loadCompany(companyId));
  }

  /** The session user, or null when the user no longer exists (or moved company). */
  async user(userId: number, companyId: number): Promise<SessionUser | null> {
    const user = await this.users.get(userId, () => this.loadUser(userId));
    return user && user.companyId === companyId ? user : null;
  }

  invalidateUser(userId: number): Promise<void> {
    return this.bus.publish({ kind: 'user', id: userId });
  }

  invalidateCompany(companyId: number): Promise<void> {
    return this.bus.publish({ kind: 'company', id: companyId });
  }

  invalidatePlan(planId: number): Promise<void> {
    return this.bus.publish({ kind: 'plan', id: planId });
  }

  private async loadCompany(companyId: number): Promise<CompanyState | null> {
    const row = await this.knex('companies')
      .join('plans', 'plans.id', 'companies.planId')
      .where('companies.id', companyId)
      .first(
        'companies.id',
        'companies.name',
        'companies.status',
        this.knex.raw("to_char(companies.due_date, 'YYYY-MM-DD') as due_date"),
        'companies.planId',
        ...PLAN_FLAGS.map((flag) => `plans.${flag}`),
        'plans.pluginFlags',
      );
    if (!row) return null;
    const settingRows: Array<{ key: string; value: string }> = await this.knex('settings')
      .where({ companyId })
      .select('key', 'value');
    const own = (row.pluginFlags ?? {}) as Record<string, unknown>;
    const flags = Object.fromEntries([
      ...PLAN_FLAGS.map((flag) => [flag, row[flag] === true]),
      ...this.pluginFlagKeys.map((flag) => [flag, own[flag] === true]),
    ]) as PlanFlags;
    return {
      id: row.id,
      name: row.name,
      status: row.status,
      // company id 1 is due 2999-12-31, whatever its row says (docs/product/tickets-and-inbox.md#session-rules)
      dueDate: row.id === PLATFORM_COMPANY_ID ? PLATFORM_DUE_DATE : row.dueDate,
      planId: row.planId,
      flags,
      settings: Object.fromEntries(settingRows.map((s) => [s.key, s.value])),
    };
  }

  private async loadUser(userId: number): Promise<SessionUser | null> {
    const row = await this.knex('users')
      .where({ id: userId })
      .first(...USER_COLUMNS);
    if (!row) return null;
    const company = await this.company(row.companyId);
    if (!company) return null;
    const user: SessionUser = {
      ...row,
      company: {
        id: company.id,
        name: company.name,
        dueDate: company.dueDate,
        companieSettings: Object.entries(company.settings).map(([key, value]) => ({ key, value })),
      },
      queues: [],
    };
    for (const contribute of this.contributors) Object.assign(user, await contribute(user));
    return user;
  }
}
