import type { PluginContext } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedQueuesDemo } from './seed';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoData: true });
});
afterAll(async () => {
  await t?.close();
});

describe('the queues demo seed', () => {
  it("gives Acme's queues greetings, Vendas a two-level chatbot and the company its hours, once", async () => {
    const knex = t.balcao.core.knex;
    const companyId = t.demo.companies.acme;
    const queues = await knex('queues').where({ companyId }).orderBy('orderQueue').select('name', 'greetingMessage');
    expect(queues.every((queue: { greetingMessage: string | null }) => (queue.greetingMessage ?? '') !== '')).toBe(true);
    const options = await knex('chatbots').where({ companyId }).orderBy('id').select('name', 'chatbotId', 'queueType');
    // three root options of its own, and the files module's demo option of type file
    const roots = options.filter((option: { chatbotId: number | null }) => option.chatbotId === null);
    expect(roots.filter((option: { queueType: string }) => option.queueType !== 'file')).toHaveLength(3);
    expect(options.filter((option: { chatbotId: number | null }) => option.chatbotId !== null)).toHaveLength(2);
    expect(await knex('companyServiceHours').where({ companyId }).first('greetingMessage')).toEqual({
      greetingMessage: expect.stringContaining('Acme'),
    });
    // a second run adds nothing
    const ctx = t.balcao.plugins.find((plugin) => plugin.definition.id === 'admin')?.ctx as PluginContext;
    await seedQueuesDemo(ctx, t.demo);
    expect(await knex('chatbots').where({ companyId }).count({ n: '*' }).first()).toEqual({ n: options.length });
  });
});
