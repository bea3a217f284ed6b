import type { AdminArea } from '../index';
import { rotateTicketJob, rotationOnTicketUpdated } from './chatbot/rotation';
import { chatbotTurn } from './chatbot/turn';
import { queuesConfig } from './config';
import { queuesErrors } from './errors';
import { seedQueuesDemo, seedQueuesFixtures } from './seed';
import { createChatbotMenusService, createCompanyHoursService } from './services/provided';

/** Queues, their chatbot option trees and service hours, and the chatbot at work on inbound messages. */
export const queuesArea: AdminArea = {
  config: queuesConfig,
  errors: queuesErrors,
  jobs: {
    'rotate-ticket': { handler: rotateTicketJob, concurrency: 2 },
  },
  on: {
    // every channel's inbound messages reach the bot through the inbox's event bus
    'message.received': (payload, ctx) => chatbotTurn(ctx, payload),
    // a ticket returned or transferred to a queue with rotation on starts rotating
    'ticket.updated': (payload, ctx) => rotationOnTicketUpdated(ctx, payload),
  },
  seed: { demo: seedQueuesDemo, fixtures: seedQueuesFixtures },
  async register(_app, ctx) {
    ctx.services.provide('companyHours', createCompanyHoursService());
    ctx.services.provide('chatbotMenus', createChatbotMenusService(ctx));
  },
};
