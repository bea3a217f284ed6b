import type { PluginContext } from '@balcao/plugin-sdk/server';

/** The demo's team chats: who writes what, minutes ago. The last one is unread for the agent. */
const CHATS = [
  {
    title: 'Equipe de atendimento',
    messages: [
      ['admin', 'Bom dia, pessoal! Hoje a fila de vendas está cheia, vamos priorizar quem espera há mais tempo.', 180],
      ['agent', 'Bom dia! Estou com três conversas abertas, pego as próximas da fila de vendas.', 175],
      ['admin', 'Perfeito. Lembrem de marcar a etiqueta de orçamento quando for o caso.', 170],
      ['agent', 'Combinado 👍', 168],
    ],
  },
  {
    title: 'Trocas e devoluções',
    messages: [
      ['agent', 'Um cliente pediu troca fora do prazo de 7 dias. Posso abrir exceção?', 60],
      ['admin', 'Pode sim, se a compra foi há menos de 30 dias. Anote no ticket.', 45],
      ['admin', 'E me avise se ele quiser estorno em vez de troca.', 44],
    ],
  },
] as const;

/**
 * Acme's team chats (idempotent: skipped when Acme has any): two chats between its admin and agent with a
 * short history, the second with two messages the agent hasn't read — the popover's count and the menu's dot.
 */
export async function seedChatsDemo(
  ctx: PluginContext,
  demo: { companies: Record<string, number>; users: Record<string, number> },
): Promise<void> {
  const companyId = demo.companies.acme;
  const admin = demo.users.acmeAdmin;
  const agent = demo.users.acmeAgent;
  if (!companyId || !admin || !agent) return;
  const knex = ctx.db.knex;
  if (await knex('chats').where({ companyId }).first('id')) return;
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  const senders = { admin, agent };
  for (const [index, chat] of CHATS.entries()) {
    const last = chat.messages[chat.messages.length - 1] as (typeof chat.messages)[number];
    const [row] = (await knex('chats')
      .insert({
        companyId,
        title: chat.title,
        ownerId: admin,
        lastMessage: last[1],
        createdAt: minutesAgo(chat.messages[0][2] + 5),
        updatedAt: minutesAgo(last[2]),
      })
      .returning('id')) as Array<{ id: number }>;
    const chatId = (row as { id: number }).id;
    await knex('chatMessages').insert(
      chat.messages.map(([who, message, minutes]) => ({
        companyId,
        chatId,
        senderId: senders[who],
        message,
        createdAt: minutesAgo(minutes),
        updatedAt: minutesAgo(minutes),
      })),
    );
    // the first chat is read by both; in the second the agent hasn't read the admin's last two messages
    const agentUnreads = index === 1 ? 2 : 0;
    await knex('chatUsers').insert([
      { companyId, chatId, userId: admin, unreads: 0, lastReadAt: minutesAgo(last[2]) },
      {
        companyId,
        chatId,
        userId: agent,
        unreads: agentUnreads,
        lastReadAt: agentUnreads > 0 ? minutesAgo(chat.messages[0][2]) : minutesAgo(last[2]),
      },
    ]);
  }
}
