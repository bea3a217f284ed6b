import type { BalcaoEvents, PluginDefinition } from '@balcao/plugin-sdk/server';
import { outboxOf } from './outbox';

/**
 * The bus's events as webhook events (docs/api.md "Event payloads"): each handler turns the payload it is
 * given into the delivery's `data`, reading nothing, and writes it to the outbox — one batched statement.
 * A ticket updated to closed from another status is also `ticket.closed`.
 */
type Handlers = NonNullable<PluginDefinition['on']>;

export function webhookHandlers(): Handlers {
  const write = (ctx: Parameters<typeof outboxOf>[0], companyId: number, event: string, data: Record<string, unknown>) =>
    outboxOf(ctx).write({ companyId, event, data, occurredAt: new Date() });
  return {
    'message.received': async (payload: BalcaoEvents['message.received'], ctx) => {
      await write(ctx, payload.companyId, 'message.received', {
        messageId: payload.messageId,
        ticketId: payload.ticketId,
        contactId: payload.contactId,
        whatsappId: payload.whatsappId,
        fromMe: payload.fromMe,
        body: payload.body,
        ticketCreated: payload.ticketCreated,
      });
    },
    'message.sent': async (payload: BalcaoEvents['message.sent'], ctx) => {
      await write(ctx, payload.companyId, 'message.sent', {
        messageId: payload.messageId,
        ticketId: payload.ticketId,
        whatsappId: payload.whatsappId,
        userId: payload.userId,
        automation: payload.automation,
      });
    },
    'ticket.created': async (payload: BalcaoEvents['ticket.created'], ctx) => {
      await write(ctx, payload.companyId, 'ticket.created', {
        ticketId: payload.ticketId,
        status: payload.status,
        whatsappId: payload.whatsappId,
        isGroup: payload.isGroup,
      });
    },
    'ticket.updated': async (payload: BalcaoEvents['ticket.updated'], ctx) => {
      const data = {
        ticketId: payload.ticketId,
        status: payload.status,
        previousStatus: payload.previousStatus,
        userId: payload.userId,
        queueId: payload.queueId,
        whatsappId: payload.whatsappId,
        isGroup: payload.isGroup,
      };
      const closed = payload.status === 'closed' && payload.previousStatus !== 'closed';
      await Promise.all([
        write(ctx, payload.companyId, 'ticket.updated', data),
        closed ? write(ctx, payload.companyId, 'ticket.closed', data) : null,
      ]);
    },
    'contact.created': async (payload: BalcaoEvents['contact.created'], ctx) => {
      await write(ctx, payload.companyId, 'contact.created', { contactId: payload.contactId });
    },
    'campaign.finished': async (payload: BalcaoEvents['campaign.finished'], ctx) => {
      await write(ctx, payload.companyId, 'campaign.finished', { campaignId: payload.campaignId });
    },
  };
}
