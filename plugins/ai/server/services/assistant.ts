import { randomUUID } from 'node:crypto';
import { HANDOVER_MARKER } from '../../shared/voices';
import type { AiContext } from '../config';
import { Prompt } from '../models';
import { type ChatTurn, complete, failureReason, providerHttp, retryAfterSeconds } from './provider';
import { secretsKey, unseal } from './secrets';
import { azureSpeech } from './speech';
import { overCap, recordUsage } from './usage.service';

/**
 * The assistant at work (docs/ai.md): a customer message on a ticket waiting in a queue that has a prompt
 * (pending, no agent, not a group) is answered by the model in a durable job — never inside the inbox's
 * receive path — with the prompt as system text and the ticket's last `maxMessages` messages as context.
 * Its answer goes out through the inbox (the outbound driver registry) as the bot's message.
 *
 * It hands the ticket to the queue's people, and stays quiet on it from then on, when the model's answer
 * carries HANDOVER_MARKER, when the customer asks for a person, when the company spent its monthly
 * token cap, and when the provider fails (a log line says why); an agent accepting the ticket ends it too.
 * The customer's message is stored before any of this: a failure never loses it.
 */

export const ANSWER_JOB = 'assistant-answer';

/** What a customer writes to ask for a person (pt, en, es, tr), matched as whole words without case. */
const ASKS_FOR_PERSON =
  /\b(atendente|humano|pessoa|falar com algu[eé]m|human|person|agent|representative|operador|persona|insan|temsilci|yetkili)\b/iu;

export function asksForPerson(text: string): boolean {
  return ASKS_FOR_PERSON.test(text);
}

interface TicketRow {
  id: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  isGroup: boolean;
}

export async function enqueueAnswer(
  ctx: AiContext,
  ticketId: number,
  messageId: number,
  attempt = 0,
  delayMs = 0,
  busyRetries = 0,
) {
  // a turn that found the ticket busy is a new job: the running one still holds the plain id
  const busy = busyRetries > 0 ? `-b${busyRetries}` : '';
  await ctx.jobs.enqueue(
    ANSWER_JOB,
    { ticketId, messageId, attempt, busyRetries },
    { jobId: `ai-${ticketId}-${messageId}-${attempt}${busy}`, ...(delayMs > 0 ? { delayMs } : {}) },
  );
}

const waiting = (ticket: TicketRow | undefined): ticket is TicketRow =>
  !!ticket && ticket.status === 'pending' && ticket.userId === null && !ticket.isGroup && ticket.queueId !== null;

async function loadState(ctx: AiContext, companyId: number, ticketId: number) {
  return ctx.db.knex('aiTicketStates').where({ ticketId, companyId }).first('lastMessageId', 'handedOverAt');
}

async function saveState(
  ctx: AiContext,
  companyId: number,
  ticketId: number,
  patch: { promptId?: number; lastMessageId?: number; handedOverAt?: Date; handoverReason?: string },
) {
  await ctx.db
    .knex('aiTicketStates')
    .insert({ ticketId, companyId, ...patch, updatedAt: new Date() })
    .onConflict('ticketId')
    .merge();
}

/** The assistant stops on this ticket; the queue's people see it waiting as any other. */
export async function handOver(ctx: AiContext, companyId: number, ticketId: number, promptId: number | null, reason: string) {
  await saveState(ctx, companyId, ticketId, {
    ...(promptId === null ? {} : { promptId }),
    handedOverAt: new Date(),
    handoverReason: reason.slice(0, 60),
  });
  ctx.log.info({ ticketId, promptId, reason }, 'assistant handed the ticket to the queue');
}

/** How long a turn waits before looking at a busy ticket again (another turn holds its lease). */
const BUSY_RETRY_MS = 1_000;

/**
 * How long a turn's lease lasts: longer than a turn can take (the provider's call, the speech call, each up
 * to AI_HTTP_TIMEOUT_MS, and the sending), so it runs out only when its worker died mid-turn.
 */
