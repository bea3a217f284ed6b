import { type PluginContext, type PluginDefinition, runInTenant } from '@balcao/plugin-sdk/server';
import { defaultSchedules } from '../../shared/queues';
import { Chatbot, CompanyServiceHours } from './models';

type Seeds = NonNullable<PluginDefinition['seed']>;

/** Greetings for the inbox's demo queues (by name). */
const GREETINGS: Record<string, string> = {
  Vendas: 'Você está no setor de Vendas. Como podemos ajudar?',
  Suporte: 'Você está no Suporte. Um técnico vai atender você em breve.',
  Financeiro: 'Você está no Financeiro. Tenha em mãos o número do seu pedido.',
};

/**
 * Acme's chatbot for `npm start`: greetings on its queues, a two-level option tree in Vendas (a text
 * option with nested options, an option handing over to the admin, one moving to Suporte), company
 * service hours and a company greeting. Only fills what is missing.
 */
export const seedQueuesDemo: NonNullable<Seeds['demo']> = async (ctx: PluginContext, demo) => {
  const companyId = demo.companies.acme;
  if (!companyId) return;
  const { knex } = ctx.db;
  await runInTenant({ companyId }, async () => {
    const queues: Array<{ id: number; name: string; greetingMessage: string | null }> = await knex('queues')
      .where({ companyId })
      .select('id', 'name', 'greetingMessage');
    for (const queue of queues) {
      const greeting = GREETINGS[queue.name];
      if (greeting && !queue.greetingMessage)
        await knex('queues').where({ companyId, id: queue.id }).update({ greetingMessage: greeting });
    }
    const sales = queues.find((queue) => queue.name === 'Vendas');
    const support = queues.find((queue) => queue.name === 'Suporte');
    if (sales && !(await Chatbot.query().where({ queueId: sales.id }).first())) {
      const plans = await Chatbot.query().insert({
        queueId: sales.id,
        name: 'Planos e preços',
        greetingMessage: 'Qual plano interessa a você?',
        queueType: 'text',
        orderOption: 0,
      });
      await Chatbot.query().insert([
        {
          queueId: sales.id,
          chatbotId: plans.id,
          name: 'Plano Básico',
          greetingMessage: 'O Plano Básico custa R$ 49,00 por mês. Um vendedor vai falar com você.',
          queueType: 'text',
          orderOption: 0,
        },
        {
          queueId: sales.id,
          chatbotId: plans.id,
          name: 'Plano Completo',
          greetingMessage: 'O Plano Completo custa R$ 199,90 por mês. Um vendedor vai falar com você.',
          queueType: 'text',
          orderOption: 1,
        },
      ]);
      await Chatbot.query().insert({
        queueId: sales.id,
        name: 'Falar com o gerente',
        greetingMessage: 'Vou chamar o gerente para você.',
        queueType: 'attendent',
        optUserId: demo.users.acmeAdmin ?? null,
        orderOption: 1,
      });
      if (support) {
        await Chatbot.query().insert({
          queueId: sales.id,
          name: 'Já sou cliente',
          greetingMessage: 'Vou passar você para o Suporte.',
          queueType: 'queue',
          optQueueId: support.id,
          orderOption: 2,
        });
      }
    }
    if (!(await CompanyServiceHours.query().first())) {
      await CompanyServiceHours.query().insert({
        schedules: defaultSchedules(),
        greetingMessage: 'Olá! Bem-vindo à Acme. Escolha um setor:',
        outOfHoursMessage:
          'Nosso horário de atendimento é das 08:00 às 12:00 e das 13:00 às 18:00. Responderemos assim que possível.',
      });
    }
  });
};

/** The walkers' option of company A: a root option (with a nested one) of the inbox's fixture queue. */
export const seedQueuesFixtures: NonNullable<Seeds['fixtures']> = async ({ companyA, marker, seededA }) =>
  runInTenant({ companyId: companyA.id }, async () => {
    const queueId = Number(seededA.queue);
    const option = await Chatbot.query().insert({
      queueId,
      name: `Option ${marker}`,
      greetingMessage: `Choose ${marker}`,
      queueType: 'text',
    });
    await Chatbot.query().insert({
      queueId,
      chatbotId: option.id,
      name: `Nested ${marker}`,
      greetingMessage: '',
      queueType: 'text',
    });
    return { chatbot: option.id };
  });
