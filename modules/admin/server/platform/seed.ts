import { randomBytes } from 'node:crypto';
import type { FixtureIds, FixtureSeedContext, PluginContext } from '@balcao/plugin-sdk/server';
import { addMonths, today } from './services/due-date';

/** Help videos and an announcement for the demo (`npm start`); inserted only when missing. */
const DEMO_HELPS = [
  {
    title: 'Primeiros passos no Balcão',
    description: 'Conecte seu WhatsApp, crie filas e comece a atender seus clientes.',
    video: 'dQw4w9WgXcQ',
  },
  {
    title: 'Respostas rápidas e tags',
    description: 'Ganhe tempo com atalhos de mensagens e organize seus contatos com tags.',
    video: 'aqz-KE-bpKQ',
  },
];

const DEMO_ANNOUNCEMENT = {
  title: 'Bem-vindo ao Balcão!',
  text: 'Novidade: agora você pode acompanhar os avisos da plataforma por aqui. Manutenção programada no domingo às 23h.',
  priority: 2,
  status: true,
};

/** The platform's demo rows: two help entries and one active announcement (idempotent by title). */
export async function seedPlatformDemo(ctx: PluginContext): Promise<void> {
  const { knex } = ctx.db;
  for (const help of DEMO_HELPS) {
    const exists = await knex('helps').where({ title: help.title }).first('id');
    if (!exists) await knex('helps').insert(help);
  }
  const exists = await knex('announcements').where({ title: DEMO_ANNOUNCEMENT.title }).first('id');
  if (!exists) await knex('announcements').insert(DEMO_ANNOUNCEMENT);
}

/**
 * Rows for the test walkers. Helps and announcements are shared by every company (so they carry no
 * marker: B reads them too). The plan and the company are disposable: the super-only writes walk them
 * (a company updated, renewed and deleted; a plan updated and deleted) instead of company A and its plan.
 */
export async function seedPlatformFixtures({ ctx, companyA }: FixtureSeedContext): Promise<FixtureIds> {
  const { knex } = ctx.db;
  const suffix = randomBytes(4).toString('hex');
  const [help] = await knex('helps')
    .insert({ title: `Fixture help ${suffix}`, description: 'A shared help entry', video: 'dQw4w9WgXcQ' })
    .returning('id');
  const [announcement] = await knex('announcements')
    .insert({ title: `Fixture announcement ${suffix}`, text: 'A shared notice', priority: 3, status: true })
    .returning('id');
  const [plan] = await knex('plans')
    .insert({ name: `Fixture platform plan ${suffix}`, users: 1, connections: 1, queues: 1, amount: 10, isPublic: false })
    .returning('id');
  const { planId } = await knex('companies').where({ id: companyA.id }).first('planId');
  const [company] = await knex('companies')
    .insert({
      name: `Disposable ${suffix}`,
      email: `disposable-${suffix}@fixture.test`,
      planId,
      status: true,
      dueDate: addMonths(today(), 1),
    })
    .returning('id');
  return { help: help.id, announcement: announcement.id, plan: plan.id, platformCompany: company.id };
}
