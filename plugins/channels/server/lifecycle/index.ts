import type { BalcaoEvents, ConnectionProfile, PluginContext } from '@balcao/plugin-sdk/server';
import type { ChannelsArea } from '../index';
import { askForRating, onRatingAnswer, ratingLimits } from './rating';
import { AUTOMATION, armTimer, fireTimer, sweepTimers, TIMER_KINDS, type TimerKind } from './timers';

/**
 * The lifecycle area: how every channel's conversations go on and end (docs/channels/lifecycle.md)
 * — rating, inactivity reminder, expiry, redirect — through the inbox's bus and service. The farewell on
 * close and the reopen window live in the inbox (they are part of its transitions and of `receive`) and
 * read the connection through the `connections` service.
 */

/** Statuses whose conversation timers run (lgpd waits for consent, closed and group have none). */
const TIMED_STATUSES = new Set(['open', 'pending']);

function profileOf(ctx: PluginContext, companyId: number, connectionId: number | null): Promise<ConnectionProfile | null> {
  if (connectionId === null) return Promise.resolve(null);
  return ctx.services.use('connections').profile(companyId, connectionId);
}

/**
 * A message on a ticket (either side): arms the timers it starts. Cheap for a connection without timers:
 * its profile is cached. `fromCompany`: an agent's, the product's, or sent from the phone.
 */
async function armAfterMessage(
  ctx: PluginContext,
  message: {
    companyId: number;
    ticketId: number;
    messageId: number;
    whatsappId: number | null;
    fromCompany: boolean;
    automation: string | null;
    ticket: { status: string; isGroup: boolean };
  },
): Promise<void> {
  const { status, isGroup } = message.ticket;
  if (isGroup || (status !== 'nps' && !TIMED_STATUSES.has(status))) return;
  const profile = await profileOf(ctx, message.companyId, message.whatsappId);
  if (!profile) return;
  const arm = (kind: TimerKind, minutes: number) =>
    armTimer(ctx, message.companyId, message.ticketId, kind, minutes, message.messageId);
  if (status === 'nps') {
    await arm('rating', (await ratingLimits(ctx, message.companyId, message.whatsappId)).expiresTicketNPS);
    return;
  }
  if (message.fromCompany && message.automation !== AUTOMATION.inactivity) {
    if (profile.inactiveMessage.trim()) await arm('inactivity', profile.timeInactiveMessage);
    if (profile.whenExpiresTicket === 0) await arm('expiry', profile.expiresTicket);
  }
  if (!message.fromCompany && profile.whenExpiresTicket === 1) await arm('expiry', profile.expiresTicket);
}

/**
 * A ticket was created or changed (its event carries status, connection and kind: no query): the timers
 * that start with its state — redirect for a pending one, expiry "always" for a new one.
 */
async function armAfterChange(
  ctx: PluginContext,
  event: { companyId: number; ticketId: number; status: string; whatsappId: number | null; isGroup: boolean },
  created: boolean,
): Promise<void> {
  if (event.isGroup || !TIMED_STATUSES.has(event.status)) return;
  const profile = await profileOf(ctx, event.companyId, event.whatsappId);
  if (!profile) return;
  const anchor = `at${Date.now()}`;
  if (event.status === 'pending' && profile.sendIdQueue !== null) {
    await armTimer(ctx, event.companyId, event.ticketId, 'redirect', profile.timeSendQueue, anchor);
  }
  // "always": counted from the ticket's start until the contact writes (each message of theirs re-arms it)
  if (created && profile.whenExpiresTicket === 1) {
    await armTimer(ctx, event.companyId, event.ticketId, 'expiry', profile.expiresTicket, anchor);
  }
}

const isTimerKind = (value: unknown): value is TimerKind => TIMER_KINDS.includes(value as TimerKind);

export const lifecycleArea: ChannelsArea = {
  jobs: {
    // one conversation timer (timers.ts): re-reads the ticket and acts only if still due
    'lifecycle-timer': {
      handler: async (data, ctx, job) =>
        job.companyId === null || !isTimerKind(data.kind) || !Number.isInteger(data.ticketId)
          ? false
          : fireTimer(ctx, job.companyId, data.ticketId as number, data.kind),
      concurrency: 2,
    },
    'lifecycle-sweep': { handler: async (_data, ctx) => sweepTimers(ctx) },
  },
  schedules: [{ name: 'lifecycle-sweep', everyMs: 60_000, job: 'lifecycle-sweep' }],
  on: {
    'message.received': async (event: BalcaoEvents['message.received'], ctx) => {
      if (event.ticket.status === 'nps' && !event.fromMe) {
        await onRatingAnswer(ctx, event);
        return;
      }
      await armAfterMessage(ctx, {
        companyId: event.companyId,
        ticketId: event.ticketId,
        messageId: event.messageId,
        whatsappId: event.whatsappId,
        fromCompany: event.fromMe,
        automation: null,
        ticket: event.ticket,
      });
    },
    'message.sent': (event, ctx) => armAfterMessage(ctx, { ...event, fromCompany: true }),
    'ticket.created': (event, ctx) => armAfterChange(ctx, event, true),
    'ticket.updated': async (event, ctx) => {
      if (event.status === 'nps' && event.previousStatus !== 'nps') await askForRating(ctx, event.companyId, event.ticketId);
      else if (event.status === 'pending') await armAfterChange(ctx, event, false);
    },
  },
};
