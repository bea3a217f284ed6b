import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedChatsDemo } from './demo';

/** The demo's team chats: Acme's admin and agent with some history, and an unread chat for the agent. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoData: true });
});
afterAll(async () => {
  await t?.close();
});

describe('the internal chat demo', () => {
  it('gives Acme two team chats with history, two messages unread for the agent, once; Lite nothing', async () => {
    const agent = await t.login('agent@acme.test');
    const list = (await t.inject({ method: 'GET', url: '/api/chats', token: agent.token })).json() as {
      records: Array<{ title: string; users: Array<{ userId: number; unreads: number }> }>;
      unreads: number;
    };
    expect(list.records.map((chat) => chat.title)).toEqual(['Trocas e devoluções', 'Equipe de atendimento']);
    expect(list.unreads).toBe(2);
    const admin = await t.login('admin@acme.test');
    expect((await t.inject({ method: 'GET', url: '/api/chats', token: admin.token })).json().unreads).toBe(0);

    const plugin = t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'internal-chat');
    await seedChatsDemo(plugin?.ctx as never, { companies: t.demo.companies, users: t.demo.users });
    const knex = t.balcao.core.knex;
    expect(await knex('chats').where({ companyId: t.demo.companies.acme }).count({ n: '*' }).first()).toEqual({ n: 2 });
    expect(await knex('chatMessages').where({ companyId: t.demo.companies.acme }).count({ n: '*' }).first()).toEqual({ n: 7 });
    expect(await knex('chats').where({ companyId: t.demo.companies.lite }).count({ n: '*' }).first()).toEqual({ n: 0 });
  });
});
