import { type PluginDefinition, runInTenant } from '@balcao/plugin-sdk/server';
import { FlowBuilder, FlowCampaign, QueueIntegration } from '../models';

/**
 * The walkers' rows of company A, each carrying the marker: a webhook integration, a flow and a phrase
 * campaign starting it on A's connection.
 */
export const seedFlowbuilderFixtures: NonNullable<NonNullable<PluginDefinition['seed']>['fixtures']> = async ({
  companyA,
  marker,
  seededA,
}) =>
  runInTenant({ companyId: companyA.id }, async () => {
    const integration = await QueueIntegration.query().insert({
      type: 'webhook',
      name: `Webhook ${marker}`,
      projectName: `Webhook ${marker}`,
      urlN8N: 'https://hooks.fixture.example/balcao',
    });
    const flow = await FlowBuilder.query().insert({ name: `Fluxo ${marker}`, active: true });
    const campaign = await FlowCampaign.query().insert({
      name: `Campanha ${marker}`,
      flowId: flow.id,
      whatsappId: Number(seededA.whatsapp) || null,
      phrase: `quero ${marker}`,
      status: true,
    });
    return { integration: integration.id, flow: flow.id, flowCampaign: campaign.id };
  });
