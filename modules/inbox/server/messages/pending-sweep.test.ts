import type { PluginContext } from '@balcao/plugin-sdk/server';
import { featureContext, LOOPBACK_CHANNEL, type LoopbackApp, loopbackApp } from '@balcao/plugin-sdk/testing/loopback';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_SWEEP_AFTER_MS, PENDING_SWEEP_WITHIN_MS, sweepPendingDeliveries } from './pending-sweep';

let app: LoopbackApp;
let ctx: PluginContext;
let ticketId: number;
let contactId: number;

beforeAll(async () => {
  app = await loopbackApp();
  ctx = featureContext<PluginContext>(app.t, 'inbox');
  const contact = await app.api('POST', '/contacts', { name: 'Sweep Person', number: '5511987650042' });
  expect(contact.status).toBe(201);
  contactId = contact.body.id;
  const [queue] = await app.knex('queues').insert({ companyId: app.companyId, name: 'Sweep', color: '#123456' }).returning('id');
  const ticket = await app.api('POST', '/tickets', { contactId, queueId: queue.id, status: 'open', whatsappId: app.whatsappId });
  expect(ticket.status).toBe(201);
  ticketId = ticket.body.id;
  // a ticket opened by hand takes the WhatsApp channel; this one talks through the loopback connection's
  await app.knex('tickets').where({ id: ticketId }).update({ channel: LOOPBACK_CHANNEL });
});

afterAll(async () => {
  await app?.close();
});

/** A message as `storeOutbound` commits it, its job never queued: what a process killed in between leaves. */
async function orphan(body: string, fields: { deliveryByJob?: boolean; ageMs: number }): Promise<number> {
  const at = new Date(Date.now() - fields.ageMs);
  const [row] = await app
    .knex('messages')
    .insert({
      companyId: app.companyId,
      ticketId,
      contactId,
      whatsappId: app.whatsappId,
      body,
      fromMe: true,
      read: true,
      ack: 0,
      sendStatus: 'pending',
      deliveryByJob: fields.deliveryByJob ?? true,
      createdAt: at,
      updatedAt: at,
    })
    .returning('id');
  return Number(row.id);
}

const sendStatus = async (id: number) => (await app.knex('messages').where({ id }).first('sendStatus')).sendStatus;

describe('the pending-delivery sweep', () => {
  it('marks what an agent sends as the delivery job’s, and the job delivers it', async () => {
    const sent = await app.api('POST', `/messages/${ticketId}`, { body: 'Sent by the job' });
    expect(sent.status).toBe(201);
    await app.provider.waitFor(() => app.provider.messages.some((message) => message.body === 'Sent by the job'));
    const row = await app.knex('messages').where({ ticketId, body: 'Sent by the job' }).first('deliveryByJob');
    expect(row.deliveryByJob).toBe(true);
  });

  it('queues a message whose job was never queued, once, and leaves the others alone', async () => {
    const lost = await orphan('Lost between commit and enqueue', { ageMs: PENDING_SWEEP_AFTER_MS + 60_000 });
    const recent = await orphan('Stored a moment ago', { ageMs: 5_000 });
    const staged = await orphan('Staged by a bulk sender', { deliveryByJob: false, ageMs: PENDING_SWEEP_AFTER_MS + 60_000 });
    const ancient = await orphan('Pending for two days', { ageMs: PENDING_SWEEP_WITHIN_MS + 86_400_000 });

    expect(await sweepPendingDeliveries(ctx)).toBe(1);
    await app.provider.waitFor(() => app.provider.messages.some((message) => message.body === 'Lost between commit and enqueue'));
    await expect.poll(() => sendStatus(lost)).toBe('sent');

    // sent now: a later sweep, even one that thinks the period is over, queues nothing again
    expect(await sweepPendingDeliveries(ctx, new Date(Date.now() + PENDING_SWEEP_AFTER_MS + 1_000))).toBe(1);
    await expect.poll(() => sendStatus(recent)).toBe('sent');
    expect(await sweepPendingDeliveries(ctx, new Date(Date.now() + 2 * PENDING_SWEEP_AFTER_MS))).toBe(0);
    const bodies = app.provider.messages.map((message) => message.body);
    expect(bodies.filter((body) => body === 'Lost between commit and enqueue')).toHaveLength(1);
    expect(bodies.filter((body) => body === 'Stored a moment ago')).toHaveLength(1);
    expect(app.provider.repeats).toBe(0);
    expect(await sendStatus(staged)).toBe('pending');
    expect(await sendStatus(ancient)).toBe('pending');
  });

  it('never doubles a delivery that is queued or running when the sweep comes', async () => {
    const slow = await orphan('Queued and slow', { ageMs: PENDING_SWEEP_AFTER_MS + 60_000 });
    // two sweeps at once, as two workers would run them: one takes the row, the other skips it
    const [first, second] = await Promise.all([sweepPendingDeliveries(ctx), sweepPendingDeliveries(ctx)]);
    expect(first + second).toBe(1);
    await expect.poll(() => sendStatus(slow)).toBe('sent');
    expect(app.provider.messages.filter((message) => message.body === 'Queued and slow')).toHaveLength(1);
  });
});
