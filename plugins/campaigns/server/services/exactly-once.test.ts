import { killWhenTaken, messagesPerNumber, startWorker, type WorkerProcess } from '@balcao/plugin-sdk/testing/loopback';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CampaignsKit, campaignsKit, numbers } from '../testing/kit';

/**
 * Exactly once, for real: two worker processes (the server from source, ROLE=worker) share a campaign and
 * are killed with SIGKILL — the first at the very moment the provider takes a message (before the worker
 * hears the answer: the send is accepted and not recorded), the second mid-run — then a dispatcher started
 * afterwards (the test app's own, as a restarted worker) finishes.
 * Every recipient ends with exactly one message, counted at the provider and in SQL.
 */
const RECIPIENTS = 600;
let kit: CampaignsKit;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  // this app only schedules (its own dispatcher is off): the sending is the workers'
  kit = await campaignsKit({ dispatcher: false });
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill9()));
  await kit?.close();
});

describe('a campaign across worker processes killed with SIGKILL', () => {
  it('leaves every recipient exactly one message', { timeout: 180_000 }, async () => {
    const recipients = numbers(RECIPIENTS, '55479');
    const listId = await kit.list(recipients);
    const env = { CAMPAIGN_LEASE_MS: '1500', CAMPAIGN_BATCH: '25' };
    const first = startWorker(kit.t, env);
    const second = startWorker(kit.t, env);
    workers.push(first, second);
    await Promise.all([first.ready, second.ready]);

    // the provider kills the first worker while holding its request: accepted, never answered
    const killed = killWhenTaken(kit.provider, first, RECIPIENTS * 0.2);

    const created = await kit.api('POST', '/campaigns', {
      name: 'Kill -9',
      message1: 'Olá {nome}',
      whatsappId: kit.whatsappId,
      contactListId: listId,
      scheduledAt: new Date().toISOString(),
    });
    expect(created.status).toBe(200);
    const id = created.body.id as number;

    await kit.provider.waitFor(() => kit.provider.messages.length >= RECIPIENTS * 0.55, 90_000);
    await second.kill9();
    // the rest: the test app's own dispatcher, as a restarted worker would (its rows come back as leases pass)
    kit.dispatcher.start();

    await kit.provider.waitFor(() => kit.provider.messages.length >= RECIPIENTS, 120_000);
    await expect.poll(async () => (await kit.api('GET', `/campaigns/${id}`)).body.status, { timeout: 30_000 }).toBe('FINALIZADA');

    // at the provider: one message per recipient, none else
    const perRecipient = kit.provider.perRecipient();
    expect(perRecipient.size).toBe(RECIPIENTS);
    expect([...perRecipient.values()].every((count) => count === 1)).toBe(true);
    expect(kit.provider.messages).toHaveLength(RECIPIENTS);

    // in SQL: one message per recipient, every row delivered with it
    const counts = await messagesPerNumber(kit.knex, kit.companyId, recipients);
    expect(counts).toHaveLength(RECIPIENTS);
    expect(counts.filter((row) => row.messages !== 1)).toEqual([]);
    const rows = await kit.knex('campaignShippings').where({ campaignId: id }).select('state', 'messageId', 'channelMessageId');
    expect(rows.filter((row) => row.state !== 'delivered')).toEqual([]);
    expect(new Set(rows.map((row) => String(row.messageId))).size).toBe(RECIPIENTS);
    const report = (await kit.api('GET', `/campaigns/${id}`)).body.report;
    expect(report).toMatchObject({ recipients: RECIPIENTS, delivered: RECIPIENTS, failed: 0 });
    // the crash did happen where it hurts: some sends were repeated, and the provider kept one of each
    expect(killed()).toBe(true);
    console.info(`exactly once: ${RECIPIENTS} recipients, ${kit.provider.repeats} repeated sends kept once by the provider`);
  });
});
