import { killWhenTaken, messagesPerNumber, startWorker, type WorkerProcess } from '@balcao/plugin-sdk/testing/loopback';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numbers, type SchedulesKit, schedulesKit } from '../testing/kit';

/**
 * Exactly once, for real: two worker processes (the server from source, ROLE=worker) share a minute's due
 * schedules and are killed with SIGKILL — the first at the very moment the provider takes a message (the
 * send accepted, not recorded), the second mid-run — then a dispatcher started afterwards (the test app's
 * own, as a restarted worker) finishes. Every schedule ends with exactly one message, counted at the
 * provider and in SQL.
 */
const SCHEDULES = 400;
let kit: SchedulesKit;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  // this app only serves (its own dispatcher is off): the sending is the workers'
  kit = await schedulesKit({ dispatcher: false });
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill9()));
  await kit?.close();
});

describe('due schedules across worker processes killed with SIGKILL', () => {
  it('leaves every schedule exactly one message', { timeout: 180_000 }, async () => {
    const recipients = numbers(SCHEDULES, '55489');
    const contactIds = await kit.contacts(recipients);
    const env = { SCHEDULE_LEASE_MS: '1500', SCHEDULE_BATCH: '20' };
    const first = startWorker(kit.t, env);
    const second = startWorker(kit.t, env);
    workers.push(first, second);
    await Promise.all([first.ready, second.ready]);

    // the provider kills the first worker while holding its request: accepted, never answered
    const killed = killWhenTaken(kit.provider, first, SCHEDULES * 0.2);

    // all due in the same minute
    const now = new Date();
    await kit.knex('schedules').insert(
      contactIds.map((contactId, index) => ({
        companyId: kit.companyId,
        body: `Lembrete ${index}`,
        sendAt: now,
        dueAt: now,
        contactId,
        whatsappId: kit.whatsappId,
        status: 'PENDENTE',
      })),
    );

    await kit.provider.waitFor(() => kit.provider.messages.length >= SCHEDULES * 0.55, 90_000);
    await second.kill9();
    kit.dispatcher.start();
    await kit.provider.waitFor(() => kit.provider.messages.length >= SCHEDULES, 120_000);
    await expect
      .poll(
        async () =>
          Number((await kit.knex('schedules').where({ companyId: kit.companyId, status: 'PENDENTE' }).count({ n: '*' }))[0]?.n),
        {
          timeout: 30_000,
        },
      )
      .toBe(0);

    const perRecipient = kit.provider.perRecipient();
    expect(perRecipient.size).toBe(SCHEDULES);
    expect([...perRecipient.values()].every((count) => count === 1)).toBe(true);
    expect(kit.provider.messages).toHaveLength(SCHEDULES);

    const counts = await messagesPerNumber(kit.knex, kit.companyId, recipients);
    expect(counts).toHaveLength(SCHEDULES);
    expect(counts.filter((row) => row.messages !== 1)).toEqual([]);
    const rows = await kit.knex('schedules').where({ companyId: kit.companyId }).select('status', 'sentCount');
    expect(rows.filter((row) => row.status !== 'ENVIADA' || row.sentCount !== 1)).toEqual([]);
    expect(killed()).toBe(true);
    console.info(`exactly once: ${SCHEDULES} schedules, ${kit.provider.repeats} repeated sends kept once by the provider`);
  });
});
