/**
 * Helpers of the channels plugin's server tests: companies of their own on a plan of chosen flags and
 * connection limit, users of any profile, queues and connections written straight to the database, and the
 * plugin's context. Not a test file itself.
 *
 * @example
 * const kit = new ChannelsKit(t);
 * const { companyId, admin } = await kit.companyWithPlan({ flags: { useWhatsapp: false }, connections: 2 });
 * const connectionId = await kit.connection(companyId, { channel: 'webchat', queueIds: [await kit.queue(companyId)] });
 */
import { type ChannelDriver, PLAN_FLAGS, type PlanFlag, type PluginContext } from '@balcao/plugin-sdk/server';
import { DEFAULT_COMPANY_SETTINGS, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import type { Knex } from 'knex';
import { newConnectionToken } from '../connections/token';
import {
  type ChannelConnection,
  type ChannelDefinition,
  type ConnectionStatus,
  channelRegistry,
  registerChannel,
} from '../drivers/registry';

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

/** Fields of a `whatsapps` row (any column), plus the queues to link. */
export type KitConnectionFields = Record<string, unknown> & { queueIds?: number[] };

/** The channels plugin's context of a test app (its services, jobs, broadcast). */
export function channelsCtx(t: TestApp): PluginContext {
  const plugin = t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'channels');
  if (!plugin) throw new Error('the channels plugin is not loaded');
  return plugin.ctx;
}

/** A channel definition for tests: records the life-cycle calls, answers the statuses it is told. */
export interface TestChannel {
  definition: ChannelDefinition;
  calls: Array<{ action: 'start' | 'stop' | 'restart' | 'remove'; connection: ChannelConnection }>;
  /** What the next `start` / `restart` answer (default CONNECTED). */
  startStatus: ConnectionStatus;
  /** Puts back the definition it replaced (if any). */
  restore(): void;
}

export class ChannelsKit {
  readonly knex: Knex;

  constructor(readonly t: TestApp) {
    this.knex = t.balcao.core.knex;
  }

  /** The channels plugin's context. */
  get ctx(): PluginContext {
    return channelsCtx(this.t);
  }

