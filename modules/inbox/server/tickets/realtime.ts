import { companyEvent, type PluginContext, ROOMS } from '@balcao/plugin-sdk/server';
import type { AppMessageEvent, Contact, ContactSummary, Message, Ticket, TicketEvent } from '../../shared/types';
import { maskContact, masksNumbers } from './serializer';
import { canSeeTicket, type Viewer, type VisibleTicketFields } from './visibility';

/** How long a company's audience (its users, their queues and permission fields) is reused. */
const AUDIENCE_TTL_MS = 5_000;

interface Audience {
  loadedAt: number;
  viewers: Viewer[];
  /** Whether profile users get masked numbers (LGPD hide-number). */
  masksUsers: boolean;
}

/**
 * Sends the inbox's realtime events (docs/product/tickets-and-inbox.md#calls-and-realtime-events) only to the users entitled to them (docs/product/roles-and-permissions.md#roles-in-the-inbox): a ticket
 * event reaches the sockets of users who may see the ticket, before or after the change — those who
 * lost sight of it get `removeFromList`. Profile users get masked numbers when LGPD hides them.
 */
export class InboxRealtime {
  private readonly audiences = new Map<number, Promise<Audience>>();

  constructor(private readonly ctx: PluginContext) {}

  /** Forget a company's cached audience (a user, a queue membership or a setting changed). */
  invalidate(companyId: number): void {
    this.audiences.delete(companyId);
  }

  /** The company's users as viewers, cached for a few seconds. */
  async audience(companyId: number): Promise<Audience> {
    const cached = this.audiences.get(companyId);
    if (cached) {
      const audience = await cached;
      if (Date.now() - audience.loadedAt < AUDIENCE_TTL_MS) return audience;
    }
    const loading = this.loadAudience(companyId);
    this.audiences.set(companyId, loading);
    loading.catch(() => this.audiences.delete(companyId));
    return loading;
  }

  private async loadAudience(companyId: number): Promise<Audience> {
    const { knex } = this.ctx.db;
    const [users, memberships, settings] = await Promise.all([
      knex('users')
        .where({ companyId })
        .select('id', 'profile', 'allTicket', 'allowGroup', 'allUserChat', 'userClosePendingTicket'),
      knex('userQueues').where({ companyId }).select('userId', 'queueId'),
      this.ctx.settings.all(companyId),
    ]);
    const queuesOf = new Map<number, number[]>();
    for (const { userId, queueId } of memberships as Array<{ userId: number; queueId: number }>) {
      queuesOf.set(userId, [...(queuesOf.get(userId) ?? []), queueId]);
    }
    const viewers = (users as Array<Omit<Viewer, 'queueIds'>>).map((user) => ({
      ...user,
      queueIds: queuesOf.get(user.id) ?? [],
    }));
    return { loadedAt: Date.now(), viewers, masksUsers: masksNumbers('user', settings) };
  }

  /** The ids of the users who may see a ticket in this state (`InboxService.ticketAudience`). */
  async entitledUserIds(companyId: number, ticket: VisibleTicketFields): Promise<number[]> {
    return this.entitled(await this.audience(companyId), ticket).map((viewer) => viewer.id);
  }

  /** Users entitled to a ticket in any of the given states. */
  private entitled(audience: Audience, ...states: Array<VisibleTicketFields | null>): Viewer[] {
    return audience.viewers.filter((viewer) => states.some((state) => state !== null && canSeeTicket(viewer, state)));
  }

  /**
   * Emits to each viewer's sockets, building the payload once for masked and once for unmasked viewers.
   */
  private emitTo(
    companyId: number,
    audience: Audience,
    viewers: Viewer[],
    channel: string,
    build: (masked: boolean) => unknown,
  ): void {
    if (viewers.length === 0) return;
    const masked = viewers.filter((viewer) => audience.masksUsers && viewer.profile === 'user');
    const clear = viewers.filter((viewer) => !(audience.masksUsers && viewer.profile === 'user'));
    const event = companyEvent(companyId, channel);
    if (clear.length > 0) {
      this.ctx.realtime.emit(companyId, event, build(false), { rooms: clear.map((viewer) => ROOMS.user(viewer.id)) });
    }
    if (masked.length > 0) {
      this.ctx.realtime.emit(companyId, event, build(true), { rooms: masked.map((viewer) => ROOMS.user(viewer.id)) });
    }
  }

