/**
 * The flows contract (docs/product/automation.md "Flows at work"): the flow builder provides the `flows`
 * service, which tells whether one of its flows starts on a customer's message; the chatbot asks it and
 * steps aside only then, without knowing the plugin. Read with `ctx.services.has('flows')` / `use('flows')`.
 */

/** A customer's message on a ticket, as the flow builder's triggers read it. */
export interface FlowStartQuery {
  companyId: number;
  ticketId: number;
  /** The message (a flow that already took it, or is running on the ticket, answers true). */
  messageId: number;
  /** The connection the message came in on. */
  whatsappId: number;
  /** Whether the message opened the ticket (welcome and not-phrase flows start only then). */
  ticketCreated: boolean;
  body: string;
}

export interface FlowsService {
  /**
   * Whether a flow has this message: a run on the ticket already took it or is under way, or one starts on it: a phrase campaign it matches, or on a new ticket the
   * connection's welcome flow (a contact never seen before) or its not-phrase flow (a returning one) — an
   * active flow with a start node, a ticket waiting for people with no run, the plan's useIntegrations, and
   * the contact's consent when the company asks for it.
   */
  startsFor(query: FlowStartQuery): Promise<boolean>;
}

declare module './events' {
  interface BalcaoServices {
    flows: FlowsService;
  }
}