const leaseMs = (ctx: AiContext) => 3 * ctx.config.AI_HTTP_TIMEOUT_MS + 30_000;

/** Takes the ticket's turn lease when it is free or ran out; false while another turn holds it. */
async function takeLease(ctx: AiContext, companyId: number, ticketId: number, holder: string): Promise<boolean> {
  const expiresAt = new Date(Date.now() + leaseMs(ctx));
  const taken = await ctx.db
    .knex('aiTurnLeases')
    .insert({ ticketId, companyId, holder, expiresAt })
    .onConflict('ticketId')
    .merge({ holder, expiresAt })
    .where('aiTurnLeases.expiresAt', '<', new Date())
    .returning('holder');
  return taken.length === 1;
}

async function releaseLease(ctx: AiContext, ticketId: number, holder: string) {
  await ctx.db.knex('aiTurnLeases').where({ ticketId, holder }).delete();
}

/**
 * The `assistant-answer` job: answers one customer message, one turn at a time per ticket. The turn is
 * guarded by a lease row, not a transaction: no connection stays checked out while the provider, the speech
 * service or the channel answer (up to AI_HTTP_TIMEOUT_MS each), so slow providers never drain the pool.
 * A turn that finds the ticket busy comes back a second later as a new durable job.
 */
export async function answer(
  ctx: AiContext,
  companyId: number,
  ticketId: number,
  messageId: number,
  attempt: number,
  busyRetries = 0,
) {
  const holder = randomUUID();
  if (!(await takeLease(ctx, companyId, ticketId, holder))) {
    await enqueueAnswer(ctx, ticketId, messageId, attempt, BUSY_RETRY_MS, busyRetries + 1);
    return;
  }
  try {
    await answerLocked(ctx, companyId, ticketId, messageId, attempt);
  } finally {
    await releaseLease(ctx, ticketId, holder);
  }
}

async function answerLocked(ctx: AiContext, companyId: number, ticketId: number, messageId: number, attempt: number) {
  const ticket: TicketRow | undefined = await ctx.db
    .knex('tickets')
    .where({ id: ticketId, companyId })
    .first('id', 'status', 'userId', 'queueId', 'isGroup');
  if (!waiting(ticket)) return;
  const state = await loadState(ctx, companyId, ticketId);
  if (state?.handedOverAt) return;
  if (state?.lastMessageId && Number(state.lastMessageId) >= messageId) return;
  const prompt = await Prompt.query().where({ queueId: ticket.queueId }).first();
  if (!prompt) return;

  const message = await ctx.db.knex('messages').where({ id: messageId, companyId, ticketId }).first('body', 'fromMe');
  if (!message || message.fromMe) return;
  if (asksForPerson(message.body)) return handOver(ctx, companyId, ticketId, prompt.id, 'customer asked for a person');
  if (await overCap(ctx, companyId)) return handOver(ctx, companyId, ticketId, prompt.id, 'monthly token cap reached');

  const apiKey = unseal(secretsKey(ctx), prompt.apiKeySealed);
  if (!apiKey) {
    ctx.log.warn({ ticketId, promptId: prompt.id }, "assistant can't read the prompt's API key; the ticket goes to the queue");
    return handOver(ctx, companyId, ticketId, prompt.id, 'unreadable api key');
  }
  const history = await conversation(ctx, companyId, ticketId, messageId, prompt.maxMessages);
  let reply: { text: string; tokensIn: number; tokensOut: number };
  try {
    reply = await complete(
      ctx,
      { baseUrl: prompt.baseUrl, apiKey },
      {
        model: prompt.model,
        messages: [{ role: 'system', content: systemText(prompt.prompt) }, ...history],
        temperature: Number(prompt.temperature),
        maxTokens: prompt.maxTokens,
      },
    );
  } catch (error) {
    const wait = retryAfterSeconds(error);
    if (wait !== null && wait <= ctx.config.AI_MAX_RETRY_AFTER_SECONDS && attempt < 2) {
      ctx.log.info(
        { ticketId, promptId: prompt.id, retryAfter: wait },
        'provider rate-limited the assistant; trying again later',
      );
      await enqueueAnswer(ctx, ticketId, messageId, attempt + 1, Math.max(wait, 1) * 1000);
      return;
    }
    const reason = failureReason(error);
    // the key is never logged: only the reason, the ticket and the prompt
    ctx.log.warn({ ticketId, promptId: prompt.id, reason }, 'AI provider failed; the ticket goes to the queue');
    await saveState(ctx, companyId, ticketId, { promptId: prompt.id, lastMessageId: messageId });
    return handOver(ctx, companyId, ticketId, prompt.id, `provider failed: ${reason}`);
  }
  await recordUsage(ctx, companyId, prompt.id, reply.tokensIn, reply.tokensOut);
  await saveState(ctx, companyId, ticketId, { promptId: prompt.id, lastMessageId: messageId });

  const handing = reply.text.includes(HANDOVER_MARKER);
  const text = reply.text.split(HANDOVER_MARKER).join('').trim();
  // an agent may have accepted the ticket while the model was thinking: then the answer is not sent
  const still: TicketRow | undefined = await ctx.db
    .knex('tickets')
    .where({ id: ticketId, companyId })
    .first('id', 'status', 'userId', 'queueId', 'isGroup');
  if (!waiting(still)) return;
  if (text !== '') await deliverAnswer(ctx, companyId, ticketId, messageId, prompt, text);
  if (handing) await handOver(ctx, companyId, ticketId, prompt.id, 'assistant handed over');
}

