import { OutboundHttpError } from '@balcao/plugin-sdk/server';
import type { FlowbuilderContext } from '../config';
import { IntegrationSession, QueueIntegration } from '../models';
import { askDialogflow, parseServiceAccount } from './clients/dialogflow';
import { askTypebot } from './clients/typebot';
import { type IntegrationAnswer, IntegrationFailure, type IntegrationTurn, sanitizeAnswer } from './clients/types';
import { askWebhook } from './clients/webhook';
import { startIntegrationFlow } from './flow-runs.service';
import { integrationHttp } from './http';
import { secretsKey, unseal } from './secrets';

/**
 * A ticket's conversation with its integration (docs/product/automation.md "Queue integrations at work"):
 * while a ticket is `useIntegration` with an `integrationId`, waiting for people (pending, no agent), each
 * customer message goes to the integration in a job — never in the receive path — and its answer goes
 * back as the bot's messages. An integration that fails (unreachable, refused address, slow, a broken or
 * oversized answer, an error status) has the failure recorded on the ticket's session and the ticket handed
 * back to its queue, where people see it as any other waiting ticket.
 */

export const ANSWER_JOB = 'integration-answer';
export const SEND_JOB = 'integration-send';

interface TicketRow {
  id: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
  contactId: number;
  isGroup: boolean;
  useIntegration: boolean;
  integrationId: number | null;
}

/** Enqueues the answer to one customer message (idempotent per message while pending). */
export async function enqueueAnswer(
  ctx: FlowbuilderContext,
  ticketId: number,
  messageId: number | null,
  opening = false,
): Promise<void> {
  await ctx.jobs.enqueue(
    ANSWER_JOB,
    { ticketId, messageId, opening },
    { jobId: `answer-${ticketId}-${opening ? 'handoff-' : ''}${messageId ?? 'none'}` },
  );
}

/** Whether a message on this ticket goes to an integration now. */
export function inIntegration(
  ticket: Pick<TicketRow, 'status' | 'userId' | 'isGroup' | 'useIntegration' | 'integrationId'>,
): boolean {
  return (
    ticket.useIntegration &&
    ticket.integrationId !== null &&
    ticket.status === 'pending' &&
    ticket.userId === null &&
    !ticket.isGroup
  );
}

/** Asks one integration, whatever its type. */
export async function askIntegration(
  ctx: FlowbuilderContext,
  integration: QueueIntegration,
  turn: IntegrationTurn,
): Promise<IntegrationAnswer> {
  const http = integrationHttp(ctx);
  switch (integration.type) {
    case 'n8n':
    case 'webhook':
      return askWebhook({ http }, integration, turn);
    case 'typebot':
      return askTypebot({ http }, integration, turn);
    case 'dialogflow': {
      const plain = integration.jsonContentSealed ? unseal(secretsKey(ctx), integration.jsonContentSealed) : null;
      const account = plain ? parseServiceAccount(plain) : null;
      if (!account) throw new IntegrationFailure('no usable service account');
      return askDialogflow(
        { http, apiUrl: ctx.config.FLOWBUILDER_DIALOGFLOW_URL },
        { language: integration.language, account },
        turn,
      );
    }
    default:
      // a flow integration's tickets go to the flow runtime (`answerLocked`), never asked as a bot
      throw new IntegrationFailure('no flow runtime');
  }
}

/**
 * Why an integration failed, as recorded on the session (a code of at most 40 characters). Anything else
 * thrown while reading an answer comes of an answer we cannot use: 'invalid answer'.
 */
export function failureReason(error: unknown): string {
  if (error instanceof OutboundHttpError) return error.failure;
  if (error instanceof IntegrationFailure) return error.reason.slice(0, 40);
  return 'invalid answer';
}

