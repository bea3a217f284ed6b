import { Writable } from 'node:stream';
import { currentTenant, runInTenant, type TenantScope } from '@balcao/plugin-sdk/server';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { EventBusImpl } from './bus';

let logged: Array<{ msg: string; event?: string; err?: { message: string } }>;
let bus: EventBusImpl;

beforeEach(() => {
  logged = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logged.push(JSON.parse(line));
      done();
    },
  });
  bus = new EventBusImpl(pino({ level: 'error' }, stream) as unknown as FastifyBaseLogger);
});

describe('EventBusImpl', () => {
  it("runs every handler in the payload's company scope, not the publisher's", async () => {
    const scopes: Array<TenantScope | undefined> = [];
    bus.on('settings.updated', () => {
      scopes.push(currentTenant());
    });
    bus.on('settings.updated', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      scopes.push(currentTenant());
    });
    await runInTenant({ companyId: 1, userId: 9 }, () =>
      bus.publish('settings.updated', { companyId: 42, key: 'k', value: 'v' }),
    );
    expect(scopes).toEqual([{ companyId: 42 }, { companyId: 42 }]);
    // and the publisher's own scope is untouched
    await runInTenant({ companyId: 1 }, async () => {
      await bus.publish('settings.updated', { companyId: 43, key: 'k', value: 'v' });
      expect(currentTenant()).toEqual({ companyId: 1 });
    });
  });

  it('passes the payload and resolves once every handler has run', async () => {
    const seen: unknown[] = [];
    bus.on('user.updated', async (payload) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      seen.push(payload);
    });
    await bus.publish('user.updated', { companyId: 3, userId: 4 });
    expect(seen).toEqual([{ companyId: 3, userId: 4 }]);
  });

  it('keeps a failing handler from breaking the others or the publisher, and logs it', async () => {
    const ran: string[] = [];
    bus.on('company.updated', () => {
      throw new Error('sync failure');
    });
    bus.on('company.updated', async () => {
      throw new Error('async failure');
    });
    bus.on('company.updated', () => {
      ran.push('third');
    });
    await expect(bus.publish('company.updated', { companyId: 5 })).resolves.toBeUndefined();
    expect(ran).toEqual(['third']);
    expect(logged.map((line) => [line.msg, line.event, line.err?.message])).toEqual(
      expect.arrayContaining([
        ['event handler failed', 'company.updated', 'sync failure'],
        ['event handler failed', 'company.updated', 'async failure'],
      ]),
    );
  });

  it('stops calling a handler once unsubscribed, and publishes to nobody quietly', async () => {
    let calls = 0;
    const off = bus.on('company.updated', () => {
      calls += 1;
    });
    await bus.publish('company.updated', { companyId: 1 });
    off();
    await bus.publish('company.updated', { companyId: 1 });
    await bus.publish('user.updated', { companyId: 1, userId: 1 });
    expect(calls).toBe(1);
  });

  it('only delivers an event to its own handlers', async () => {
    const seen: string[] = [];
    bus.on('company.updated', () => {
      seen.push('company');
    });
    bus.on('user.updated', () => {
      seen.push('user');
    });
    await bus.publish('user.updated', { companyId: 1, userId: 2 });
    expect(seen).toEqual(['user']);
  });
});
