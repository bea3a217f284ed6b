import { currentTenant, type InboxService, type PluginContext } from '@balcao/plugin-sdk/server';
import { MEDIA_TYPES, type MediaType } from '../shared/types';
import { recordLgpdConsent } from './directory/contact.service';
import { registerDriver } from './messages/driver-registry';
import { sendTextMessage } from './messages/message-send.service';
import { checkNumbers, deliverNow, stageOutbound } from './messages/outbound.service';
import {
  applyDelete,
  applyEdit,
  applyReaction,
  linkIdentities,
  reportDeliveryFailure,
  updateAck,
} from './receive/channel-updates.service';
import { receiveInbound } from './receive/receive.service';
import { applyTicketChange, ticketAudience, userCanSeeTicket } from './tickets/ticket-change.service';
import { fillTicketVariables } from './tickets/variables';
import { viewerOf, whereCanSeeTicket } from './tickets/visibility';

/**
 * The inbox service other features and channel drivers use (`ctx.services.use('inbox')`): a facade over
 * the areas — the channel contract's receive path and driver reports (`receive/`), outbound delivery
 * and drivers (`messages/`), ticket changes and visibility (`tickets/`), LGPD consent (`directory/`).
 */
export function createInboxService(ctx: PluginContext): InboxService {
  return {
    receive: (input) => receiveInbound(ctx, input),
    updateAck: (input) => updateAck(ctx, input),
    linkIdentities: (input) => linkIdentities(ctx, input),
    reportDeliveryFailure: (input) => reportDeliveryFailure(ctx, input),
    applyEdit: (input) => applyEdit(ctx, input),
    applyDelete: (input) => applyDelete(ctx, input),
    applyReaction: (input) => applyReaction(ctx, input),

    async send(input) {
      const companyId = currentTenant()?.companyId;
      if (companyId === undefined) throw new Error('inbox send: no tenant scope');
      const message = await sendTextMessage(ctx, {
        companyId,
        ticketId: input.ticketId,
        body: input.variables
          ? await fillTicketVariables(ctx, companyId, input.ticketId, input.body, { connection: input.variables.connection })
          : input.body,
        userId: input.userId ?? null,
        automation: input.automation ?? null,
        media: input.media ? { ...input.media, mediaType: mediaTypeOf(input.media.mediaType) } : null,
      });
      return { messageId: message.id };
    },

    registerDriver: (channel, driver) => registerDriver(ctx, channel, driver),
    stageOutbound: (items, options) => stageOutbound(ctx, items, options),
    deliver: (messageIds) => deliverNow(ctx, messageIds),
    checkNumbers: (input) => checkNumbers(ctx, input),

    canSeeTicket: (user, ticketId) => userCanSeeTicket(ctx, user, ticketId),
    whereCanSeeTicket: (query, user, alias) => whereCanSeeTicket(query, viewerOf(user), alias),
    ticketAudience: (companyId, ticketId) => ticketAudience(ctx, companyId, ticketId),
    applyTicketChange: (change) => applyTicketChange(ctx, change),
    recordLgpdConsent: (contactId, at = new Date()) => recordLgpdConsent(ctx, contactId, at),
  };
}

/** A feature's media type as the inbox stores it: an unknown one is a plain document (`application`). */
function mediaTypeOf(type: string): MediaType {
  return (MEDIA_TYPES as readonly string[]).includes(type) ? (type as MediaType) : 'application';
}
