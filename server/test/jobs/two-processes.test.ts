import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { type BalcaoApp, buildApp } from '@balcao/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../realtime/helpers';
import type { JobsProbe } from './fixtures/jobs-probe/server/probe';
import { TICK_EVERY_MS } from './fixtures/sched-probe/server';

/**
 * Jobs across processes on one Redis prefix: the default process (role all), a `worker` and a `web`
 * replica. Schedules run once per period however many workers there are; a web process enqueues and
 * never processes.
 */
const PLUGINS = ['server/test/jobs/fixtures/jobs-probe', 'server/test/jobs/fixtures/sched-probe'];

let t: TestApp;
let worker: BalcaoApp;
let web: BalcaoApp;
let workerStartedAt: number;
const probes = (app: BalcaoApp) => ({
  jobs: app.core.services.use('jobsProbe') as JobsProbe,
  ticks: app.core.services.use('schedProbe') as JobsProbe,
});
beforeAll(async () => {
  t = await createTestApp({ plugins: PLUGINS, seed: false });
  worker = await buildApp({ ...t.config, role: 'worker' });
  workerStartedAt = Date.now();
  web = await buildApp({ ...t.config, role: 'web' });
});
afterAll(async () => {
  await web?.close();
  await worker?.close();
  await t?.close();
});

describe('two worker processes and a web one', () => {
  it('run a core-scheduled job once per period in all, whichever worker takes it', async () => {
    const all = () => [...probes(t.balcao).ticks.runs, ...probes(worker).ticks.runs];
    const from = workerStartedAt;
    // both workers schedule from here on; watch about a dozen periods
    await waitFor(() => all().filter((run) => run.at >= from).length >= 10, { timeoutMs: 10_000, what: 'ticks' });
    const end = Date.now();
    const ticks = all().filter((run) => run.at >= from && run.at <= end);
    const slots = Math.floor(end / TICK_EVERY_MS) - Math.floor(from / TICK_EVERY_MS) + 1;
    // one per period slot (+1: a tick enqueued just before `from` may be processed after it)
    expect(ticks.length).toBeLessThanOrEqual(slots + 1);
    // a schedule's job has no company: it fans out itself
    expect(ticks.every((run) => run.companyId === null)).toBe(true);
    // the web process neither schedules nor processes
    expect(probes(web).ticks.runs).toEqual([]);
  });

  it('a job enqueued by the web process is processed once, by a worker', async () => {
    const tags = Array.from({ length: 12 }, (_, i) => `from-web-${i}`);
    for (const tag of tags) await web.core.jobs.enqueue('jobs-probe', 'record', { tag });
    const processed = () =>
      [...probes(t.balcao).jobs.runs, ...probes(worker).jobs.runs].filter((run) => tags.includes(String(run.data.tag)));
    await waitFor(() => processed().length >= tags.length, { what: 'all jobs processed' });
    expect(
      processed()
        .map((run) => run.data.tag)
        .sort(),
    ).toEqual([...tags].sort());
    expect(probes(web).jobs.runs).toEqual([]);
  });
});
