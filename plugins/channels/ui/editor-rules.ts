import { normalizeOrigin } from '@balcao/plugin-sdk/shared';
import { defaultSchedules, hoursValid } from '@balcao/plugin-sdk/ui';
import type { Connection, ConnectionBody, WebchatChannelConfig } from './types';

/** The editor's fields: the body of `POST /whatsapp` / `PUT /whatsapp/:id` without the channel's own settings. */
export type ConnectionFields = Omit<ConnectionBody, 'channelConfig' | 'channel' | 'companyId'>;

/** A new connection's fields (docs/product/administration.md#constants-and-limits: maxUseBotQueues 3, maxUseBotQueuesNPS 3, default hours, timeouts 0). */
export function fieldsOf(connection: Connection | undefined): ConnectionFields {
  return {
    name: connection?.name ?? '',
    isDefault: connection?.isDefault ?? false,
    allowGroup: connection?.allowGroup ?? false,
    groupAsTicket: connection?.groupAsTicket ?? 'disabled',
    greetingMessage: connection?.greetingMessage ?? '',
    complationMessage: connection?.complationMessage ?? '',
    outOfHoursMessage: connection?.outOfHoursMessage ?? '',
    ratingMessage: connection?.ratingMessage ?? '',
    collectiveVacationMessage: connection?.collectiveVacationMessage ?? '',
    collectiveVacationStart: connection?.collectiveVacationStart?.slice(0, 10) ?? null,
    collectiveVacationEnd: connection?.collectiveVacationEnd?.slice(0, 10) ?? null,
    maxUseBotQueues: connection?.maxUseBotQueues ?? 3,
    timeUseBotQueues: connection?.timeUseBotQueues ?? 0,
    maxUseBotQueuesNPS: connection?.maxUseBotQueuesNPS ?? 3,
    expiresTicket: connection?.expiresTicket ?? 0,
    whenExpiresTicket: connection?.whenExpiresTicket ?? 0,
    expiresTicketNPS: connection?.expiresTicketNPS ?? 0,
    expiresInactiveMessage: connection?.expiresInactiveMessage ?? '',
    timeInactiveMessage: connection?.timeInactiveMessage ?? 0,
    inactiveMessage: connection?.inactiveMessage ?? '',
    timeCreateNewTicket: connection?.timeCreateNewTicket ?? 0,
    timeSendQueue: connection?.timeSendQueue ?? 0,
    sendIdQueue: connection?.sendIdQueue ?? null,
    lgpdMessage: connection?.lgpdMessage ?? '',
    queueIds: connection?.queueIds ?? [],
    integrationId: connection?.integrationId ?? null,
    schedules: connection?.schedules && connection.schedules.length > 0 ? connection.schedules : defaultSchedules(),
  };
}

/** A webchat connection's widget settings as the editor shows them (the server's defaults for a new one). */
export function webchatOf(config: Record<string, unknown> | undefined): WebchatChannelConfig {
  const source = (config ?? {}) as Partial<WebchatChannelConfig>;
  return {
    widgetKey: source.widgetKey ?? '',
    identitySecret: source.identitySecret ?? '',
    allowedOrigins: source.allowedOrigins ?? [],
    prechat: { name: 'off', email: 'off', phone: 'off', ...source.prechat },
    color: source.color ?? '#1677FF',
    theme: source.theme ?? 'auto',
    position: source.position ?? 'right',
    title: source.title ?? '',
    welcomeMessage: source.welcomeMessage ?? '',
    newConversationsPerIpPerHour: source.newConversationsPerIpPerHour ?? 20,
    messagesPerMinute: source.messagesPerMinute ?? 30,
  };
}

/** The widget settings the editor sends: the key and the secret are the server's (made, kept, regenerated). */
export function webchatBody(config: WebchatChannelConfig, regenerate: Array<'widgetKey' | 'identitySecret'> = []) {
  const { widgetKey: _key, identitySecret: _secret, ...editable } = config;
  return regenerate.length > 0 ? { ...editable, regenerate } : editable;
}

/** What the company's settings change in the rules: ratings on (userRating) and the hours kept per connection. */
export interface EditorContext {
  userRating: boolean;
  schedulesPerConnection: boolean;
  webchat: boolean;
}