  /**
   * A company of its own (with the default settings) and its admin, on a new plan: every flag on unless
   * `flags` turns it off, `connections` connections allowed (10 unless told).
   */
  async companyWithPlan(
    options: { flags?: Partial<Record<PlanFlag, boolean>>; connections?: number; settings?: Record<string, string> } = {},
  ): Promise<{ companyId: number; planId: number; admin: KitUser }> {
    const tag = next();
    const [plan] = await this.knex('plans')
      .insert({
        name: `Channels plan ${tag}`,
        users: 100,
        connections: options.connections ?? 10,
        queues: 100,
        amount: 1,
        isPublic: false,
        ...Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, options.flags?.[flag] ?? true])),
      })
      .returning('id');
    const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const [company] = await this.knex('companies')
      .insert({ name: `Channels ${tag}`, email: `channels-${tag}@test.test`, planId: plan.id, dueDate: due, status: true })
      .returning('id');
    const settings = { ...DEFAULT_COMPANY_SETTINGS, ...options.settings };
    await this.knex('settings').insert(Object.entries(settings).map(([key, value]) => ({ companyId: company.id, key, value })));
    const admin = await this.user(company.id, 'admin');
    return { companyId: company.id, planId: plan.id, admin };
  }

  /** Sets one company setting (e.g. `userRating` to `enabled`) through the core, so its caches follow. */
  async setting(companyId: number, key: string, value: string): Promise<void> {
    await this.ctx.settings.set(companyId, key, value);
  }

  /**
   * A logged-in user of the company: `profile` admin or user, `super` for a super user, `allowConnections`
   * enabled or not, in the given queues.
   */
  async user(
    companyId: number,
    profile: 'admin' | 'user' = 'user',
    fields: { super?: boolean; allowConnections?: boolean; queueIds?: number[]; email?: string } = {},
  ): Promise<KitUser> {
    const hash = (await this.knex('users').where({ email: 'admin@acme.test' }).first('passwordHash')).passwordHash;
    const email = fields.email ?? `channels-${next()}@test.test`;
    const [user] = await this.knex('users')
      .insert({
        companyId,
        name: `User ${email.split('@')[0]}`,
        email,
        passwordHash: hash,
        profile,
        super: fields.super ?? false,
        allowConnections: fields.allowConnections ? 'enabled' : 'disabled',
      })
      .returning('id');
    for (const queueId of fields.queueIds ?? []) await this.knex('userQueues').insert({ companyId, userId: user.id, queueId });
    const session = await this.t.login(email, DEMO_PASSWORD);
    return { id: user.id, token: session.token, session };
  }

  async queue(companyId: number, name = `Queue ${next()}`, color = '#1677FF'): Promise<number> {
    const [queue] = await this.knex('queues').insert({ companyId, name, color }).returning('id');
    return queue.id;
  }

  /**
   * Inserts a `whatsapps` row (webchat, DISCONNECTED, a fresh valid token unless `fields` says otherwise) and
   * links `queueIds`. Straight to the database: no plan check, no realtime, no default rule.
   */
  async connection(companyId: number, fields: KitConnectionFields = {}): Promise<number> {
    const { queueIds = [], ...columns } = fields;
    const [row] = await this.knex('whatsapps')
      .insert({
        name: `Connection ${next()}`.slice(0, 50),
        channel: 'webchat',
        token: newConnectionToken(),
        ...columns,
        companyId,
      })
      .returning('id');
    for (const queueId of queueIds) await this.knex('whatsappQueues').insert({ companyId, whatsappId: row.id, queueId });
    return row.id;
  }

  /**
   * Registers a recording definition for `channel` (replacing a real one until `restore`), with the plan
   * flag `planFlag` (none unless told). Its driver refuses to send: connection tests don't send.
   */
  testChannel(channel: string, options: { planFlag?: PlanFlag; withRestart?: boolean } = {}): TestChannel {
    const registry = channelRegistry(this.ctx);
    const previous = registry.get(channel);
    let unregisterPrevious: (() => void) | null = null;
    if (previous) registry.unregister(previous);
    const driver: ChannelDriver = {
      async send() {
        throw new Error(`the test channel '${channel}' sends nothing`);
      },
    };
    const test: TestChannel = {
      calls: [],
      startStatus: 'CONNECTED',
      definition: {
        channel,
        planFlag: options.planFlag,
        driver,
        async start(_ctx, connection) {
          test.calls.push({ action: 'start', connection });
          return test.startStatus;
        },
        async stop(_ctx, connection) {
          test.calls.push({ action: 'stop', connection });
          return 'DISCONNECTED';
        },
        async remove(_ctx, connection) {
          test.calls.push({ action: 'remove', connection });
        },
        ...(options.withRestart
          ? {
              async restart(_ctx: PluginContext, connection: ChannelConnection) {
                test.calls.push({ action: 'restart', connection });
                return test.startStatus;
              },
            }
          : {}),
      },
      restore: () => {
        unregisterPrevious?.();
        if (previous) {
          registry.register(previous);
          this.ctx.services.use('inbox').registerDriver(previous.channel, previous.driver);
        }
      },
    };
    unregisterPrevious = registerChannel(this.ctx, test.definition);
    return test;
  }

  /** Calls `/api<path>` as `user` (or anonymously with null); answers the status and the parsed body. */
  async call(user: KitUser | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) {
    const response = await this.t.inject({
      method,
      url: `/api${path}`,
      token: user?.token,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: response.body === '' ? null : response.json() };
  }

  /** The `whatsapps` row as stored. */
  row(connectionId: number): Promise<Record<string, unknown> | undefined> {
    return this.knex('whatsapps').where({ id: connectionId }).first();
  }
}

/** A multipart body of one file under `field` (for `inject`: spread into its options). */
export function multipartFile(file: { name: string; type: string; data: Buffer }, field = 'file') {
  const boundary = `----channels${next()}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A 1×1 transparent PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
