import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFlowbuilderDemo } from './demo';

/** The demo lives in Acme's integrations and phrase campaigns pages. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoData: true });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('the flow builder demo', () => {
  it('gives Acme an n8n and a Typebot integration and a phrase campaign, once', async () => {
    const admin = await t.login('admin@acme.test');
    const integrations = (await t.inject({ method: 'GET', url: '/api/queueIntegration', token: admin.token })).json();
    expect(integrations.queueIntegrations.map((row: { type: string }) => row.type).sort()).toEqual(['n8n', 'typebot']);
    const campaigns = (await t.inject({ method: 'GET', url: '/api/flowcampaign', token: admin.token })).json();
    expect(campaigns.flow).toEqual([expect.objectContaining({ name: 'Promoção de verão', status: true })]);

    const plugin = t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'flowbuilder');
    await seedFlowbuilderDemo(plugin?.ctx as never, { companies: t.demo.companies });
    const count = await t.balcao.core
      .knex('queueIntegrations')
      .where({ companyId: t.demo.companies.acme })
      .count({ n: '*' })
      .first();
    expect(Number(count?.n)).toBe(2);
  });
});
