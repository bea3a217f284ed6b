import type { ServiceHours } from '@balcao/plugin-sdk/ui';
import type {
  ConnectionChannel,
  ConnectionEvent,
  ConnectionOfCompany,
  ConnectionQueue,
  ConnectionSessionEvent,
  ConnectionShape,
  ConnectionStatusValue,
} from '../shared/connection';
import type { WebchatPosition, WebchatPrechat, WebchatTheme } from '../shared/webchat';

/** The connection types are the server's own (`plugins/channels/shared/connection.ts`). */
export type { ConnectionChannel, ConnectionEvent, ConnectionQueue, ConnectionSessionEvent };
export type ConnectionStatus = ConnectionStatusValue;

/** A connection as the lists hold it: `GET /whatsapp/` rows, or `GET /whatsapp/all/` rows with `companyName`. */
export type Connection = ConnectionShape & Partial<Pick<ConnectionOfCompany, 'companyName'>>;

/** The webchat channel's settings (`channelConfig` of a webchat connection). */
export interface WebchatChannelConfig {
  widgetKey: string;
  identitySecret: string;
  allowedOrigins: string[];
  prechat: WebchatPrechat;
  color: string;
  theme: WebchatTheme;
  position: WebchatPosition;
  title: string;
  welcomeMessage: string;
  newConversationsPerIpPerHour: number;
  messagesPerMinute: number;
}

/** The fields the editor sends (`POST /whatsapp`, `PUT /whatsapp/:id`). */
export interface ConnectionBody {
  name: string;
  channel?: ConnectionChannel;
  isDefault: boolean;
  allowGroup: boolean;
  groupAsTicket: 'disabled' | 'enabled';
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  collectiveVacationMessage: string;
  collectiveVacationStart: string | null;
  collectiveVacationEnd: string | null;
  maxUseBotQueues: number;
  timeUseBotQueues: number;
  maxUseBotQueuesNPS: number;
  expiresTicket: number;
  whenExpiresTicket: 0 | 1;
  expiresTicketNPS: number;
  expiresInactiveMessage: string;
  timeInactiveMessage: number;
  inactiveMessage: string;
  timeCreateNewTicket: number;
  timeSendQueue: number;
  sendIdQueue: number | null;
  lgpdMessage: string;
  queueIds: number[];
  schedules: ServiceHours[];
  channelConfig?: Record<string, unknown>;
}
