import { type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import { dueTime } from '../../shared/schedules';
import { Schedule } from '../models/schedule';
import { companyServiceHours } from '../services/schedules.service';

const DAY = 86_400_000;

/** Acme's demo schedules: what they say, how many days from today (at 10:00) and their recurrence. */
const DEMO = [
  { body: 'Olá! Passando para lembrar da sua consulta amanhã às 14h. Até lá!', days: 1, hour: 10 },
  { body: 'Sua fatura vence hoje. Qualquer dúvida, é só responder esta mensagem.', days: 3, hour: 9, monthly: true },
  { body: 'Como foi sua experiência com o nosso atendimento? Responda de 1 a 5.', days: 6, hour: 15 },
  { body: 'Bom dia! Seu pedido já saiu para entrega.', days: -2, hour: 11, sent: true },
] as const;

/**
 * Acme's schedules (idempotent): a few for its first contacts in the coming week (one monthly, on business
 * days only) and one already sent, on Acme's default connection. Skipped when Acme has no contact or connection.
 */
export async function seedSchedulesDemo(
  ctx: PluginContext,
  demo: { companies: Record<string, number> },
  today = new Date(),
): Promise<void> {
  const companyId = demo.companies.acme;
  if (!companyId) return;
  const { knex } = ctx.db;
  const connection = (await knex('whatsapps').where({ companyId }).orderBy('isDefault', 'desc').orderBy('id').first('id')) as
    | { id: number }
    | undefined;
  const contacts = (await knex('contacts')
    .where({ companyId, isGroup: false })
    .whereNotNull('number')
    .orderBy('id')
    .limit(DEMO.length)
    .pluck('id')) as number[];
  const admin = (await knex('users').where({ companyId, profile: 'admin' }).orderBy('id').first('id')) as
    | { id: number }
    | undefined;
  if (!connection || contacts.length === 0) return;
  await runInTenant({ companyId }, async () => {
    if ((await Schedule.query().resultSize()) > 0) return;
    const hours = await companyServiceHours(ctx, companyId);
    for (const [index, entry] of DEMO.entries()) {
      const sendAt = new Date(today.getFullYear(), today.getMonth(), today.getDate(), entry.hour);
      sendAt.setTime(sendAt.getTime() + entry.days * DAY);
      const sent = 'sent' in entry && entry.sent;
      const tipoDias = 'monthly' in entry ? 5 : 4;
      await Schedule.query().insert({
        body: entry.body,
        sendAt,
        anchorAt: sendAt,
        // due as the service makes it: a business-days schedule moves to the company's next opening
        dueAt: dueTime(sendAt, tipoDias, hours),
        contactId: contacts[index % contacts.length] as number,
        userId: admin?.id ?? null,
        whatsappId: connection.id,
        intervalo: 3,
        valorIntervalo: 'monthly' in entry ? 1 : 0,
        enviarQuantasVezes: 'monthly' in entry ? 12 : 1,
        tipoDias,
        assinar: index === 0,
        status: sent ? 'ENVIADA' : 'PENDENTE',
        sentAt: sent ? sendAt : null,
        sentCount: sent ? 1 : 0,
      });
    }
  });
}
