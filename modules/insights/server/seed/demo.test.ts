import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardResponse } from '../../shared/types';
import { seedInsightsDemo } from './demo';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoData: true });
});
afterAll(async () => {
  await t?.close();
});

function insightsCtx(app: TestApp) {
  const plugin = app.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'insights');
  if (!plugin) throw new Error('the insights module is not loaded');
  return plugin.ctx;
}

async function sixWeeks(): Promise<DashboardResponse> {
  const admin = await t.login('admin@acme.test');
  const response = await t.inject({ method: 'GET', url: '/api/dashboard?days=60', token: admin.token });
  expect(response.statusCode).toBe(200);
  return response.json() as DashboardResponse;
}

describe('the insights demo seed', () => {
  it("gives Acme's dashboard weeks of tickets with waits, times, ratings and every user", async () => {
    const { counters, attendants } = await sixWeeks();
    expect(counters.supportFinished).toBeGreaterThan(300);
    expect(counters.leads).toBeGreaterThan(80);
    expect(counters.avgWaitTime).toBeGreaterThan(5);
    expect(counters.avgSupportTime).toBeGreaterThan(20);
    expect(counters.withRating).toBeGreaterThan(150);
    expect(counters.npsDistribution.filter((count) => count > 0).length).toBeGreaterThan(5);
    expect(attendants.filter((row) => row.tickets > 0).length).toBeGreaterThanOrEqual(2);
    const days = await t.balcao.core
      .knex('insightDaily')
      .where({ companyId: t.demo.companies.acme })
      .where('started', '>', 0)
      .countDistinct({ n: 'day' })
      .first();
    expect(Number(days?.n)).toBeGreaterThan(25);
  });

  it('runs once: a second seed changes nothing', async () => {
    const before = await sixWeeks();
    await seedInsightsDemo(insightsCtx(t), t.demo);
    expect((await sixWeeks()).counters).toEqual(before.counters);
  });
});
