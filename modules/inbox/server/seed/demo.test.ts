import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_STATUSES } from '../../shared/types';
import { inboxCtx } from '../directory/testing/directory-rows';
import { seedInboxDemo } from './demo';

/** One column of query rows (knex's pluck skips the camelCase mapping). */
const valuesOf = (key: string) => (rows: Array<Record<string, unknown>>) => rows.map((row) => row[key]);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoData: true });
});
afterAll(async () => {
  await t?.close();
});

describe('the inbox demo seed', () => {
  it('gives Acme a lived-in inbox: every status, every queue, media, notes, tags and ratings', async () => {
    const knex = t.balcao.core.knex;
    const companyId = t.demo.companies.acme;
    const statuses = await knex('tickets').where({ companyId }).distinct('status').then(valuesOf('status'));
    expect([...statuses].sort()).toEqual([...TICKET_STATUSES].sort());
    const queues = await knex('queues').where({ companyId }).select('id').then(valuesOf('id'));
    const queuesUsed = await knex('tickets')
      .where({ companyId })
      .whereNotNull('queueId')
      .distinct('queueId')
      .then(valuesOf('queueId'));
    expect([...queuesUsed].sort()).toEqual([...queues].sort());
    const mediaTypes = await knex('messages').where({ companyId }).distinct('mediaType').then(valuesOf('mediaType'));
    expect(mediaTypes).toEqual(expect.arrayContaining(['chat', 'image', 'audio', 'application']));
    expect(await knex('ticketNotes').where({ companyId }).count({ n: '*' }).first()).toEqual({ n: expect.any(Number) });
    expect((await knex('ticketRatings').where({ companyId }).select('rate').then(valuesOf('rate'))).length).toBeGreaterThan(0);
    expect((await knex('contactTags').where({ companyId }).select('tagId').then(valuesOf('tagId'))).length).toBeGreaterThan(0);
    // the agent works Vendas and Suporte; the admin every queue
    const agentQueues = await knex('userQueues')
      .where({ userId: t.demo.users.acmeAgent })
      .select('queueId')
      .then(valuesOf('queueId'));
    expect(agentQueues).toHaveLength(2);
  });

  it('stores the media it points at', async () => {
    const companyId = t.demo.companies.acme;
    const paths = await t.balcao.core
      .knex('messages')
      .where({ companyId })
      .whereNotNull('mediaPath')
      .select('mediaPath')
      .then(valuesOf('mediaPath'));
    expect(paths.length).toBeGreaterThanOrEqual(3);
    for (const key of paths as string[]) {
      expect((await t.balcao.core.storage.stat(companyId, key))?.size).toBeGreaterThan(100);
    }
  });

  it('runs once: a second seed changes nothing', async () => {
    const knex = t.balcao.core.knex;
    const before = await knex('messages').count({ n: '*' }).first();
    await seedInboxDemo(inboxCtx(t), t.demo);
    expect(await knex('messages').count({ n: '*' }).first()).toEqual(before);
  });

  it('leaves the other companies alone', async () => {
    const lite = t.demo.companies.lite;
    expect(await t.balcao.core.knex('tickets').where({ companyId: lite }).count({ n: '*' }).first()).toEqual({ n: 0 });
  });
});