/** A field's problem: an i18n key of the `channels` namespace. */
export type FieldProblems = Partial<Record<keyof ConnectionFields | 'widget', string>>;

/**
 * The connection rules of docs/product/administration.md#validation, as the form checks them before saving (the server checks
 * them again): name 2 to 50; with ratings, a rating message and expiresTicketNPS above 0; timeSendQueue and
 * sendIdQueue together; vacation dates with a vacation message, the end not before the start; valid hours.
 */
export function fieldProblems(fields: ConnectionFields, context: EditorContext, webchat?: WebchatChannelConfig): FieldProblems {
  const problems: FieldProblems = {};
  const name = fields.name.trim();
  if (name === '') problems.name = 'form.errors.required';
  else if (name.length < 2) problems.name = 'form.errors.tooShort';
  else if (name.length > 50) problems.name = 'form.errors.tooLong';
  if (context.userRating) {
    if (fields.ratingMessage.trim() === '') problems.ratingMessage = 'whatsappModal.errorRatingMessage';
    if (!(fields.expiresTicketNPS > 0)) problems.expiresTicketNPS = 'whatsappModal.errorExpiresNPS';
  }
  if (fields.timeSendQueue > 0 !== (fields.sendIdQueue !== null)) {
    problems[fields.timeSendQueue > 0 ? 'sendIdQueue' : 'timeSendQueue'] = 'whatsappModal.errorSendQueue';
  }
  if (fields.collectiveVacationMessage.trim() !== '') {
    if (!fields.collectiveVacationStart) problems.collectiveVacationStart = 'form.errors.vacationDates';
    if (!fields.collectiveVacationEnd) problems.collectiveVacationEnd = 'form.errors.vacationDates';
  }
  if (
    fields.collectiveVacationStart &&
    fields.collectiveVacationEnd &&
    fields.collectiveVacationEnd < fields.collectiveVacationStart
  ) {
    problems.collectiveVacationEnd = 'form.errors.vacationOrder';
  }
  if (context.schedulesPerConnection && !hoursValid(fields.schedules)) problems.schedules = 'form.errors.schedules';
  if (context.webchat && webchat) {
    if (webchat.allowedOrigins.some((origin) => normalizeOrigin(origin) === null)) problems.widget = 'widget.errors.origin';
    else if (!/^#[0-9A-Fa-f]{6}$/.test(webchat.color)) problems.widget = 'widget.errors.color';
    else if (!(webchat.newConversationsPerIpPerHour >= 1) || !(webchat.messagesPerMinute >= 1))
      problems.widget = 'widget.errors.limits';
  }
  return problems;
}

/** The tab each field is on, to mark tabs that hold a problem. */
export const FIELD_TABS: Record<keyof FieldProblems, string> = {
  name: 'general',
  isDefault: 'general',
  allowGroup: 'general',
  groupAsTicket: 'general',
  queueIds: 'general',
  integrationId: 'integrations',
  greetingMessage: 'messages',
  complationMessage: 'messages',
  outOfHoursMessage: 'messages',
  collectiveVacationMessage: 'messages',
  collectiveVacationStart: 'messages',
  collectiveVacationEnd: 'messages',
  lgpdMessage: 'messages',
  maxUseBotQueues: 'chatbot',
  timeUseBotQueues: 'chatbot',
  timeSendQueue: 'chatbot',
  sendIdQueue: 'chatbot',
  timeCreateNewTicket: 'chatbot',
  timeInactiveMessage: 'chatbot',
  inactiveMessage: 'chatbot',
  expiresTicket: 'chatbot',
  whenExpiresTicket: 'chatbot',
  expiresInactiveMessage: 'chatbot',
  ratingMessage: 'assessments',
  maxUseBotQueuesNPS: 'assessments',
  expiresTicketNPS: 'assessments',
  schedules: 'schedules',
  widget: 'widget',
};

/** The embed snippet of a webchat connection (the widget is served by the channels plugin). */
export function embedSnippet(origin: string, widgetKey: string): string {
  return `<script src="${origin}/plugins/channels/widget/channels-widget.js" data-key="${widgetKey}" async></script>`;
}
