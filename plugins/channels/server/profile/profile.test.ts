import type { PluginContext } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateConnectionProfile } from './index';

/**
 * The `connections` service: a connection's profile, cached, and dropped in every process when it changes
 * (two apps on one database stand for two processes).
 */
let one: TestApp;
let two: TestApp;

const channelsCtx = (t: TestApp): PluginContext => {
  const plugin = t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'channels');
  if (!plugin) throw new Error('the channels plugin is not loaded');
  return plugin.ctx;
};

beforeAll(async () => {
  one = await createTestApp();
  two = await createTestApp({
    seed: false,
    config: { databaseUrl: one.config.databaseUrl, redisPrefix: one.config.redisPrefix },
  });
});
afterAll(async () => {
  await two?.close();
  await one?.close();
});

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not met in 2 s');
}

describe('the connections service', () => {
  it('reads a connection with its queues in menu order and defaults, and null for another company', async () => {
    const knex = one.balcao.core.knex;
    const companyId = one.demo.companies.acme;
    const [connection] = await knex('whatsapps')
      .insert({
        companyId,
        name: 'Site',
        channel: 'webchat',
        token: 'a'.repeat(30),
        greetingMessage: 'Olá',
        maxUseBotQueuesNPS: 4,
        expiresTicketNPS: 7,
      })
      .returning('id');
    const queues: number[] = [];
    for (const name of ['Vendas', 'Suporte'])
      queues.push(
        (
          await knex('queues')
            .insert({ companyId, name, color: name === 'Vendas' ? '#111111' : '#222222' })
            .returning('id')
        )[0].id,
      );
    for (const queueId of queues) await knex('whatsappQueues').insert({ companyId, whatsappId: connection.id, queueId });
    const service = channelsCtx(one).services.use('connections');
    const profile = await service.profile(companyId, connection.id);
    expect(profile).toMatchObject({
      name: 'Site',
      channel: 'webchat',
      greetingMessage: 'Olá',
      maxUseBotQueues: 3,
      maxUseBotQueuesNPS: 4,
      expiresTicketNPS: 7,
    });
    expect([...(profile?.queueIds ?? [])].sort()).toEqual([...queues].sort());
    expect(profile?.schedules).toHaveLength(7);
    expect(await service.profile(one.demo.companies.lite, connection.id)).toBeNull();
  });

  it('drops a changed connection in every process', async () => {
    const knex = one.balcao.core.knex;
    const companyId = one.demo.companies.acme;
    const [connection] = await knex('whatsapps')
      .insert({ companyId, name: 'Loja', channel: 'webchat', token: 'b'.repeat(30) })
      .returning('id');
    const inOne = channelsCtx(one).services.use('connections');
    const inTwo = channelsCtx(two).services.use('connections');
    expect((await inOne.profile(companyId, connection.id))?.name).toBe('Loja');
    expect((await inTwo.profile(companyId, connection.id))?.name).toBe('Loja');
    await knex('whatsapps').where({ id: connection.id }).update({ name: 'Loja 2' });
    await invalidateConnectionProfile(channelsCtx(one), companyId, connection.id);
    expect((await inOne.profile(companyId, connection.id))?.name).toBe('Loja 2');
    await until(async () => (await inTwo.profile(companyId, connection.id))?.name === 'Loja 2');
  });
});