async function recordSession(
  ctx: FlowbuilderContext,
  companyId: number,
  ticketId: number,
  integrationId: number,
  patch: Partial<Pick<IntegrationSession, 'sessionId' | 'lastMessageId' | 'lastError' | 'lastErrorAt'>>,
) {
  await ctx.db
    .knex('integrationSessions')
    .insert({ ticketId, companyId, integrationId, lastActivityAt: new Date(), ...patch })
    .onConflict('ticketId')
    .merge();
}

/** Hands the ticket back to its queue: the integration is off and people take it from there. */
async function handBack(ctx: FlowbuilderContext, ticketId: number): Promise<void> {
  await ctx.services
    .use('inbox')
    .applyTicketChange({ ticketId, useIntegration: false, expect: { status: 'pending', userId: null } });
}

/** Sends the answer's texts: the first now, the next ones `delayMs` apart as delayed jobs (durable). */
async function sendAll(ctx: FlowbuilderContext, ticketId: number, key: string, texts: string[], delayMs: number): Promise<void> {
  const inbox = ctx.services.use('inbox');
  for (const [index, text] of texts.entries()) {
    if (index === 0 || delayMs <= 0) {
      await inbox.send({ ticketId, body: text, automation: 'integration' });
      continue;
    }
    await ctx.jobs.enqueue(SEND_JOB, { ticketId, body: text }, { delayMs: delayMs * index, jobId: `send-${key}-${index}` });
  }
}

/** The delayed part of an answer: sent unless an agent took the ticket or the integration was turned off meanwhile. */
export async function sendLater(ctx: FlowbuilderContext, companyId: number, ticketId: number, body: string): Promise<void> {
  const ticket = await loadTicket(ctx, companyId, ticketId);
  if (!ticket || !inIntegration(ticket)) return;
  await ctx.services.use('inbox').send({ ticketId, body, automation: 'integration' });
}

async function loadTicket(ctx: FlowbuilderContext, companyId: number, ticketId: number): Promise<TicketRow | undefined> {
  return ctx.db
    .knex('tickets')
    .where({ id: ticketId, companyId })
    .first('id', 'status', 'userId', 'queueId', 'whatsappId', 'contactId', 'isGroup', 'useIntegration', 'integrationId');
}

const same = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/** Advisory-lock space of a ticket's integration turns (any constant of our own). */
const TURN_LOCK_SPACE = 0x696e7467; // "intg"

/**
 * Answers one customer message (or, with `opening`, opens the conversation at the hand-off that followed
 * `messageId`) — the `integration-answer` job. Runs once per message: the session remembers the last one answered.
 * A ticket's turns run one at a time (the answer jobs run several at once): a per-ticket advisory lock is
 * held until the turn's own writes, made on other connections, are committed, so the next turn reads them.
 */
export async function answer(
  ctx: FlowbuilderContext,
  companyId: number,
  ticketId: number,
  messageId: number | null,
  opening = false,
): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?, ?)', [TURN_LOCK_SPACE, ticketId]);
    await answerLocked(ctx, companyId, ticketId, messageId, opening);
  });
}

