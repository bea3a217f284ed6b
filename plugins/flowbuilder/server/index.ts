import { definePlugin } from '@balcao/plugin-sdk/server';
import { type FlowbuilderContext, flowbuilderConfig } from './config';
import { flowbuilderErrors } from './errors';
import { seedFlowbuilderDemo } from './seed/demo';
import { seedFlowbuilderFixtures } from './seed/fixtures';
import {
  FLOW_DUE_JOB,
  FLOW_STEP_CONCURRENCY,
  FLOW_STEP_JOB,
  FLOW_SWEEP_JOB,
  flowDue,
  flowStartsFor,
  flowStep,
  onMessageReceived,
  onTicketUpdated,
  type StepInput,
  sweepStaleRuns,
} from './services/flow-runs.service';
import { closeIntegrationHttp } from './services/http';
import { ANSWER_JOB, answer, enqueueAnswer, inIntegration, SEND_JOB, sendLater } from './services/runner';
import { secretsKey } from './services/secrets';

/**
 * The flow builder, first part (docs/product/automation.md): queue integrations — DialogFlow, n8n,
 * webhooks, Typebot — that answer tickets handed to them, through the SDK's guarded outbound client, and
 * phrase campaigns. Gated by useIntegrations.
 */
export default definePlugin({
  id: 'flowbuilder',
  config: flowbuilderConfig,
  errors: flowbuilderErrors,
  permissions: { 'integrations:manage': ['admin'] },
  jobs: {
    [ANSWER_JOB]: {
      handler: async (data, ctx, job) =>
        job.companyId === null
          ? false
          : answer(
              ctx,
              job.companyId,
              Number(data.ticketId),
              data.messageId === null ? null : Number(data.messageId),
              data.opening === true,
            ),
      concurrency: 4,
    },
    [FLOW_STEP_JOB]: {
      handler: async (data, ctx, job) => {
        if (job.companyId === null) return false;
        const input: StepInput =
          data.kind === 'message'
            ? {
                kind: 'message',
                messageId: Number(data.messageId),
                ticketCreated: data.ticketCreated === true,
                ...(typeof data.body === 'string' ? { body: data.body } : {}),
              }
            : data.kind === 'interval'
              ? { kind: 'interval', step: Number(data.step) }
              : { kind: 'resume' };
        await flowStep(ctx as FlowbuilderContext, job.companyId, Number(data.ticketId), input);
        return true;
      },
      concurrency: FLOW_STEP_CONCURRENCY,
    },
    // the company's due intervals, in batches (one job a quarter second of due times; one at a time a process)
    [FLOW_DUE_JOB]: {
      handler: async (_data, ctx, job) => (job.companyId === null ? false : flowDue(ctx as FlowbuilderContext, job.companyId)),
      concurrency: 1,
    },
    [FLOW_SWEEP_JOB]: { handler: async (_data, ctx) => sweepStaleRuns(ctx as FlowbuilderContext) },
    [SEND_JOB]: {
      handler: async (data, ctx, job) =>
        job.companyId === null ? false : sendLater(ctx, job.companyId, Number(data.ticketId), String(data.body)),
    },
  },
  schedules: [{ name: 'flow-sweep', everyMs: 30_000, job: FLOW_SWEEP_JOB }],
  on: {
    // a message on a ticket handed to an integration goes to it, in a job: the receive path only enqueues;
    // the same for a ticket in a flow, or on a connection whose flows a message may start
    'message.received': async (payload, ctx) => {
      await onMessageReceived(ctx as FlowbuilderContext, payload);
      if (payload.fromMe || payload.ticket.isGroup || payload.ticket.status !== 'pending' || payload.ticket.userId !== null)
        return;
      const ticket = await ctx.db
        .knex('tickets')
        .where({ id: payload.ticketId, companyId: payload.companyId })
        .first('status', 'userId', 'isGroup', 'useIntegration', 'integrationId');
      if (ticket && inIntegration(ticket)) await enqueueAnswer(ctx, payload.ticketId, payload.messageId);
    },
    // an agent accepting the ticket (or closing it) stops its flow
    'ticket.updated': (payload, ctx) => onTicketUpdated(ctx as FlowbuilderContext, payload),
    // the chatbot handed a ticket over: the integration opens the conversation
    'ticket.integrationStarted': (payload, ctx) => enqueueAnswer(ctx, payload.ticketId, payload.messageId, true),
  },
  seed: { demo: seedFlowbuilderDemo, fixtures: seedFlowbuilderFixtures },
  register(_app, ctx) {
    // the chatbot asks whether a flow takes a message before it speaks
    ctx.services.provide('flows', { startsFor: (query) => flowStartsFor(ctx as FlowbuilderContext, query) });
    // refuses to start in production without the key that seals the integrations' secrets
    secretsKey(ctx as FlowbuilderContext);
  },
  async close(ctx) {
    await closeIntegrationHttp(ctx as FlowbuilderContext);
  },
});
