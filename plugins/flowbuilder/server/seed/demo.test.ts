import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFlow } from '../../shared/flow-document';
import { SITE_WELCOME_FLOW, seedFlowbuilderDemo } from './demo';

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

  it('gives Site Acme a sound welcome flow with a question, a menu and the queues, once', async () => {
    const knex = t.balcao.core.knex;
    const acme = t.demo.companies.acme;
    const flows = await knex('flowBuilders').where({ companyId: acme, name: SITE_WELCOME_FLOW }).select('id', 'flow');
    expect(flows).toHaveLength(1);
    const site = await knex('whatsapps').where({ companyId: acme, name: 'Site Acme' }).first('flowIdWelcome');
    expect(site.flowIdWelcome).toBe(flows[0].id);
    expect(checkFlow(flows[0].flow)).toEqual([]);
    const kinds = flows[0].flow.nodes.map((node: { type: string }) => node.type);
    expect(kinds).toEqual(expect.arrayContaining(['question', 'menu', 'ticket']));
  });
});