async function answerLocked(
  ctx: FlowbuilderContext,
  companyId: number,
  ticketId: number,
  messageId: number | null,
  opening: boolean,
): Promise<void> {
  const ticket = await loadTicket(ctx, companyId, ticketId);
  if (!ticket || !inIntegration(ticket)) return;
  const integration = await QueueIntegration.query().findById(ticket.integrationId as number);
  if (!integration) {
    await handBack(ctx, ticketId);
    return;
  }
  if (integration.type === 'flowbuilder') {
    // the flow runtime has the ticket from here on; an integration without a flow it can start hands it back
    if (!(await startIntegrationFlow(ctx, companyId, ticketId, integration.flowId, messageId))) await handBack(ctx, ticketId);
    return;
  }
  let session = await IntegrationSession.query().findById(ticketId);
  if (session && session.integrationId !== integration.id) session = undefined;
  if (!opening && session && messageId !== null && session.lastMessageId !== null && Number(session.lastMessageId) >= messageId)
    return;

  if (opening) {
    // a new hand-off starts a new conversation; the message that led to it was the chatbot's to answer
    session = undefined;
    // only Typebot speaks first (its greeting); the others answer the customer's next message
    if (integration.type !== 'typebot') {
      await recordSession(ctx, companyId, ticketId, integration.id, {
        sessionId: null,
        lastMessageId: messageId,
        lastError: null,
      });
      return;
    }
    await converse(ctx, companyId, ticket, integration, { body: '', messageId, sessionId: null });
    return;
  }
  if (messageId === null) return;
  const message = await ctx.db.knex('messages').where({ id: messageId, companyId, ticketId }).first('body', 'fromMe');
  if (!message || message.fromMe) return;
  const body: string = message.body;

  let sessionId = session?.sessionId ?? null;
  if (integration.type === 'typebot') {
    if (integration.typebotKeywordFinish !== '' && same(body, integration.typebotKeywordFinish)) {
      await IntegrationSession.query().deleteById(ticketId);
      await handBack(ctx, ticketId);
      return;
    }
    if (integration.typebotKeywordRestart !== '' && same(body, integration.typebotKeywordRestart)) {
      await recordSession(ctx, companyId, ticketId, integration.id, {
        sessionId: null,
        lastMessageId: messageId,
        lastError: null,
      });
      if (integration.typebotRestartMessage.trim() !== '') {
        await ctx.services.use('inbox').send({ ticketId, body: integration.typebotRestartMessage, automation: 'integration' });
      }
      return;
    }
    // a conversation quiet for longer than typebotExpires minutes starts over (0: never)
    const expiresMs = integration.typebotExpires * 60_000;
    if (session && expiresMs > 0 && Date.now() - new Date(session.lastActivityAt).getTime() > expiresMs) sessionId = null;
  }

  await converse(ctx, companyId, ticket, integration, { body, messageId, sessionId });
}

/**
 * Asks the integration and delivers its answer; a failure hands the ticket back to its queue. `messageId`:
 * the customer message answered (the session's `lastMessageId` from now on).
 */
async function converse(
  ctx: FlowbuilderContext,
  companyId: number,
  ticket: TicketRow,
  integration: QueueIntegration,
  said: { body: string; messageId: number | null; sessionId: string | null },
): Promise<void> {
  const { body, messageId, sessionId } = said;
  const ticketId = ticket.id;
  const contact = await ctx.db.knex('contacts').where({ id: ticket.contactId, companyId }).first('id', 'name', 'number');
  const turn: IntegrationTurn = {
    body,
    messageId,
    ticket: { id: ticket.id, status: ticket.status, queueId: ticket.queueId, whatsappId: ticket.whatsappId },
    contact: { id: ticket.contactId, name: contact?.name ?? '', number: contact?.number ?? '' },
    sessionId,
  };
  let reply: IntegrationAnswer;
  try {
    reply = sanitizeAnswer(await askIntegration(ctx, integration, turn));
  } catch (error) {
    const reason = failureReason(error);
    ctx.log.warn(
      { ticketId, integrationId: integration.id, reason, err: error },
      'integration failed; the ticket goes back to its queue',
    );
    await recordSession(ctx, companyId, ticketId, integration.id, {
      lastMessageId: messageId,
      lastError: reason,
      lastErrorAt: new Date(),
    });
    await handBack(ctx, ticketId);
    return;
  }
  await recordSession(ctx, companyId, ticketId, integration.id, {
    sessionId: reply.sessionId,
    lastMessageId: messageId,
    lastError: null,
  });
  let texts = reply.messages;
  if (texts.length === 0 && integration.type === 'typebot' && integration.typebotUnknownMessage.trim() !== '') {
    texts = [integration.typebotUnknownMessage];
  }
  const delayMs = integration.type === 'typebot' ? integration.typebotDelayMessage : 0;
  await sendAll(ctx, ticketId, `${ticketId}-${messageId ?? 'handoff'}`, texts, delayMs);
}
