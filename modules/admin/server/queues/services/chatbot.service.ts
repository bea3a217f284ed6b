import { AppError, companyEvent, type PluginContext } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { AdminQueue, Chatbot } from '../models';
import { buildTree, type ChatbotInput, type ChatbotNode, loadOption, queueOptionRows, replaceOptions } from './chatbot-tree';
import { loadQueue } from './queue.service';

/** One option's own fields as POST and PUT /chatbot take them. */
type OptionFields = Omit<ChatbotInput, 'id' | 'options'>;

/** The queue screens follow option changes through the queue's own event (`company-{id}-queue`). */
async function emitQueueOf(ctx: PluginContext, companyId: number, queueId: number): Promise<void> {
  ctx.realtime.emit(companyId, companyEvent(companyId, 'queue'), { action: 'update', queue: await loadQueue(queueId) });
}

/** The options of one level of a queue with their whole subtrees, as the tree writer takes them. */
async function levelAsInput(queueId: number, parentId: number | null, trx: Knex.Transaction): Promise<ChatbotInput[]> {
  const toInput = (node: ChatbotNode): ChatbotInput => ({ ...node, options: node.options.map(toInput) });
  return buildTree(await queueOptionRows(queueId, trx), parentId).map(toInput);
}

/**
 * `POST /chatbot`: a new option at the end of its level — a root option of `queueId`, or nested under
 * `chatbotId` (an option of that same queue, which must have a message) — with its nested options.
 */
export async function createOption(
  ctx: PluginContext,
  companyId: number,
  input: OptionFields & { queueId: number; chatbotId?: number | null; options?: ChatbotInput[] },
): Promise<ChatbotNode> {
  const { queueId, chatbotId = null, options = [], ...fields } = input;
  const id = await ctx.db.transaction(async (trx) => {
    const queue = await AdminQueue.query(trx).findById(queueId).forUpdate();
    if (!queue) throw new AppError('ERR_NO_QUEUE_FOUND');
    if (chatbotId !== null) {
      const parent = await Chatbot.query(trx).findById(chatbotId);
      if (!parent || parent.queueId !== queueId) throw new AppError('ERR_NO_CHATBOT_FOUND');
      if (parent.greetingMessage.trim() === '') throw new AppError('ERR_CHATBOT_MESSAGE_REQUIRED');
    }
    const level = await levelAsInput(queueId, chatbotId, trx);
    await replaceOptions(ctx, companyId, queueId, chatbotId, [...level, { ...fields, options }], trx);
    // the new option is its level's newest row (its nested options sit one level below)
    const created = await Chatbot.query(trx)
      .where({ queueId })
      .where((q) => (chatbotId === null ? q.whereNull('chatbotId') : q.where('chatbotId', chatbotId)))
      .orderBy('id', 'desc')
      .first();
    return (created as Chatbot).id;
  });
  const option = await loadOption(id);
  await emitQueueOf(ctx, companyId, option.queueId);
  return option;
}

/** `PUT /chatbot/:chatbotId`: changes the fields given; `options`, when given, replaces its nested options. */
export async function updateOption(
  ctx: PluginContext,
  companyId: number,
  chatbotId: number,
  input: Partial<OptionFields> & { options?: ChatbotInput[] },
): Promise<ChatbotNode> {
  const queueId = await ctx.db.transaction(async (trx) => {
    const current = await Chatbot.query(trx).findById(chatbotId);
    if (!current) throw new AppError('ERR_NO_CHATBOT_FOUND');
    await AdminQueue.query(trx).findById(current.queueId).forUpdate();
    const { options, ...fields } = input;
    // the option's level, rewritten with this option changed and its siblings as they are
    const level = (await levelAsInput(current.queueId, current.chatbotId, trx)).map((option) =>
      option.id === chatbotId ? { ...option, ...fields, options: options ?? option.options } : option,
    );
    await replaceOptions(ctx, companyId, current.queueId, current.chatbotId, level, trx);
    return current.queueId;
  });
  await emitQueueOf(ctx, companyId, queueId);
  return loadOption(chatbotId);
}

/** `DELETE /chatbot/:chatbotId`: the option and everything nested under it. */
export async function deleteOption(ctx: PluginContext, companyId: number, chatbotId: number): Promise<void> {
  const option = await Chatbot.query().findById(chatbotId);
  if (!option) throw new AppError('ERR_NO_CHATBOT_FOUND');
  await Chatbot.query().deleteById(chatbotId);
  await emitQueueOf(ctx, companyId, option.queueId);
}
