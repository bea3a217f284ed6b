import { runInTenant } from '@balcao/plugin-sdk/server';
import type { AiContext } from '../config';
import { Prompt } from '../models';
import { demoStandInUrl } from '../services/demo';
import { seal, secretsKey } from '../services/secrets';

/**
 * Acme's demo prompt (docs/ai.md "Demo"): the assistant of the Suporte queue, answering through the local
 * stand-in `npm start` runs (AI_DEMO_STANDIN_PORT), so no key or network is needed. Without the stand-in
 * (the variable unset, as in tests, or production) nothing is seeded: a prompt pointing nowhere would only
 * hand every Suporte ticket to people with a provider failure. Idempotent.
 */
export async function seedAiDemo(rawCtx: unknown, demo: { companies: Record<string, number> }): Promise<void> {
  const ctx = rawCtx as AiContext;
  const port = ctx.config.AI_DEMO_STANDIN_PORT;
  const companyId = demo.companies.acme;
  if (port === 0 || ctx.config.env === 'production' || !companyId) return;
  const queue = await ctx.db.knex('queues').where({ companyId, name: 'Suporte' }).first('id');
  if (!queue) return;
  await runInTenant({ companyId }, async () => {
    if (await Prompt.query().where({ queueId: queue.id }).first()) return;
    await Prompt.query().insert({
      name: 'Assistente de suporte',
      prompt:
        'Você é o assistente de suporte da Acme. Responda em português, com frases curtas e educadas, sobre pedidos, entregas e trocas.',
      queueId: queue.id,
      apiKeySealed: seal(secretsKey(ctx), 'sk-demo-stand-in'),
      baseUrl: demoStandInUrl(port),
      model: 'demo-model',
    });
  });
}
