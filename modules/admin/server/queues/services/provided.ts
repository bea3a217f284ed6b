import { type ChatbotMenusService, type CompanyHoursService, type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import { Chatbot } from '../models';
import { companyHours } from './company-hours.service';

/** The `companyHours` service: the company's week as the bot and the schedules' business days read it. */
export function createCompanyHoursService(): CompanyHoursService {
  return {
    serviceHours: (companyId) => runInTenant({ companyId }, async () => (await companyHours()).schedules),
  };
}

/** The `chatbotMenus` service: options other features add to a queue's menu (the files module's demo). */
export function createChatbotMenusService(ctx: PluginContext): ChatbotMenusService {
  return {
    offerFileList: (companyId, option) =>
      runInTenant({ companyId }, async () => {
        const queue = (await ctx.db.knex('queues').where({ companyId, name: option.queueName }).first('id')) as
          | { id: number }
          | undefined;
        if (!queue) return false;
        if (await Chatbot.query().where({ queueId: queue.id, queueType: 'file' }).first()) return true;
        const last = (await Chatbot.query()
          .where({ queueId: queue.id })
          .whereNull('chatbotId')
          .max('orderOption as order')
          .first()) as unknown as { order: number | null } | undefined;
        await Chatbot.query().insert({
          queueId: queue.id,
          chatbotId: null,
          name: option.optionName,
          greetingMessage: '',
          queueType: 'file',
          optFileId: option.fileListId,
          closeTicket: false,
          orderOption: (last?.order ?? -1) + 1,
        });
        return true;
      }),
  };
}