  /**
   * A ticket changed: `update` to everyone entitled now, `removeFromList` to those entitled only before.
   * `before` is the ticket's state before the change (null for a new ticket).
   */
  async ticketChanged(companyId: number, ticket: Ticket, before: VisibleTicketFields | null): Promise<void> {
    const audience = await this.audience(companyId);
    const now = this.entitled(audience, ticket);
    this.emitTo(
      companyId,
      audience,
      now,
      'ticket',
      (masked) =>
        ({
          action: 'update',
          ticket: masked ? { ...ticket, contact: maskContact(ticket.contact) } : ticket,
        }) satisfies TicketEvent,
    );
    if (before) {
      const nowIds = new Set(now.map((viewer) => viewer.id));
      const lost = this.entitled(audience, before).filter((viewer) => !nowIds.has(viewer.id));
      this.emitTo(
        companyId,
        audience,
        lost,
        'ticket',
        () =>
          ({
            action: 'removeFromList',
            ticketId: ticket.id,
          }) satisfies TicketEvent,
      );
    }
  }

  /** A ticket was deleted. */
  async ticketDeleted(companyId: number, ticketId: number, before: VisibleTicketFields): Promise<void> {
    const audience = await this.audience(companyId);
    this.emitTo(
      companyId,
      audience,
      this.entitled(audience, before),
      'ticket',
      () =>
        ({
          action: 'delete',
          ticketId,
        }) satisfies TicketEvent,
    );
  }

  /** A message was created on a ticket (inbound, outbound or private). */
  async messageCreated(companyId: number, message: Message, ticket: Ticket): Promise<void> {
    const audience = await this.audience(companyId);
    this.emitTo(companyId, audience, this.entitled(audience, ticket), 'appMessage', (masked) => {
      const contact: ContactSummary = masked ? maskContact(ticket.contact) : ticket.contact;
      return {
        action: 'create',
        message,
        ticket: masked ? { ...ticket, contact } : ticket,
        contact,
      } satisfies AppMessageEvent;
    });
  }

  /** A message changed (ack, edit, delete for everyone, reaction, delivery failure). */
  async messageUpdated(companyId: number, message: Message, ticket: VisibleTicketFields): Promise<void> {
    const audience = await this.audience(companyId);
    this.emitTo(
      companyId,
      audience,
      this.entitled(audience, ticket),
      'appMessage',
      () =>
        ({
          action: 'update',
          message,
        }) satisfies AppMessageEvent,
    );
  }

  /** A message was removed from view (LGPD delete). */
  async messageDeleted(companyId: number, messageId: number, ticket: VisibleTicketFields & { id: number }): Promise<void> {
    const audience = await this.audience(companyId);
    this.emitTo(
      companyId,
      audience,
      this.entitled(audience, ticket),
      'appMessage',
      () =>
        ({
          action: 'delete',
          messageId,
          ticketId: ticket.id,
        }) satisfies AppMessageEvent,
    );
  }

  /** A contact changed: every user of the company may see contacts (numbers masked per LGPD). */
  async contactChanged(companyId: number, contact: Contact): Promise<void> {
    const audience = await this.audience(companyId);
    this.emitTo(companyId, audience, audience.viewers, 'contact', (masked) => ({
      action: 'update',
      contact: masked ? maskContact(contact) : contact,
    }));
  }

  async contactDeleted(companyId: number, contactId: number): Promise<void> {
    const audience = await this.audience(companyId);
    this.emitTo(companyId, audience, audience.viewers, 'contact', () => ({ action: 'delete', contactId }));
  }
}
