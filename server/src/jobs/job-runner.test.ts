import { AppError, type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import { createTestApp, deleteRedisKeys, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobsProbe } from '../../test/jobs/fixtures/jobs-probe/server/probe';
import { createCompany, waitFor } from '../../test/realtime/helpers';
import { JobRunner } from './job-runner';

/**
 * Jobs on bee-queue and real Redis (docs/architecture.md#jobs): enqueued, delayed, processed in the job's company
 * scope, deduplicated by jobId, refused and skipped by plan flag. The fixture `jobs-probe` (flag
 * useSchedules) records how each of its jobs ran; `hello` (its own flag useHello) proves the path from a route.
 */
const HELLO = 'server/test/fixtures/hello-plugin';
const PROBE = 'server/test/jobs/fixtures/jobs-probe';

let t: TestApp;
let probe: JobsProbe;
let acme: number;
let lite: number;
beforeAll(async () => {
  t = await createTestApp({ plugins: [HELLO, PROBE] });
  probe = t.balcao.core.services.use('jobsProbe');
  acme = t.demo.companies.acme;
  lite = t.demo.companies.lite;
});
afterAll(async () => {
  await t.close();
});

const enqueue = (data: Record<string, unknown>, options: Parameters<TestApp['balcao']['core']['jobs']['enqueue']>[3] = {}) =>
  t.balcao.core.jobs.enqueue('jobs-probe', 'record', data, options);

/** Waits for the runs of jobs tagged `tag` (at least one). */
const ran = (tag: string) => waitFor(() => (probe.tagged(tag).length > 0 ? probe.tagged(tag) : null), { what: `job ${tag}` });

let markers = 0;
/**
 * Enqueues a system job behind everything already due and waits for it: the queue is processed in order,
 * one at a time, so whatever was due before it has been handled when it runs.
 */
async function drain(delayMs = 0): Promise<void> {
  const tag = `marker-${++markers}`;
  await enqueue({ tag }, { delayMs });
  await ran(tag);
}

describe('from a route to a job and an event', () => {
  it('POST /hello-notes enqueues a delayed job that runs in the company scope and publishes an event', async () => {
    const admin = await t.login('admin@acme.test');
    const created = await t.inject({ method: 'POST', url: '/api/hello-notes', token: admin.token, payload: { text: 'hi' } });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    // the job patches through the tenant-scoped model: outside the company scope it would find nothing
    // (or throw); the event handler it triggers appends to the text, in the company scope too
    const note = await waitFor(async () => {
      const res = await t.inject({ method: 'GET', url: `/api/hello-notes/${id}`, token: admin.token });
      const body = res.json();
      return body.shouted && body.text === 'hi (noted)' ? body : null;
    });
    expect(note).toMatchObject({ id, shouted: true, text: 'hi (noted)' });
  });
});

describe('enqueue and processing', () => {
  it('runs a job in the company it was enqueued for, with its data', async () => {
    const result = await enqueue({ tag: 'scoped', n: 1 }, { companyId: acme });
    expect(result?.id).toEqual(expect.any(String));
    const [run] = await ran('scoped');
    expect(run).toMatchObject({ job: 'record', jobId: result?.id, companyId: acme, scope: acme, data: { tag: 'scoped', n: 1 } });
  });

  it('takes the company of the current scope when none is named, and none outside any scope', async () => {
    const company = await createCompany(t);
    await runInTenant({ companyId: company.companyId, userId: company.adminId }, () => enqueue({ tag: 'from-scope' }));
    await enqueue({ tag: 'system' });
    const [fromScope] = await ran('from-scope');
    expect(fromScope).toMatchObject({ companyId: company.companyId, scope: company.companyId });
    const [system] = await ran('system');
    expect(system).toMatchObject({ companyId: null, scope: undefined });
  });

  it("refuses, inside one company's scope, to enqueue for another company", async () => {
    await expect(
      runInTenant({ companyId: lite, userId: 1 }, () => enqueue({ tag: 'crossing' }, { companyId: acme })),
    ).rejects.toThrow(/company \d+ named from the scope of company \d+/);
    await drain();
    expect(probe.tagged('crossing')).toEqual([]);
    await runInTenant({ companyId: acme, userId: 1 }, () => enqueue({ tag: 'same-company' }, { companyId: acme }));
    await ran('same-company');
  });

  it('holds a delayed job back at least delayMs without holding back the jobs behind it', async () => {
    const before = Date.now();
    await enqueue({ tag: 'late' }, { companyId: acme, delayMs: 400 });
    await enqueue({ tag: 'early' }, { companyId: acme });
    const [early] = await ran('early');
    const [late] = await ran('late');
    expect(early?.at).toBeLessThan(late?.at ?? 0);
    expect((late?.at ?? 0) - before).toBeGreaterThanOrEqual(400);
  });

  it('makes one job of two enqueues with the same jobId while the first is pending', async () => {
    const first = await enqueue({ tag: 'once', copy: 1 }, { companyId: acme, jobId: 'campaign-7', delayMs: 200 });
    const second = await enqueue({ tag: 'once', copy: 2 }, { companyId: acme, jobId: 'campaign-7', delayMs: 200 });
    expect(first).toEqual({ id: `record:${acme}:campaign-7` });
    expect(second).toBeNull();
    await drain(400);
    expect(probe.tagged('once').map((run) => run.data.copy)).toEqual([1]);

    // once done, the id is free again (a later shipping of the same campaign is a new job)
    const again = await enqueue({ tag: 'once', copy: 3 }, { companyId: acme, jobId: 'campaign-7' });
    expect(again).toEqual({ id: `record:${acme}:campaign-7` });
    await waitFor(() => probe.tagged('once').length === 2, { what: 'second run' });
  });

  it('keeps the jobIds of two companies apart: the same id makes one job per company, each in its own scope', async () => {
    const company = await createCompany(t);
    const mine = await enqueue({ tag: 'per-company', who: 'acme' }, { companyId: acme, jobId: 'daily-close', delayMs: 200 });
    const theirs = await enqueue(
      { tag: 'per-company', who: 'other' },
      { companyId: company.companyId, jobId: 'daily-close', delayMs: 200 },
    );
    const system = await enqueue({ tag: 'per-company', who: 'system' }, { jobId: 'daily-close', delayMs: 200 });
    expect(mine).toEqual({ id: `record:${acme}:daily-close` });
    expect(theirs).toEqual({ id: `record:${company.companyId}:daily-close` });
    expect(system).toEqual({ id: 'record:system:daily-close' });
    // a repeat within one company is still a no-op
    expect(await enqueue({ tag: 'per-company', who: 'again' }, { companyId: acme, jobId: 'daily-close' })).toBeNull();
    await waitFor(() => probe.tagged('per-company').length === 3, { what: 'three runs' });
    await drain(300);
    const runs = probe.tagged('per-company').map((run) => ({ who: run.data.who, scope: run.scope }));
    expect(runs).toEqual(
      expect.arrayContaining([
        { who: 'acme', scope: acme },
        { who: 'other', scope: company.companyId },
        { who: 'system', scope: undefined },
      ]),
    );
    expect(runs).toHaveLength(3);
  });

  it('lets a jobId whose job failed be enqueued again (only a pending job makes a repeat a no-op)', async () => {
    const failedSet = `${t.config.redisPrefix}:bq:jobs-probe:failed`;
    const first = await t.balcao.core.jobs.enqueue('jobs-probe', 'flaky', { fail: true }, { companyId: acme, jobId: 'ship-9' });
    expect(first).toEqual({ id: `flaky:${acme}:ship-9` });
    await waitFor(() => t.balcao.core.redis.sIsMember(failedSet, `flaky:${acme}:ship-9`), { what: 'the job to fail' });

    const retry = await t.balcao.core.jobs.enqueue(
      'jobs-probe',
      'flaky',
      { tag: 'retried' },
      { companyId: acme, jobId: 'ship-9' },
    );
    expect(retry).toEqual({ id: `flaky:${acme}:ship-9` });
    const [run] = await ran('retried');
    expect(run).toMatchObject({ job: 'flaky', jobId: `flaky:${acme}:ship-9`, companyId: acme });
  });

  it('refuses to enqueue for a company whose plan lacks the plugin flag', async () => {
    const refusal = await enqueue({ tag: 'refused' }, { companyId: lite }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).code).toBe('ERR_PLAN_FEATURE_DISABLED');
    // the same through another feature's flag, and from inside the company's scope
    const hello = await runInTenant({ companyId: lite }, () =>
      t.balcao.core.jobs.enqueue('hello', 'shout', { noteId: 1 }).catch((error: unknown) => error),
    );
    expect((hello as AppError).code).toBe('ERR_PLAN_FEATURE_DISABLED');
    await drain();
    expect(probe.tagged('refused')).toEqual([]);
  });

  it('skips a job whose company lost the flag between enqueue and processing', async () => {
    const company = await createCompany(t);
    const queued = await enqueue({ tag: 'lost-flag' }, { companyId: company.companyId, delayMs: 300 });
    expect(queued?.id).toEqual(expect.any(String));
    await t.balcao.core.knex('plans').where({ id: company.planId }).update({ useSchedules: false });
    await t.balcao.core.sessions.invalidatePlan(company.planId);
    await drain(600);
    expect(probe.tagged('lost-flag')).toEqual([]);
    // it was processed (skipped), not left waiting: bee-queue removed it as a success
    const jobs = `${t.config.redisPrefix}:bq:jobs-probe:jobs`;
    expect(await t.balcao.core.redis.hExists(jobs, String(queued?.id))).toBeFalsy();
  });

  it('refuses unknown jobs and unknown features', async () => {
    await expect(t.balcao.core.jobs.enqueue('jobs-probe', 'nope', {})).rejects.toThrow('Unknown job jobs-probe:nope');
    await expect(t.balcao.core.jobs.enqueue('jobs-probe', 'ghost:record', {})).rejects.toThrow('Unknown job ghost:record');
    // another feature's job by its full name
    const note = await runInTenant({ companyId: acme }, async () =>
      t.balcao.core.knex('helloNotes').insert({ companyId: acme, text: 'cross' }).returning('id'),
    );
    const id = note[0]?.id as number;
    await t.balcao.core.jobs.enqueue('jobs-probe', 'hello:shout', { noteId: id }, { companyId: acme });
    await waitFor(async () => (await t.balcao.core.knex('helloNotes').where({ id }).first('shouted')).shouted, {
      what: 'hello:shout run',
    });
  });
});

