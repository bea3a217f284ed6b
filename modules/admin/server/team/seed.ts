import { type PluginContext, runInTenant, User } from '@balcao/plugin-sdk/server';

/** The demo's password (the core's DEMO_PASSWORD: every demo login shares it). */
const DEMO_PASSWORD = 'demo1234';

/** Two more Acme agents with different permission fields, so the Users page and its dialog show variety. */
const DEMO_AGENTS = [
  {
    name: 'Bruna Suporte',
    email: 'bruna@acme.test',
    startWork: '08:00',
    endWork: '17:00',
    showDashboard: 'enabled',
    allowRealTime: 'enabled',
    allTicket: 'enable',
    farewellMessage: 'Obrigada pelo contato! Qualquer coisa, é só chamar.',
    queues: 1,
  },
  {
    name: 'Caio Vendas',
    email: 'caio@acme.test',
    startWork: '12:00',
    endWork: '21:00',
    allowConnections: 'enabled',
    allUserChat: 'enabled',
    allowGroup: true,
    defaultTheme: 'dark',
    queues: 2,
  },
] as const;

/**
 * `npm start`'s demo rows of the team area: Acme's extra agents, each in some of Acme's queues (the
 * inbox's demo queues, seeded before: admin depends on inbox). Inserts only what is missing.
 */
export async function seedTeamDemo(ctx: PluginContext, demo: { companies: Record<string, number> }): Promise<void> {
  const companyId = demo.companies.acme;
  if (companyId === undefined) return;
  const passwordHash = await ctx.passwords.hash(DEMO_PASSWORD);
  await runInTenant({ companyId }, async () => {
    const queues: Array<{ id: number }> = await ctx.db
      .knex('queues')
      .where({ companyId })
      .orderBy([{ column: 'orderQueue', nulls: 'last' }, { column: 'id' }])
      .select('id');
    for (const { queues: queueCount, ...agent } of DEMO_AGENTS) {
      const taken = await ctx.db.knex('users').whereRaw('lower(email) = ?', [agent.email]).first('id');
      if (taken) continue;
      const user = await User.query().insertAndFetch({ ...agent, passwordHash, profile: 'user' } as Partial<User>);
      const memberships = queues.slice(0, queueCount).map((queue) => ({ companyId, userId: user.id, queueId: queue.id }));
      if (memberships.length > 0) await ctx.db.knex('userQueues').insert(memberships);
    }
  });
}
