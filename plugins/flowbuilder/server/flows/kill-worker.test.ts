import { runInTenant } from '@balcao/plugin-sdk/server';
import { startWorker, type WorkerProcess } from '@balcao/plugin-sdk/testing/loopback';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FlowbuilderKit, flowbuilderKit, until } from '../testing/kit';

/**
 * A flow run outlives its worker: this app only serves (it runs no jobs); the only worker process (the
 * server from source, ROLE=worker) walks the flow to an interval and is killed with SIGKILL while the run
 * waits — the worker killed is the one that walked, whatever the scheduling; a second worker started after
 * the kill finds the interval's job in the shared queue and resumes the run, once — the message after the
 * interval is sent once, the one before it never again. And a run a due-interval claim took, left by a
 * process that died before moving it on (or after sending its next message, before recording more), is
 * carried on by the sweeper once: nothing lost, nothing sent twice.
 */
let kit: FlowbuilderKit;
const workers: WorkerProcess[] = [];
const at = { x: 0, y: 0 };

beforeAll(async () => {
  kit = await flowbuilderKit({}, { role: 'web' });
}, 120_000);
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill9()));
  await kit?.close();
});

describe('a flow waiting on an interval when its worker is killed', () => {
  it('resumes once on another worker and sends nothing twice', { timeout: 240_000 }, async () => {
    const [connection] = await kit
      .knex('whatsapps')
      .insert({ companyId: kit.acme, name: 'Fluxo kill', channel: 'whatsapp', status: 'CONNECTED', token: `kill-${Date.now()}` })
      .returning('id');
    const flow = await kit.api('POST', '/flowbuilder', { name: 'Sobrevive' });
    const saved = await kit.api('POST', '/flowbuilder/flow', {
      idFlow: flow.body.id,
      nodes: [
        { id: '1', type: 'start', position: at, data: {} },
        { id: 'antes', type: 'message', position: at, data: { label: 'Antes da pausa' } },
        // long enough for the kill to land before it falls due on the worker that walked
        { id: 'pausa', type: 'interval', position: at, data: { sec: 5 } },
        { id: 'depois', type: 'message', position: at, data: { label: 'Depois da pausa' } },
      ],
      connections: [
        { source: '1', target: 'antes' },
        { source: 'antes', target: 'pausa' },
        { source: 'pausa', target: 'depois' },
      ],
    });
    expect(saved.status).toBe(200);
    await kit.knex('whatsapps').where({ id: connection.id }).update({ flowIdWelcome: flow.body.id });

    // one worker only: it walks the flow, so the one killed is the one that walked
    const first = startWorker(kit.t);
    workers.push(first);
    await first.ready;
    const { ticketId } = await kit.inbox.receive({
      companyId: kit.acme,
      whatsappId: Number(connection.id),
      channel: 'whatsapp',
      contact: { identifiers: ['5531990009001@s.whatsapp.net'], number: '5531990009001', name: 'Resiliente' },
      message: { id: `kill-${Date.now()}`, body: 'oi' },
    });
    const run = () => kit.knex('flowRuns').where({ ticketId }).first();
    await until(async () => (await run())?.waitingFor === 'interval', 30_000);
    // the turn that walked there has ended (its lease row gone): the kill hits a worker holding nothing
    await until(async () => (await kit.knex('flowTurnLeases').where({ ticketId }).first()) === undefined, 30_000);
    await first.kill9();
    // the killed worker sent the first message and nothing after it
    expect((await run())?.status).toBe('waiting');
    const second = startWorker(kit.t);
    workers.push(second);
    await second.ready;
    const done = await until(async () => {
      const row = await run();
      return row?.status === 'done' ? row : null;
    }, 60_000);
    expect(done).toMatchObject({ nodeId: 'depois', endReason: 'end' });
    const texts = await kit
      .knex('messages')
      .where({ ticketId, fromMe: true })
      .whereRaw(`data_json->>'automation' LIKE 'flow:%'`)
      .orderBy('id')
      .pluck('body');
    expect(texts).toEqual(['Antes da pausa', 'Depois da pausa']);
    const steps = await kit.knex('flowRunSteps').where({ ticketId }).orderBy('id').select('nodeId');
    expect(steps.map((step) => step.nodeId)).toEqual(['1', 'antes', 'pausa', 'depois']);
  });
});