describe('graceful shutdown', () => {
  it('close() waits for a running job to finish', async () => {
    const app = await createTestApp({ plugins: [PROBE], seed: false });
    try {
      const local = app.balcao.core.services.use('jobsProbe');
      await app.balcao.core.jobs.enqueue('jobs-probe', 'block', { gate: 'g', tag: 'held' });
      await waitFor(() => local.started.includes('g'), { what: 'job started' });
      const order: string[] = [];
      const closing = app.balcao.close().then(() => order.push('closed'));
      // let shutdown run as far as it goes on its own, then let the job finish
      await new Promise((resolve) => setTimeout(resolve, 300));
      order.push('released');
      local.release('g');
      await closing;
      expect(order).toEqual(['released', 'closed']);
      expect(local.tagged('held')).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});

describe('a worker that dies mid-job', () => {
  it('leaves its job to another worker once its heartbeat stops, run to the end there', async () => {
    const prefix = `stall-${process.pid}-${Date.now()}`;
    const redisUrl = t.balcao.core.config.redisUrl;
    const log = t.balcao.core.log;
    const started: string[] = [];
    const finished: string[] = [];
    const runner = (name: string, hang: boolean) => {
      const jobs = new JobRunner({ redisUrl, prefix, isWorker: true, log, hasFlag: async () => true, stallIntervalMs: 400 });
      jobs.register(
        'stall-probe',
        null,
        {
          work: {
            handler: async (data) => {
              started.push(`${name}:${String(data.tag)}`);
              // the first worker never finishes: it is about to "die"
              if (hang) await new Promise(() => {});
              finished.push(`${name}:${String(data.tag)}`);
            },
          },
        },
        {} as PluginContext,
      ); // the handler reads no context
      return jobs;
    };
    const dying = runner('a', true);
    await dying.start();
    await dying.enqueue('stall-probe', 'work', { tag: 'once' });
    await waitFor(() => (started.includes('a:once') ? true : null), { what: 'the first worker took the job' });
    // its connections go without finishing the job: from Redis' side, as a kill -9 looks
    await dying.close(1).catch(() => {});

    const survivor = runner('b', false);
    await survivor.start();
    try {
      await waitFor(() => (finished.includes('b:once') ? true : null), {
        what: 'the job run again by the survivor',
        timeoutMs: 10_000,
      });
      expect(started).toEqual(['a:once', 'b:once']);
    } finally {
      await survivor.close();
      await deleteRedisKeys(redisUrl, prefix);
    }
  });
});
