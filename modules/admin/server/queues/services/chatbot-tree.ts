import { AppError, type PluginContext } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import type { ChatbotOption, ChatbotQueueType } from '../../../shared/queues';
import { Chatbot } from '../models';
import { requireCompanyIntegrations } from './integration-refs';

/** An option as the API writes it (see `ChatbotTreeInput`). */
export interface ChatbotInput {
  id?: number;
  name: string;
  greetingMessage: string;
  queueType: ChatbotQueueType;
  optQueueId?: number | null;
  optUserId?: number | null;
  optIntegrationId?: number | null;
  optFileId?: number | null;
  closeTicket?: boolean;
  options?: ChatbotInput[];
}

/** An option as the API answers it, with its nested options. */
export type ChatbotNode = ChatbotOption;

function nodeOf(row: Chatbot): ChatbotNode {
  return {
    id: row.id,
    queueId: row.queueId,
    chatbotId: row.chatbotId,
    name: row.name,
    greetingMessage: row.greetingMessage,
    queueType: row.queueType,
    optQueueId: row.optQueueId,
    optUserId: row.optUserId,
    optIntegrationId: row.optIntegrationId,
    optFileId: row.optFileId,
    closeTicket: row.closeTicket,
    options: [],
  };
}

/** Every option of a queue, in menu order (order, then id). */
export async function queueOptionRows(queueId: number, trx?: Knex.Transaction): Promise<Chatbot[]> {
  return Chatbot.query(trx)
    .where({ queueId })
    .orderBy([{ column: 'orderOption' }, { column: 'id' }]);
}

/** The trees of options under `parentId` (null: the queue's root options), built from the queue's rows. */
export function buildTree(rows: Chatbot[], parentId: number | null): ChatbotNode[] {
  const children = new Map<number | null, Chatbot[]>();
  for (const row of rows) {
    const list = children.get(row.chatbotId) ?? [];
    list.push(row);
    children.set(row.chatbotId, list);
  }
  const build = (parent: number | null): ChatbotNode[] =>
    (children.get(parent) ?? []).map((row) => ({ ...nodeOf(row), options: build(row.id) }));
  return build(parentId);
}

/** The option with its nested options, or 404 ERR_NO_CHATBOT_FOUND (also for another company's). */
export async function loadOption(chatbotId: number): Promise<ChatbotNode> {
  const option = await Chatbot.query().findById(chatbotId);
  if (!option) throw new AppError('ERR_NO_CHATBOT_FOUND');
  const rows = await queueOptionRows(option.queueId);
  return { ...nodeOf(option), options: buildTree(rows, option.id) };
}

/**
 * Checks what options point at: a queue option names a queue of the company, an attendent option a user
 * of the company, a file option a file list of the company; an option with nested options has a message (it is what the contact reads before the
 * next menu).
 */
async function checkOptions(ctx: PluginContext, companyId: number, options: ChatbotInput[], trx: Knex.Transaction) {
  const queueIds = new Set<number>();
  const userIds = new Set<number>();
  const integrationIds: number[] = [];
  const fileListIds = new Set<number>();
  const walk = (list: ChatbotInput[]) => {
    for (const option of list) {
      if (option.queueType === 'queue') {
        if (!option.optQueueId) throw new AppError('ERR_CHATBOT_QUEUE_REQUIRED');
        queueIds.add(option.optQueueId);
      }
      if (option.queueType === 'file') {
        if (!option.optFileId) throw new AppError('ERR_FILE_LIST_REQUIRED');
        fileListIds.add(option.optFileId);
      }
      if (option.queueType === 'attendent') {
        if (!option.optUserId) throw new AppError('ERR_CHATBOT_USER_REQUIRED');
        userIds.add(option.optUserId);
      }
      if (option.queueType === 'integration' && option.optIntegrationId) integrationIds.push(option.optIntegrationId);
      if ((option.options?.length ?? 0) > 0 && option.greetingMessage.trim() === '') {
        throw new AppError('ERR_CHATBOT_MESSAGE_REQUIRED');
      }
      walk(option.options ?? []);
    }
  };
  walk(options);
  await requireCompanyIntegrations(trx, companyId, integrationIds);
  const { knex } = ctx.db;
  if (queueIds.size > 0) {
    const found = await knex('queues')
      .transacting(trx)
      .where({ companyId })
      .whereIn('id', [...queueIds])
      .pluck('id');
    if (found.length !== queueIds.size) throw new AppError('ERR_CHATBOT_QUEUE_REQUIRED');
  }
  if (userIds.size > 0) {
    const found = await knex('users')
      .transacting(trx)
      .where({ companyId })
      .whereIn('id', [...userIds])
      .pluck('id');
    if (found.length !== userIds.size) throw new AppError('ERR_CHATBOT_USER_REQUIRED');
  }
  for (const fileListId of fileListIds) await checkFileList(ctx, companyId, fileListId);
}

