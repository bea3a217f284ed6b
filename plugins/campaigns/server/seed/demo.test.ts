import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCampaignsDemo } from './demo';

/** The demo lives in Acme's campaigns pages: a list, a finished campaign with its report, a scheduled one. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoData: true });
});
afterAll(async () => {
  await t?.close();
});

describe('the campaigns demo', () => {
  it('gives Acme a list, a finished and a scheduled campaign, once; Lite nothing', async () => {
    const admin = await t.login('admin@acme.test');
    const lists = await t.inject({ method: 'GET', url: '/api/contact-lists', token: admin.token });
    expect(lists.json().records).toEqual([expect.objectContaining({ name: 'Clientes VIP', contactsCount: 12 })]);
    const campaigns = (await t.inject({ method: 'GET', url: '/api/campaigns', token: admin.token })).json().records as Array<{
      status: string;
      report: { delivered: number; valid: number; optedOut: number };
    }>;
    expect(campaigns.map((campaign) => campaign.status).sort()).toEqual(['FINALIZADA', 'PROGRAMADA']);
    expect(campaigns.find((campaign) => campaign.status === 'FINALIZADA')?.report).toMatchObject({ delivered: 10, optedOut: 1 });

    // seeding again changes nothing
    const plugin = t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'campaigns');
    await seedCampaignsDemo(plugin?.ctx as never, { companies: t.demo.companies });
    expect(
      await t.balcao.core.knex('campaigns').where({ companyId: t.demo.companies.acme }).count({ n: '*' }).first(),
    ).toMatchObject({ n: 2 });
    expect(
      await t.balcao.core.knex('campaigns').where({ companyId: t.demo.companies.lite }).count({ n: '*' }).first(),
    ).toMatchObject({ n: 0 });
  });
});
