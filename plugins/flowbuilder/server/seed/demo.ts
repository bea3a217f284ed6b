import { runInTenant } from '@balcao/plugin-sdk/server';
import type { FlowDocument } from '../../shared/flow-document';
import type { FlowbuilderContext } from '../config';
import { FlowBuilder, FlowCampaign, QueueIntegration } from '../models';

/**
 * Acme's integrations page and phrase campaigns are lived in (idempotent): an n8n and a Typebot integration
 * (their addresses are examples: this machine reaches no such service) and a phrase campaign on Acme's
 * first connection; and the website chat's welcome flow on "Site Acme" (a question, a menu, a queue hand-off).
 */
export async function seedFlowbuilderDemo(ctx: FlowbuilderContext, demo: { companies: Record<string, number> }): Promise<void> {
  const companyId = demo.companies.acme;
  if (!companyId) return;
  await seedSiteWelcomeFlow(ctx, companyId);
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

export const SITE_WELCOME_FLOW = 'Boas-vindas do site';

/** The welcome flow of a visitor new to the demo's website chat (idempotent by name). */
export function siteWelcomeDocument(sales: number, support: number): FlowDocument {
  const at = (x: number) => ({ x, y: 120 });
  return {
    nodes: [
      { id: '1', type: 'start', position: at(0), data: { label: 'Inicio do fluxo' } },
      {
        id: 'SiteOlaAcme00000000000000000001',
        type: 'message',
        position: at(240),
        data: { label: 'Olá, {{name}}! Sou o assistente da Acme.' },
      },
      {
        id: 'SiteAssuntoAcme000000000000002',
        type: 'question',
        position: at(480),
        data: { typebotIntegration: { message: 'Em poucas palavras, qual é o assunto?', answerKey: 'assunto' } },
      },
      {
        id: 'SiteMenuAcme000000000000000003',
        type: 'menu',
        position: at(720),
        data: {
          message: 'Anotado: "{{assunto}}". Com quem você quer falar?',
          arrayOption: [
            { number: 1, value: 'Vendas' },
            { number: 2, value: 'Suporte' },
          ],
        },
      },
      {
        id: 'SiteVendasAcme0000000000000004',
        type: 'ticket',
        position: { x: 960, y: 40 },
        data: { data: { id: sales, name: 'Vendas' } },
      },
      {
        id: 'SiteSuporteAcme000000000000005',
        type: 'ticket',
        position: { x: 960, y: 200 },
        data: { data: { id: support, name: 'Suporte' } },
      },
    ],
    connections: [
      { source: '1', target: 'SiteOlaAcme00000000000000000001' },
      { source: 'SiteOlaAcme00000000000000000001', target: 'SiteAssuntoAcme000000000000002' },
      { source: 'SiteAssuntoAcme000000000000002', target: 'SiteMenuAcme000000000000000003' },
      { source: 'SiteMenuAcme000000000000000003', target: 'SiteVendasAcme0000000000000004', sourceHandle: 'a1' },
      { source: 'SiteMenuAcme000000000000000003', target: 'SiteSuporteAcme000000000000005', sourceHandle: 'a2' },
    ],
  };
}

async function seedSiteWelcomeFlow(ctx: FlowbuilderContext, companyId: number): Promise<void> {
  const { knex } = ctx.db;
  const site = await knex('whatsapps').where({ companyId, name: 'Site Acme', channel: 'webchat' }).first('id', 'flowIdWelcome');
  const sales = await knex('queues').where({ companyId, name: 'Vendas' }).first('id');
  const support = await knex('queues').where({ companyId, name: 'Suporte' }).first('id');
  if (!site || !sales || !support || site.flowIdWelcome !== null) return;
  const [flow] = await knex('flowBuilders')
    .insert({
      companyId,
      name: SITE_WELCOME_FLOW,
      active: true,
      flow: JSON.stringify(siteWelcomeDocument(Number(sales.id), Number(support.id))),
    })
    .returning('id');
  await knex('whatsapps').where({ id: site.id, companyId }).update({ flowIdWelcome: flow.id });
}
