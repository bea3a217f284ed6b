/**
 * Helpers of the session store's tests (not a test file): a company and WhatsApp connections of their own,
 * lease managers standing for processes, waiting on a condition, a silent Baileys logger.
 */
import type { TestApp } from '@balcao/plugin-sdk/testing';
import type { addTransactionCapability } from '@whiskeysockets/baileys';
import type { Knex } from 'knex';
import { ChannelsKit } from '../../testing/kit';
import { createSessionLeases, type SessionLeases, type SessionLeasesOptions } from '../session-store/leases';

type BaileysLogger = Parameters<typeof addTransactionCapability>[1];
/** Baileys' logger interface, saying nothing. */
export const silentLogger: BaileysLogger = {
  level: 'silent',
  child: () => silentLogger,
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition` holds, polling every 20 ms; fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

export class SessionStoreKit {
  readonly knex: Knex;
  private readonly kit: ChannelsKit;
  private readonly managers: SessionLeases[] = [];
  companyId = 0;

  constructor(t: TestApp) {
    this.kit = new ChannelsKit(t);
    this.knex = t.balcao.core.knex;
  }

  async init(): Promise<this> {
    ({ companyId: this.companyId } = await this.kit.companyWithPlan());
    return this;
  }

  /** A new WhatsApp connection of the kit's company (or of `companyId`). */
  connection(companyId = this.companyId): Promise<number> {
    return this.kit.connection(companyId, { channel: 'whatsapp' });
  }

  /** The leases of a "process" named `ownerId` (ttl 3 s unless told); closed by `closeAll`. */
  process(ownerId: string, options: Partial<SessionLeasesOptions> = {}, knex: Knex = this.knex): SessionLeases {
    const leases = createSessionLeases(knex, { ttlMs: 3_000, ...options, ownerId: `${ownerId}-${Math.random()}` });
    this.managers.push(leases);
    return leases;
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled(this.managers.splice(0).map((leases) => leases.close()));
  }

  /** The lease row as stored. */
  leaseRow(connectionId: number): Promise<Record<string, unknown> | undefined> {
    return this.knex('whatsappSessionLeases').where({ whatsappId: connectionId }).first();
  }
}