/**
 * Refuses a file list that is not the company's (ERR_FILE_LIST_REQUIRED), read through the `fileLists`
 * service: without the files module no list exists.
 */
export async function checkFileList(ctx: PluginContext, companyId: number, fileListId: number): Promise<void> {
  const found = ctx.services.has('fileLists') ? await ctx.services.use('fileLists').content(companyId, fileListId) : null;
  if (!found) throw new AppError('ERR_FILE_LIST_REQUIRED');
}

/** The stored columns of an option input (only the target its type uses is kept). */
function columnsOf(option: ChatbotInput, orderOption: number) {
  return {
    name: option.name,
    greetingMessage: option.greetingMessage,
    queueType: option.queueType,
    optQueueId: option.queueType === 'queue' ? (option.optQueueId ?? null) : null,
    optUserId: option.queueType === 'attendent' ? (option.optUserId ?? null) : null,
    optIntegrationId: option.queueType === 'integration' ? (option.optIntegrationId ?? null) : null,
    optFileId: option.queueType === 'file' ? (option.optFileId ?? null) : null,
    closeTicket: option.closeTicket === true,
    orderOption,
  };
}

/**
 * Makes the options under `parentId` of a queue exactly `options` (recursively): options with an `id`
 * from that subtree are updated (and may move to another level of it), the others created, and the
 * existing ones not named anywhere in the tree deleted. An `id` from outside the subtree is refused
 * (ERR_NO_CHATBOT_FOUND): options of other queues or companies never move, and no cycle can form.
 */
export async function replaceOptions(
  ctx: PluginContext,
  companyId: number,
  queueId: number,
  parentId: number | null,
  options: ChatbotInput[],
  trx: Knex.Transaction,
): Promise<void> {
  await checkOptions(ctx, companyId, options, trx);
  const rows = await queueOptionRows(queueId, trx);
  // the options below `parentId` now: those not named again are deleted
  const below = new Set<number>();
  const collect = (parent: number | null) => {
    for (const row of rows.filter((r) => r.chatbotId === parent)) {
      below.add(row.id);
      collect(row.id);
    }
  };
  collect(parentId);
  const named = new Set<number>();
  const save = async (list: ChatbotInput[], parent: number | null) => {
    for (const [index, option] of list.entries()) {
      let id: number;
      if (option.id !== undefined) {
        if (!below.has(option.id) || named.has(option.id)) throw new AppError('ERR_NO_CHATBOT_FOUND');
        named.add(option.id);
        await Chatbot.query(trx)
          .findById(option.id)
          .patch({ ...columnsOf(option, index), chatbotId: parent, updatedAt: new Date() });
        id = option.id;
      } else {
        const created = await Chatbot.query(trx).insert({ ...columnsOf(option, index), queueId, chatbotId: parent });
        id = created.id;
      }
      await save(option.options ?? [], id);
    }
  };
  // detach the subtree first, so that an option moving under one of its former descendants makes no cycle
  const levelIds = [...below];
  if (levelIds.length > 0) await Chatbot.query(trx).whereIn('id', levelIds).patch({ chatbotId: null });
  await save(options, parentId);
  const removed = levelIds.filter((id) => !named.has(id));
  if (removed.length > 0) await Chatbot.query(trx).whereIn('id', removed).delete();
}
