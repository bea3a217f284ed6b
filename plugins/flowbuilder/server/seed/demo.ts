import { runInTenant } from '@balcao/plugin-sdk/server';
import type { FlowbuilderContext } from '../config';
import { FlowBuilder, FlowCampaign, QueueIntegration } from '../models';

/**
 * Acme's integrations page and phrase campaigns are lived in (idempotent): an n8n and a Typebot integration
 * (their addresses are examples: this machine reaches no such service) and a phrase campaign on Acme's
 * first connection. The flows themselves come with the flow editor.
 */
export async function seedFlowbuilderDemo(ctx: FlowbuilderContext, demo: { companies: Record<string, number> }): Promise<void> {
  const companyId = demo.companies.acme;
  if (!companyId) return;
  await runInTenant({ companyId }, async () => {
    if (await QueueIntegration.query().first()) return;
    await QueueIntegration.query().insert({
      type: 'n8n',
      name: 'Pedidos (n8n)',
      projectName: 'Pedidos (n8n)',
      urlN8N: 'https://n8n.acme.example/webhook/balcao-pedidos',
    });
    await QueueIntegration.query().insert({
      type: 'typebot',
      name: 'Triagem Typebot',
      projectName: 'Triagem Typebot',
      urlN8N: 'https://typebot.acme.example',
      typebotSlug: 'triagem-acme',
      typebotKeywordFinish: 'sair',
      typebotKeywordRestart: 'reiniciar',
      typebotRestartMessage: 'Vamos recomeçar!',
      typebotUnknownMessage: 'Não entendi. Pode repetir?',
    });
    const flow = await FlowBuilder.query().insert({ name: 'Boas-vindas', active: true });
    const connection = await ctx.db.knex('whatsapps').where({ companyId }).orderBy('id').first('id');
    await FlowCampaign.query().insert({
      name: 'Promoção de verão',
      flowId: flow.id,
      whatsappId: connection?.id ?? null,
      phrase: 'promoção',
      status: true,
    });
  });
}
