import { type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import { describe, expect, it } from 'vitest';
import { acme, admin, agent, contact, knex, queue, settings, t, useChatbotApp } from '../testing/chatbot';
import { rotateTicketJob } from './rotation';

/** After the bot lands a ticket in a queue: a random member, the place in line, and the rotation. */
useChatbotApp();

describe('after landing in a queue', () => {
  it('userRandom gives the ticket to one of the queue members', async () => {
    await settings('userRandom', 'enabled');
    const only = await queue('Vendas', {}, [], [agent]);
    const zoe = contact();
    await zoe.say('Oi');
    expect(await zoe.ticket()).toMatchObject({ queueId: only, userId: agent, status: 'pending' });
  });

  it("sendQueuePosition tells the contact their place among the queue's waiting tickets", async () => {
    await settings('sendQueuePosition', 'enabled');
    await settings('sendQueuePositionMessage', 'Sua posição na fila:');
    await queue('Vendas', { orderQueue: 1 });
    await queue('Suporte', { orderQueue: 2 });
    const first = contact();
    await first.say('Oi');
    expect(await first.say('1')).toEqual(['Fila Vendas', 'Sua posição na fila: *1*']);
    const second = contact();
    await second.say('Oi');
    expect(await second.say('1')).toEqual(['Fila Vendas', 'Sua posição na fila: *2*']);
  });

  it('rotation: a waiting ticket goes to the next member every tempoRoteador minutes, each step once', async () => {
    // members in id order: the admin, then the agent
    const [firstMember, secondMember] = [admin, agent].sort((a, b) => a - b) as [number, number];
    const rotating = await queue('Rodízio', { ativarRoteador: true, tempoRoteador: 2 }, [], [admin, agent]);
    const nina = contact();
    const started = Date.now();
    await nina.say('Oi');
    expect(await nina.ticket()).toMatchObject({ queueId: rotating, userId: null });
    const waitForUser = async (userId: number) => {
      const deadline = Date.now() + 5_000;
      while ((await nina.ticket()).userId !== userId) {
        if (Date.now() > deadline) throw new Error(`ticket never went to user ${userId}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return Date.now() - started;
    };
    // tempoRoteador 2 "minutes" of 100 ms: the first step after ~200 ms, the next ~200 ms later
    expect(await waitForUser(firstMember)).toBeGreaterThanOrEqual(190);
    expect(await waitForUser(secondMember)).toBeGreaterThanOrEqual(390);
    // a step that ran already never acts again
    const before = await nina.ticket();
    const adminCtx = t.balcao.plugins.find((plugin) => plugin.definition.id === 'admin')?.ctx as PluginContext;
    await runInTenant({ companyId: acme }, () =>
      rotateTicketJob({ ticketId: nina.ticketId, queueId: rotating, step: 1 }, adminCtx),
    );
    expect((await nina.ticket()).userId).toBe(before.userId);
    // once an agent takes it, rotation ends
    await knex()('tickets').where({ id: nina.ticketId }).update({ status: 'open', userId: secondMember });
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await nina.ticket()).toMatchObject({ status: 'open', userId: secondMember });
  });

  it('rotation also moves a ticket an agent transferred to the queue without choosing a user', async () => {
    const [firstMember] = [admin, agent].sort((a, b) => a - b) as [number, number];
    const rotating = await queue('Rodízio', { orderQueue: 2, ativarRoteador: true, tempoRoteador: 2 }, [], [admin, agent]);
    await queue('Balcão', { orderQueue: 1 });
    await knex()('companyServiceHours').where({ companyId: acme }).update({ maxUseBotQueues: 1 });
    const otto = contact();
    await otto.say('Oi');
    // the contact never picks: an admin transfers the ticket to the rotating queue, with nobody on it
    const session = await t.login('admin@acme.test');
    const res = await t.inject({
      method: 'PUT',
      url: `/api/tickets/${otto.ticketId}`,
      token: session.token,
      payload: { isTransfered: true, queueId: rotating },
    });
    expect(res.json()).toMatchObject({ status: 'pending', queueId: rotating, userId: null });
    // the bot is done with a ticket an agent placed: the contact's next message gets no menu
    expect(await otto.say('1')).toEqual([]);
    expect(await otto.ticket()).toMatchObject({ queueId: rotating });
    await expect.poll(async () => (await otto.ticket()).userId, { timeout: 5_000, interval: 20 }).toBe(firstMember);
  });
});
