import { type BalcaoEvents, defaultCustomerTexts, type PluginContext } from '@balcao/plugin-sdk/server';
import { AUTOMATION, DEFAULT_RATING_EXPIRY_MINUTES } from './timers';

/**
 * The rating (NPS 0–10) of a resolved ticket (docs/channels/lifecycle.md "Rating"). The inbox puts
 * the ticket in `nps` instead of closing it (company userRating on, the connection's ratingMessage set, no
 * rating yet); this area asks the question, reads the contact's answers and closes the ticket.
 */

/** Appended to the connection's ratingMessage: how to answer (the channel has no buttons for it). */
export const RATING_INSTRUCTION = 'Responda com uma nota de 0 a 10.';
/** Sent after an answer that is not a number from 0 to 10, while attempts remain. */
export const RATING_INVALID = 'Resposta inválida. Por favor, responda apenas com uma nota de 0 a 10.';

/** The rate in an answer: a whole number from 0 to 10, alone (a trailing dot or exclamation allowed). */
export function parseRating(body: string): number | null {
  const match = /^\s*(\d{1,2})\s*[.!]?\s*$/.exec(body);
  if (!match) return null;
  const rate = Number(match[1]);
  return rate >= 0 && rate <= 10 ? rate : null;
}

/** The ticket's state as the rating flow reads it. */
interface RatingTicket {
  id: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
  amountUsedBotQueues: number;
}

async function loadTicket(ctx: PluginContext, companyId: number, ticketId: number): Promise<RatingTicket | undefined> {
  return ctx.db
    .knex('tickets')
    .where({ companyId, id: ticketId })
    .first('id', 'status', 'userId', 'queueId', 'whatsappId', 'amountUsedBotQueues');
}

async function connectionOf(ctx: PluginContext, companyId: number, connectionId: number | null) {
  if (connectionId === null) return null;
  return ctx.services.use('connections').profile(companyId, connectionId);
}

/**
 * The connection's rating limits (maxUseBotQueuesNPS, expiresTicketNPS). Read from its row, not from the
 * profile: the profile looks them up as `maxUseBotQueuesNPS`/`expiresTicketNPS`, but the snake-case mapping
 * answers `maxUseBotQueuesNps`/`expiresTicketNps`, so the profile has them at 0 (to fix in profile/index.ts,
 * then use the profile here). Only the rating flow reads them: a query on that path only.
 */
export async function ratingLimits(
  ctx: PluginContext,
  companyId: number,
  connectionId: number | null,
): Promise<{ maxUseBotQueuesNPS: number; expiresTicketNPS: number }> {
  if (connectionId === null) return { maxUseBotQueuesNPS: 0, expiresTicketNPS: DEFAULT_RATING_EXPIRY_MINUTES };
  const row = (await ctx.db
    .knex('whatsapps')
    .where({ companyId, id: connectionId })
    .first('maxUseBotQueuesNPS', 'expiresTicketNPS')) as Record<string, unknown> | undefined;
  const read = (camel: string) => Number(row?.[camel] ?? row?.[camel.replace(/NPS$/, 'Nps')] ?? 0) || 0;
  return {
    maxUseBotQueuesNPS: read('maxUseBotQueuesNPS'),
    expiresTicketNPS: read('expiresTicketNPS') || DEFAULT_RATING_EXPIRY_MINUTES,
  };
}

/** The ticket went to `nps` (`ticket.updated`): the connection's ratingMessage (or the default) and how to answer. */
export async function askForRating(ctx: PluginContext, companyId: number, ticketId: number): Promise<void> {
  const ticket = await loadTicket(ctx, companyId, ticketId);
  if (ticket?.status !== 'nps') return;
  const connection = await connectionOf(ctx, companyId, ticket.whatsappId);
  // a connection without its own question asks the product's default one
  const question = connection?.ratingMessage.trim() || defaultCustomerTexts().rating;
  const body = `${question}\n\n${RATING_INSTRUCTION}`;
  await ctx.services.use('inbox').send({
    ticketId,
    body,
    automation: AUTOMATION.rating,
    variables: { connection: connection ? { name: connection.name } : null },
  });
}

/**
 * Closes a ticket of the rating flow (from `nps` only: an agent who took it meanwhile keeps it), logged
 * `closed` by the system, then sends the farewell: the agent's own farewellMessage, else the connection's
 * complationMessage, else the product's default.
 */
async function closeRated(ctx: PluginContext, companyId: number, ticket: RatingTicket, rated: boolean): Promise<boolean> {
  const inbox = ctx.services.use('inbox');
  const closed = await inbox.applyTicketChange({
    ticketId: ticket.id,
    status: 'closed',
    amountUsedBotQueues: 0,
    logs: [
      ...(rated ? [{ type: 'rated', userId: null, queueId: ticket.queueId }] : []),
      { type: 'closed', userId: null, queueId: ticket.queueId },
    ],
    expect: { status: 'nps' },
  });
  if (!closed) return false;
  const agent =
    ticket.userId === null
      ? undefined
      : ((await ctx.db.knex('users').where({ companyId, id: ticket.userId }).first('farewellMessage')) as
          | { farewellMessage: string | null }
          | undefined);
  const connection = await connectionOf(ctx, companyId, ticket.whatsappId);
  // closing always tells the contact something: the product's farewell when nobody wrote one
  const farewell = agent?.farewellMessage?.trim() || connection?.complationMessage.trim() || defaultCustomerTexts().farewell;
  await inbox.send({
    ticketId: ticket.id,
    body: farewell,
    automation: AUTOMATION.farewell,
    variables: { connection: connection ? { name: connection.name } : null },
  });
  return true;
}

/**
 * The contact wrote on a ticket waiting for its rating (`message.received`, status `nps`): a rate 0–10 is
 * stored for the ticket's agent (`ticketRatings`: what the ticket's userRating and the dashboard read) and
 * the ticket closes with the farewell; anything else asks again, up to the connection's
 * maxUseBotQueuesNPS times (counted in the ticket's amountUsedBotQueues, unused while in `nps`), and then
 * closes without a rating.
 */
export async function onRatingAnswer(ctx: PluginContext, event: BalcaoEvents['message.received']): Promise<void> {
  const { companyId, ticketId } = event;
  const ticket = await loadTicket(ctx, companyId, ticketId);
  if (ticket?.status !== 'nps') return;
  const rate = parseRating(event.body);
  if (rate !== null) {
    const stored = await ctx.db
      .knex('ticketRatings')
      .insert({ companyId, ticketId, userId: ticket.userId, rate })
      .onConflict(['ticketId'])
      .ignore()
      .returning('id');
    // rated already (two answers at once): the first one closes the ticket
    if (stored.length === 0) return;
    ctx.log.info({ companyId, ticketId, rate }, 'ticket rated');
    await closeRated(ctx, companyId, ticket, true);
    return;
  }
  const { maxUseBotQueuesNPS } = await ratingLimits(ctx, companyId, ticket.whatsappId);
  if (ticket.amountUsedBotQueues >= maxUseBotQueuesNPS) {
    ctx.log.info({ companyId, ticketId, attempts: ticket.amountUsedBotQueues }, 'rating not given: closed after invalid answers');
    await closeRated(ctx, companyId, ticket, false);
    return;
  }
  const inbox = ctx.services.use('inbox');
  const counted = await inbox.applyTicketChange({
    ticketId,
    amountUsedBotQueues: ticket.amountUsedBotQueues + 1,
    expect: { status: 'nps' },
  });
  if (counted) await inbox.send({ ticketId, body: RATING_INVALID, automation: AUTOMATION.rating });
}
