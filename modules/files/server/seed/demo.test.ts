import type { PluginContext } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFilesDemo } from './demo';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoData: true });
});
afterAll(async () => {
  await t?.close();
});

describe('the file lists demo seed', () => {
  it('gives Acme a file list with a stored PDF, offered by an option of type file in Vendas, once', async () => {
    const knex = t.balcao.core.knex;
    const companyId = t.demo.companies.acme;
    const lists = await knex('files').where({ companyId }).select('id', 'name');
    expect(lists).toHaveLength(1);
    const option = await knex('filesOptions').where({ fileId: lists[0].id }).first();
    expect(option).toMatchObject({ mimetype: 'application/pdf', mediaType: 'application' });
    const stored = await t.balcao.core.storage.stat(companyId, option.path);
    expect(stored?.size).toBeGreaterThan(100);
    const sales = await knex('queues').where({ companyId, name: 'Vendas' }).first('id');
    const fileOptions = await knex('chatbots').where({ companyId, queueType: 'file' }).select('queueId', 'optFileId');
    expect(fileOptions).toEqual([{ queueId: sales.id, optFileId: lists[0].id }]);
    // a second run adds nothing
    const ctx = t.balcao.plugins.find((plugin) => plugin.definition.id === 'files')?.ctx as PluginContext;
    await seedFilesDemo(ctx, t.demo);
    expect(await knex('files').where({ companyId }).count({ n: '*' }).first()).toEqual({ n: 1 });
    expect(await knex('chatbots').where({ companyId, queueType: 'file' }).count({ n: '*' }).first()).toEqual({ n: 1 });
  });
});
