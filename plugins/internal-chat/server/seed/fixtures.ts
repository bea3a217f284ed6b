import type { FixtureSeedContext } from '@balcao/plugin-sdk/server';

/**
 * Company A's chat for the SDK's walkers: owned by A's admin (who walks every route), with A's user as a
 * member and a message, the marker in its title and text.
 */
export async function seedChatFixtures({ ctx, marker, companyA }: FixtureSeedContext): Promise<Record<string, number | string>> {
  const knex = ctx.db.knex;
  const companyId = companyA.id;
  const [chat] = (await knex('chats')
    .insert({ companyId, title: `Chat ${marker}`, ownerId: companyA.adminId, lastMessage: `hi ${marker}` })
    .returning(['id', 'uuid'])) as Array<{ id: number; uuid: string }>;
  const { id, uuid } = chat as { id: number; uuid: string };
  await knex('chatUsers').insert([
    { companyId, chatId: id, userId: companyA.adminId },
    { companyId, chatId: id, userId: companyA.userId, unreads: 1 },
  ]);
  await knex('chatMessages').insert({ companyId, chatId: id, senderId: companyA.adminId, message: `hi ${marker}` });
  return { chat: id, chatUuid: uuid };
}
