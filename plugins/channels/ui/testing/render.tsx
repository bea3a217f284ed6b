/** Test support (imported by tests only): the SDK's UI test kit with the channels' translations and sample rows. */
import { signIn as signInAs } from '@balcao/plugin-sdk/testing/ui';
import { defaultSchedules, type SessionUser } from '@balcao/plugin-sdk/ui';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';
import tr from '../locales/tr.json';
import type { Connection } from '../types';

export { type ApiCall, type ApiHandler, renderPage, serveApi } from '@balcao/plugin-sdk/testing/ui';

/** Starts a session (an admin of company 1 unless `fields` say otherwise) with the channels' texts. */
export const signIn = (fields: Partial<SessionUser> = {}) =>
  signInAs({ namespace: 'channels', translations: { pt, en, es, tr } }, fields);

/** Answers one method and path with a body. */
export const answer =
  (method: string, path: string, body: unknown, status = 200) =>
  (call: { method: string; path: string }) =>
    call.method === method && call.path === path ? { status, body } : undefined;

/** A connection as the API answers it, with `fields` over sensible values. */
export function connection(id: number, fields: Partial<Connection> = {}): Connection {
  return {
    id,
    name: `Conexão ${id}`,
    number: '5511999990000',
    channel: 'whatsapp',
    status: 'CONNECTED',
    isDefault: false,
    allowGroup: false,
    groupAsTicket: 'disabled',
    token: 'a'.repeat(29) + String(id % 10),
    greetingMessage: '',
    complationMessage: '',
    outOfHoursMessage: '',
    ratingMessage: '',
    collectiveVacationMessage: '',
    collectiveVacationStart: null,
    collectiveVacationEnd: null,
    maxUseBotQueues: 3,
    timeUseBotQueues: 0,
    maxUseBotQueuesNPS: 3,
    expiresTicket: 0,
    whenExpiresTicket: 0,
    expiresTicketNPS: 0,
    expiresInactiveMessage: '',
    timeInactiveMessage: 0,
    inactiveMessage: '',
    timeCreateNewTicket: 0,
    timeSendQueue: 0,
    sendIdQueue: null,
    integrationId: null,
    promptId: null,
    flowIdWelcome: null,
    flowIdNotPhrase: null,
    schedules: defaultSchedules(),
    greetingMediaAttachment: null,
    lgpdMessage: '',
    importOldMessages: null,
    importRecentMessages: null,
    importOldMessagesGroups: false,
    closedTicketsPostImported: false,
    queueIdImportMessages: null,
    statusImportMessages: null,
    sessionError: null,
    pairingCode: null,
    qrcode: '',
    provider: 'beta',
    retries: 0,
    updatedAt: '2024-03-05T10:30:00.000Z',
    companyId: 1,
    queueIds: [],
    queues: [],
    greetingMediaUrl: null,
    channelConfig: {},
    ...fields,
  };
}

/** The plan answer of `GET /companies/listPlan/:companyId` with the given flags on. */
export function planWith(companyId: number, flags: string[]) {
  const all = ['useWhatsapp', 'useFacebook', 'useInstagram'];
  return {
    id: companyId,
    name: 'Acme',
    planId: 1,
    plan: {
      id: 1,
      name: 'Plano',
      users: 10,
      connections: 10,
      queues: 10,
      ...Object.fromEntries(all.map((flag) => [flag, flags.includes(flag)])),
    },
  };
}
