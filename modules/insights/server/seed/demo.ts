import type { PluginContext, PluginDefinition } from '@balcao/plugin-sdk/server';

type DemoSeed = NonNullable<NonNullable<PluginDefinition['seed']>['demo']>;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Weeks of history the demo's dashboard shows. */
const HISTORY_DAYS = 42;
const HISTORY_TICKETS = 320;
const HISTORY_CONTACTS = 90;
/** The demo's history contacts are known by this e-mail domain (what makes the seed idempotent). */
const HISTORY_DOMAIN = 'historico.acme.test';

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elaine', 'Fábio', 'Gisele', 'Heitor', 'Isabela', 'Jorge', 'Kátia', 'Leandro'];
const LAST = ['Araújo', 'Barros', 'Campos', 'Duarte', 'Esteves', 'Farias', 'Gomes', 'Holanda', 'Moraes', 'Nogueira'];
const LAST_MESSAGES = [
  'Obrigado pela ajuda!',
  'Perfeito, aguardo a entrega.',
  'Boleto pago, obrigada.',
  'Resolvido, valeu!',
  'Vou testar e aviso.',
  'Ótimo atendimento.',
];

/** A deterministic "random" number in [0, 1) from an integer (the demo is the same on every machine). */
function unit(seed: number): number {
  const x = Math.sin(seed * 12.9898 + 78.233) * 43758.5453;
  return x - Math.floor(x);
}

/** A rating skewed towards the top, as customer ratings are: mostly 8–10, some passives and detractors. */
function rateOf(seed: number): number {
  const u = unit(seed);
  if (u < 0.45) return 10;
  if (u < 0.65) return 9;
  if (u < 0.78) return 8;
  if (u < 0.86) return 7;
  return Math.floor(unit(seed + 1) * 7);
}

/**
 * Acme's past weeks (docs/insights.md "Demo"): 320 closed tickets over six weeks, with their log (created,
 * accepted after a wait, some transferred, resolved) and most of them rated, so that the dashboard has
 * something to show. Then the company's cycles are derived from them (`insights_backfill`). Inserts only
 * when the history is missing.
 */
export const seedInsightsDemo: DemoSeed = async (ctx: PluginContext, demo) => {
  const companyId = demo.companies.acme;
  if (!companyId) return;
  const { knex } = ctx.db;
  const seeded = await knex('contacts').where({ companyId }).whereLike('email', `%@${HISTORY_DOMAIN}`).first('id');
  if (seeded) return;
  const queues = (await knex('queues').where({ companyId }).orderBy('id').select('id')) as Array<{ id: number }>;
  const users = (await knex('users').where({ companyId }).orderBy('id').select('id')) as Array<{ id: number }>;
  if (queues.length === 0 || users.length === 0) return;
  const members = (await knex('userQueues').where({ companyId }).select('userId', 'queueId')) as Array<{
    userId: number;
    queueId: number;
  }>;
  const agentsOf = (queueId: number | null) => {
    const ids = members.filter((member) => member.queueId === queueId).map((member) => member.userId);
    return ids.length > 0 ? ids : users.map((user) => user.id);
  };

  await knex.transaction(async (trx) => {
    const contacts = (await trx('contacts')
      .insert(
        Array.from({ length: HISTORY_CONTACTS }, (_, i) => ({
          companyId,
          name: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`,
          number: `55119${String(70_000_000 + i * 7919).padStart(8, '0')}`,
          email: `cliente${i + 1}@${HISTORY_DOMAIN}`,
          createdAt: new Date(Date.now() - (HISTORY_DAYS + 1) * DAY),
        })),
      )
      .returning('id')) as Array<{ id: number }>;

    const now = Date.now();
    for (let i = 0; i < HISTORY_TICKETS; i++) {
      // busier on weekdays and towards today
      const daysAgo = 1 + Math.floor(unit(i * 3) ** 1.3 * HISTORY_DAYS);
      const created = now - daysAgo * DAY - (8 + unit(i * 5) * 10) * 60 * MINUTE;
      const queueId = queues[Math.floor(unit(i * 7) * queues.length)]?.id ?? null;
      const agents = agentsOf(queueId);
      const first = agents[Math.floor(unit(i * 11) * agents.length)] ?? null;
      const transferred = unit(i * 13) < 0.1 && users.length > 1;
      const last = transferred ? (users.find((user) => user.id !== first)?.id ?? first) : first;
      const active = unit(i * 17) < 0.15;
      const waitMinutes = active ? 0 : 1 + Math.floor(unit(i * 19) ** 2 * 45);
      const supportMinutes = 4 + Math.floor(unit(i * 23) * 80);
      const accepted = created + waitMinutes * MINUTE;
      const closed = accepted + supportMinutes * MINUTE;
      const contactId = contacts[Math.floor(unit(i * 29) * contacts.length)]?.id;
      if (contactId === undefined) continue;
      const [ticket] = (await trx('tickets')
        .insert({
          companyId,
          contactId,
          status: 'closed',
          userId: last,
          queueId,
          channel: 'whatsapp',
          lastMessage: LAST_MESSAGES[i % LAST_MESSAGES.length],
          createdAt: new Date(created),
          updatedAt: new Date(closed),
          closedAt: new Date(closed),
        })
        .returning('id')) as [{ id: number }];
      const logs: Array<{ type: string; userId: number | null; at: number }> = [
        { type: 'create', userId: active ? first : null, at: created },
        { type: 'open', userId: first, at: accepted },
      ];
      if (transferred) {
        const at = accepted + Math.floor(supportMinutes / 2) * MINUTE;
        logs.push({ type: 'transfered', userId: first, at }, { type: 'receivedTransfer', userId: last, at });
      }
      logs.push({ type: 'closed', userId: last, at: closed });
      await trx('ticketLogs').insert(
        logs.map((log) => ({
          companyId,
          ticketId: ticket.id,
          type: log.type,
          userId: log.userId,
          queueId,
          createdAt: new Date(log.at),
        })),
      );
      if (unit(i * 31) < 0.62) {
        await trx('ticketRatings').insert({
          companyId,
          ticketId: ticket.id,
          userId: last,
          rate: rateOf(i * 37),
          createdAt: new Date(closed),
          updatedAt: new Date(closed),
        });
      }
    }
    // the cycles of the history, from its logs (the triggers took these rows as written, without their past)
    await trx.raw('SELECT insights_backfill(?)', [companyId]);
  });
};
