import type {
  ConnectionChannel,
  ConnectionEvent,
  ConnectionInput,
  ConnectionOfCompany,
  ConnectionQueue,
  ConnectionSessionEvent,
  ConnectionShape,
  ConnectionStatusValue,
} from '../shared/connection';
import type { WebchatChannelConfig } from '../shared/webchat';

/** The connection types are the server's own (`plugins/channels/shared/connection.ts`). */
export type { ConnectionChannel, ConnectionEvent, ConnectionQueue, ConnectionSessionEvent };
export type ConnectionStatus = ConnectionStatusValue;

/** A connection as the lists hold it: `GET /whatsapp/` rows, or `GET /whatsapp/all/` rows with `companyName`. */
export type Connection = ConnectionShape & Partial<Pick<ConnectionOfCompany, 'companyName'>>;

/** The webchat channel's settings (`channelConfig` of a webchat connection). */
export type { WebchatChannelConfig };

/** The fields the editor sends (`POST /whatsapp`, `PUT /whatsapp/:id`): every editable one it shows. */
export type ConnectionBody = Required<
  Omit<
    ConnectionInput,
    | 'channel'
    | 'channelConfig'
    | 'promptId'
    | 'flowIdWelcome'
    | 'flowIdNotPhrase'
    | 'importOldMessages'
    | 'importRecentMessages'
    | 'importOldMessagesGroups'
    | 'closedTicketsPostImported'
    | 'queueIdImportMessages'
  >
> &
  Pick<ConnectionInput, 'channel' | 'channelConfig'>;

export type { ImportProgress, ImportProgressEvent } from '../shared/connection';
