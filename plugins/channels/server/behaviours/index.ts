import type { ChannelsArea } from '../index';

/**
 * The behaviours area: how every channel's conversations start on their connection — greeting and queue
 * menu, limits, hours (scheduleType connection), collective vacation and LGPD consent.
 *
 * It adds no handler of its own on purpose. The bus runs `message.received` handlers in feature order
 * (inbox, admin, …, channels), so the administration's chatbot sees each message before any handler here
 * could: a gate in this plugin would come after the greeting it should hold back. The chatbot therefore
 * reads the ticket's connection through this plugin's `connections` service (the profile area) and applies
 * vacation, consent and hours itself, in that order, before any menu. The design, the texts and the
 * choices are in `docs/channels/conversation-start.md`; the tests beside this file prove them through real
 * connections.
 */
export const behavioursArea: ChannelsArea = {};