describe('a due interval claimed by a worker that died', () => {
  it('is carried on by the sweeper, its next message sent once', { timeout: 240_000 }, async () => {
    const [connection] = await kit
      .knex('whatsapps')
      .insert({
        companyId: kit.acme,
        name: 'Fluxo claim',
        channel: 'whatsapp',
        status: 'CONNECTED',
        token: `claim-${Date.now()}`,
      })
      .returning('id');
    const flow = await kit.api('POST', '/flowbuilder', { name: 'Reclamado' });
    const saved = await kit.api('POST', '/flowbuilder/flow', {
      idFlow: flow.body.id,
      nodes: [
        { id: '1', type: 'start', position: at, data: {} },
        { id: 'pausa', type: 'interval', position: at, data: { sec: 5 } },
        { id: 'depois', type: 'message', position: at, data: { label: 'Depois da pausa' } },
      ],
      connections: [
        { source: '1', target: 'pausa' },
        { source: 'pausa', target: 'depois' },
      ],
    });
    expect(saved.status).toBe(200);
    // two tickets of the connection (no flow starts on it), each with a run as the dead worker left it
    const ticketOf = async (number: string) =>
      (
        await kit.inbox.receive({
          companyId: kit.acme,
          whatsappId: Number(connection.id),
          channel: 'whatsapp',
          contact: { identifiers: [`${number}@s.whatsapp.net`], number, name: `Cliente ${number}` },
          message: { id: `claim-${number}-${Date.now()}`, body: 'oi' },
        })
      ).ticketId;
    const claimedOnly = await ticketOf('5531990009101');
    const sentNotRecorded = await ticketOf('5531990009102');
    await kit.knex('tickets').whereIn('id', [claimedOnly, sentNotRecorded]).update({ useIntegration: true });
    const long = new Date(Date.now() - 60_000);
    const base = { companyId: kit.acme, flowId: flow.body.id, variables: '{}', startedAt: long, updatedAt: long };
    // claimed from its interval (running, still marked interval), its lease run out: nothing sent yet
    await kit.knex('flowRuns').insert({
      ...base,
      ticketId: claimedOnly,
      nodeId: 'pausa',
      status: 'running',
      waitingFor: 'interval',
      step: 1,
      dueAt: long,
    });
    // moved on and its message sent by the dead worker, the run not yet done
    await kit.knex('flowRuns').insert({ ...base, ticketId: sentNotRecorded, nodeId: 'depois', status: 'running', step: 2 });
    await runInTenant({ companyId: kit.acme }, () =>
      kit.inbox.send({ ticketId: sentNotRecorded, body: 'Depois da pausa', automation: `flow:${flow.body.id}:depois:2` }),
    );
    await kit.knex('flowTurnLeases').insert([
      { ticketId: claimedOnly, token: 'dead', leaseUntil: long },
      { ticketId: sentNotRecorded, token: 'dead', leaseUntil: long },
    ]);

    const worker = startWorker(kit.t);
    workers.push(worker);
    await worker.ready;
    await kit.t.balcao.core.jobs.enqueue('flowbuilder', 'flow-sweep', {});
    const run = (ticketId: number) => kit.knex('flowRuns').where({ ticketId }).first();
    for (const ticketId of [claimedOnly, sentNotRecorded]) {
      const done = await until(async () => {
        const row = await run(ticketId);
        return row?.status === 'done' ? row : null;
      }, 60_000);
      expect(done).toMatchObject({ nodeId: 'depois', endReason: 'end', waitingFor: null });
      const texts = await kit
        .knex('messages')
        .where({ ticketId, fromMe: true })
        .whereRaw(`data_json->>'automation' LIKE 'flow:%'`)
        .pluck('body');
      expect(texts).toEqual(['Depois da pausa']);
    }
    expect((await run(claimedOnly))?.dueAt).toBeNull();
  });
});
