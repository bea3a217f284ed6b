import { definePlugin } from '@balcao/plugin-sdk/server';
import { type AiContext, aiConfig } from './config';
import { aiErrors } from './errors';
import { seedAiDemo } from './seed/demo';
import { seedAiFixtures } from './seed/fixtures';
import { ANSWER_JOB, answer, enqueueAnswer, handOver } from './services/assistant';
import { createAiCompletionService } from './services/completion';
import { startDemoStandIn, stopDemoStandIn } from './services/demo';
import { promptQueues } from './services/prompt-queues';
import { closeProviderHttp } from './services/provider';
import { secretsKey } from './services/secrets';

/**
 * AI prompts (docs/ai.md): an assistant per queue that answers its waiting customers through any
 * OpenAI-compatible provider, audio transcription for the ticket view, and the tokens it costs. Gated by
 * useOpenAi.
 */
export default definePlugin({
  id: 'ai',
  config: aiConfig,
  errors: aiErrors,
  jobs: {
    [ANSWER_JOB]: {
      handler: async (data, ctx, job) =>
        job.companyId === null
          ? false
          : answer(
              ctx,
              job.companyId,
              Number(data.ticketId),
              Number(data.messageId),
              Number(data.attempt ?? 0),
              Number(data.busyRetries ?? 0),
            ),
      // a turn holds no connection while it waits on the network (a lease row guards it), so 4 turns at a
      // time take at most 4 of the pool's connections, and only for their short queries
      concurrency: 4,
    },
  },
  on: {
    // the receive path only enqueues, and only for a queue with a prompt (an in-memory lookup otherwise)
    'message.received': async (payload, ctx) => {
      const { ticket } = payload;
      if (payload.fromMe || ticket.isGroup || ticket.status !== 'pending' || ticket.userId !== null || ticket.queueId === null)
        return;
      const queues = await promptQueues(ctx, payload.companyId);
      if (queues.has(ticket.queueId)) await enqueueAnswer(ctx, payload.ticketId, payload.messageId);
    },
    // an agent accepted the ticket: the assistant is done with it, even if it comes back to the queue
    'ticket.updated': async (payload, ctx) => {
      if (payload.userId === null || payload.queueId === null || payload.isGroup) return;
      const queues = await promptQueues(ctx, payload.companyId);
      if (!queues.has(payload.queueId)) return;
      const state = await ctx.db
        .knex('aiTicketStates')
        .where({ ticketId: payload.ticketId, companyId: payload.companyId })
        .first('handedOverAt');
      if (state && !state.handedOverAt) await handOver(ctx, payload.companyId, payload.ticketId, null, 'agent accepted');
    },
  },
  seed: { demo: seedAiDemo, fixtures: seedAiFixtures },
  async register(_app, ctx) {
    // refuses to start in production without the key that seals the prompts' API keys
    secretsKey(ctx as AiContext);
    // another feature (the flow builder's model node) asks a prompt for an answer through it
    ctx.services.provide('ai', createAiCompletionService(ctx as AiContext));
    await startDemoStandIn(ctx as AiContext);
  },
  async close(ctx) {
    await closeProviderHttp(ctx as AiContext);
    await stopDemoStandIn(ctx as AiContext);
  },
});
