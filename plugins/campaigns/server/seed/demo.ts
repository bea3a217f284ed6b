import { type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import { Campaign } from '../models/campaign';
import { ContactList, ContactListItem } from '../models/contact-list';

/** The demo list's people (numbers as a list keeps them: digits, country code first). */
const PEOPLE = [
  ['Ana Beatriz Costa', '5511987650001', 'ana.costa@exemplo.com'],
  ['Bruno Almeida', '5511987650002', 'bruno.almeida@exemplo.com'],
  ['Carla Mendes', '5521987650003', null],
  ['Diego Ferreira', '5531987650004', 'diego@exemplo.com'],
  ['Eduarda Lima', '5541987650005', null],
  ['Fábio Rocha', '5551987650006', 'fabio.rocha@exemplo.com'],
  ['Gabriela Nunes', '5561987650007', null],
  ['Henrique Souza', '5571987650008', 'henrique@exemplo.com'],
  ['Isabela Martins', '5581987650009', null],
  ['João Pedro Silva', '5591987650010', 'joao.silva@exemplo.com'],
  ['Larissa Gomes', '5511987650011', null],
  ['Marcelo Ribeiro', '5511987650012', 'marcelo@exemplo.com'],
] as const;

const LIST_NAME = 'Clientes VIP';
const FINISHED = 'Black Friday — aviso antecipado';
const SCHEDULED = 'Pesquisa de satisfação de dezembro';

/**
 * Acme's campaigns (idempotent): a contact list, a finished campaign with its recipients' outcomes (sent two
 * weeks ago, one refused number, one opt-out) and a campaign scheduled three days ahead, on Acme's default
 * connection. Skipped when Acme has no connection.
 */
export async function seedCampaignsDemo(ctx: PluginContext, demo: { companies: Record<string, number> }): Promise<void> {
  const companyId = demo.companies.acme;
  if (!companyId) return;
  const connection = (await ctx.db
    .knex('whatsapps')
    .where({ companyId })
    .orderByRaw("(channel = 'whatsapp') DESC")
    .orderBy('isDefault', 'desc')
    .orderBy('id')
    .first('id')) as { id: number } | undefined;
  await runInTenant({ companyId }, async () => {
    let list = await ContactList.query().findOne({ name: LIST_NAME });
    if (!list) {
      list = await ContactList.query().insert({ name: LIST_NAME, whatsappId: connection?.id ?? null });
      await ContactListItem.query().insert(
        PEOPLE.map(([name, number, email]) => ({
          contactListId: list?.id as number,
          name,
          number,
          email,
          isWhatsappValid: null,
        })),
      );
    }
    if (!connection) return;
    const listId = list.id;
    if (!(await Campaign.query().findOne({ name: FINISHED }))) {
      const sentAt = new Date(Date.now() - 14 * 86_400_000);
      const campaign = await Campaign.query().insert({
        name: FINISHED,
        status: 'FINALIZADA',
        message1: 'Oi {nome}! A Black Friday da Acme começa sexta: 30% em toda a loja para clientes VIP. 🛍️',
        message2: '{nome}, você tem acesso antecipado à Black Friday da Acme: 30% de desconto a partir de sexta!',
        contactListId: listId,
        whatsappId: connection.id,
        statusTicket: 'closed',
        openTicket: 'disabled',
        scheduledAt: sentAt,
        startedAt: sentAt,
        completedAt: new Date(sentAt.getTime() + 12 * 60_000),
      });
      await ctx.db.knex('campaignShippings').insert(
        PEOPLE.map(([name, number, email], index) => {
          const outcome = index === 4 ? 'failed' : index === 9 ? 'skipped' : 'delivered';
          return {
            companyId,
            campaignId: campaign.id,
            number,
            name,
            email,
            variant: (index % 2) + 1,
            state: outcome,
            reason: outcome === 'failed' ? 'ERR_WAPP_INVALID_CONTACT' : outcome === 'skipped' ? 'opted_out' : null,
            attempts: 1,
            dueAt: sentAt,
            deliveredAt: outcome === 'delivered' ? new Date(sentAt.getTime() + index * 60_000) : null,
            createdAt: sentAt,
          };
        }),
      );
    }
    if (!(await Campaign.query().findOne({ name: SCHEDULED }))) {
      const at = new Date(Date.now() + 3 * 86_400_000);
      at.setUTCHours(13, 0, 0, 0);
      await Campaign.query().insert({
        name: SCHEDULED,
        status: 'PROGRAMADA',
        confirmation: true,
        confirmationMessage1: 'Olá {nome}! Podemos te fazer 2 perguntas rápidas sobre seu último atendimento? Responda SIM.',
        message1: 'Obrigado, {nome}! De 0 a 10, quanto você recomendaria a Acme a um amigo?',
        contactListId: listId,
        whatsappId: connection.id,
        statusTicket: 'pending',
        openTicket: 'disabled',
        scheduledAt: at,
      });
    }
  });
}