/**
 * Sends the answer: as text with the voice `texto`, else as a voice note of the prompt's voice (the text
 * itself when the speech service fails, with a log line: the customer is never left without the answer).
 */
async function deliverAnswer(
  ctx: AiContext,
  companyId: number,
  ticketId: number,
  messageId: number,
  prompt: Prompt,
  text: string,
) {
  const inbox = ctx.services.use('inbox');
  const voiceKey = prompt.voice !== 'texto' && prompt.voiceKeySealed ? unseal(secretsKey(ctx), prompt.voiceKeySealed) : null;
  if (voiceKey) {
    try {
      const speech = await azureSpeech(providerHttp(ctx), ctx.config.AI_SPEECH_URL).synthesize({
        text,
        voice: prompt.voice,
        key: voiceKey,
        region: prompt.voiceRegion,
      });
      const fileName = `ai-${messageId}.${speech.extension}`;
      const stored = await ctx.storage.put(companyId, `media/${ticketId}/${fileName}`, speech.bytes);
      await inbox.send({
        ticketId,
        body: '',
        automation: 'ai',
        media: { storageKey: stored.key, fileName, mimetype: speech.mimetype, mediaType: 'audio' },
      });
      return;
    } catch (error) {
      ctx.log.warn({ ticketId, promptId: prompt.id, reason: failureReason(error) }, 'speech failed; the answer goes as text');
    }
  }
  await inbox.send({ ticketId, body: text, automation: 'ai' });
}

/** The prompt, and how to hand over (the documented marker). */
export function systemText(prompt: string): string {
  return `${prompt}\n\nSe o cliente precisar de uma pessoa, ou se você não souber ajudar, responda com ${HANDOVER_MARKER} no fim da resposta.`;
}

/** The ticket's last `limit` messages up to the one answered, oldest first, as the model's turns. */
async function conversation(
  ctx: AiContext,
  companyId: number,
  ticketId: number,
  upTo: number,
  limit: number,
): Promise<ChatTurn[]> {
  const rows: Array<{ body: string; fromMe: boolean }> = await ctx.db
    .knex('messages')
    .where({ companyId, ticketId, isPrivate: false, isDeleted: false })
    .where('id', '<=', upTo)
    .whereNot('body', '')
    .orderBy('id', 'desc')
    .limit(limit)
    .select('body', 'fromMe');
  return rows.reverse().map((row) => ({ role: row.fromMe ? 'assistant' : 'user', content: row.body }));
}
