import { api, type SessionState, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type { Connection, ConnectionBody, ConnectionEvent, ConnectionQueue, ConnectionSessionEvent } from './types';

/** Cache tags of the connections' reads. */
const TAGS = ['Connections', 'AllConnections'] as const;

/** A client company, as the super user's overview names it. */
export interface CompanyOption {
  id: number;
  name: string;
}

const companyIdOf = (state: unknown) => (state as { session?: SessionState }).session?.user?.companyId;

/**
 * Applies `company-{id}-whatsapp` and `company-{id}-whatsappSession` to a list of connections: an update
 * replaces the connection (or adds it), a delete drops it, a session update patches its status, qrcode,
 * retries and updatedAt (2-administration §4).
 */
export function applyConnectionEvent(rows: Connection[], event: ConnectionEvent | ConnectionSessionEvent): Connection[] {
  if (event.action === 'delete') return rows.filter((row) => row.id !== event.whatsappId);
  if ('session' in event) {
    return rows.map((row) => (row.id === event.session.id ? { ...row, ...event.session } : row));
  }
  const { whatsapp } = event;
  if (!rows.some((row) => row.id === whatsapp.id)) return [...rows, whatsapp];
  // the realtime shape lacks what only the super user's list carries (companyName): keep it
  return rows.map((row) => (row.id === whatsapp.id ? { ...row, ...whatsapp } : row));
}

/** Keeps a cached list of the session company's connections live through both realtime channels. */
async function followConnections(lifecycle: Parameters<typeof streamSocketEvent<Connection[], ConnectionEvent>>[0]) {
  if (companyIdOf(lifecycle.getState()) === undefined) return;
  const replace = (draft: Connection[], event: ConnectionEvent | ConnectionSessionEvent) => {
    const next = applyConnectionEvent([...draft] as Connection[], event);
    draft.splice(0, draft.length, ...next);
  };
  await Promise.all([
    streamSocketEvent<Connection[], ConnectionEvent>(lifecycle, { channel: 'whatsapp' }, (draft, event) =>
      replace(draft as Connection[], event),
    ),
    streamSocketEvent<Connection[], ConnectionSessionEvent>(lifecycle, { channel: 'whatsappSession' }, (draft, event) =>
      replace(draft as Connection[], event),
    ),
  ]);
}

/**
 * The connections' calls (2-administration §7 Connections) on the shell's one API. The list is kept live by
 * `company-{id}-whatsapp` and `-whatsappSession`; writes refresh what they change.
 */
export const connectionsApi = api.enhanceEndpoints({ addTagTypes: [...TAGS] }).injectEndpoints({
  endpoints: (build) => ({
    /** `GET /whatsapp/?session=0`: the company's connections. */
    listConnections: build.query<Connection[], void>({
      query: () => ({ url: '/whatsapp/', params: { session: 0 } }),
      providesTags: ['Connections'],
      onCacheEntryAdded: (_arg, lifecycle) => followConnections(lifecycle),
    }),
    /** `GET /whatsapp/:id?session=0`: one connection, for the editor. */
    getConnection: build.query<Connection, number>({
      query: (id) => ({ url: `/whatsapp/${id}`, params: { session: 0 } }),
      providesTags: (_result, _error, id) => [{ type: 'Connections', id }],
    }),
    /** `GET /whatsapp/all/?session=0` (super user): every company's connections, each with `companyName`. */
    listAllConnections: build.query<Connection[], void>({
      query: () => ({ url: '/whatsapp/all/', params: { session: 0 } }),
      providesTags: ['AllConnections'],
    }),
    /** `GET /companies/list` (super user): the client companies of the overview. */
    listCompanies: build.query<CompanyOption[], void>({
      query: () => '/companies/list',
      transformResponse: (rows: Array<CompanyOption & Record<string, unknown>>) => rows.map(({ id, name }) => ({ id, name })),
    }),
    /**
     * The queues a connection may serve: `GET /queue` (the session's company), or for the super user editing
     * another company's connection `GET /whatsapp-admin/companies/:companyId/queues`.
     */
    listQueueOptions: build.query<ConnectionQueue[], number | undefined>({
      query: (companyId) => (companyId === undefined ? '/queue' : `/whatsapp-admin/companies/${companyId}/queues`),
      transformResponse: (rows: ConnectionQueue[]) => rows.map(({ id, name, color }) => ({ id, name, color })),
    }),
    /** `companyId`: the super user adding to another company from All connections. */
    createConnection: build.mutation<Connection, ConnectionBody & { companyId?: number }>({
      query: (body) => ({ url: '/whatsapp', method: 'POST', body }),
      invalidatesTags: ['Connections', 'AllConnections'],
    }),
    updateConnection: build.mutation<Connection, { id: number; body: Partial<ConnectionBody> }>({
      query: ({ id, body }) => ({ url: `/whatsapp/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => ['Connections', 'AllConnections', { type: 'Connections', id }],
    }),
    deleteConnection: build.mutation<void, number>({
      query: (id) => ({ url: `/whatsapp/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Connections', 'AllConnections'],
    }),
    /** `POST /whatsapp/:id/token` → a new token (2-administration §9: regenerable). */
    regenerateConnectionToken: build.mutation<{ token: string }, number>({
      query: (id) => ({ url: `/whatsapp/${id}/token`, method: 'POST' }),
      invalidatesTags: (_result, _error, id) => ['Connections', { type: 'Connections', id }],
    }),
    uploadGreetingMedia: build.mutation<Connection, { id: number; file: File }>({
      query: ({ id, file }) => {
        const form = new FormData();
        form.append('file', file);
        return { url: `/whatsapp/${id}/media-upload`, method: 'POST', body: form };
      },
      invalidatesTags: (_result, _error, { id }) => ['Connections', { type: 'Connections', id }],
    }),
    deleteGreetingMedia: build.mutation<void, number>({
      query: (id) => ({ url: `/whatsapp/${id}/media-upload`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => ['Connections', { type: 'Connections', id }],
    }),
    /** `POST /whatsappsession/:id`: start the session (try again). */
    startSession: build.mutation<void, number>({
      query: (id) => ({ url: `/whatsappsession/${id}`, method: 'POST' }),
      invalidatesTags: ['Connections', 'AllConnections'],
    }),
    /** `PUT /whatsappsession/:id`: a new QR code. */
    renewQrCode: build.mutation<void, number>({
      query: (id) => ({ url: `/whatsappsession/${id}`, method: 'PUT' }),
      invalidatesTags: ['Connections', 'AllConnections'],
    }),
    /** `DELETE /whatsappsession/:id`: disconnect. */
    disconnectSession: build.mutation<void, number>({
      query: (id) => ({ url: `/whatsappsession/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Connections', 'AllConnections'],
    }),
    /** `POST /whatsapp-restart/`: restart every connection of the company. */
    restartConnections: build.mutation<{ restarted: number[]; skipped: number[] }, void>({
      query: () => ({ url: '/whatsapp-restart/', method: 'POST' }),
      invalidatesTags: ['Connections', 'AllConnections'],
    }),
    /** `POST /closedimported/:id`: close the tickets an import brought in. */
    closeImportedTickets: build.mutation<void, number>({
      query: (id) => ({ url: `/closedimported/${id}`, method: 'POST' }),
      invalidatesTags: ['Connections'],
    }),
  }),
});

export const {
  useListConnectionsQuery,
  useGetConnectionQuery,
  useListAllConnectionsQuery,
  useListCompaniesQuery,
  useListQueueOptionsQuery,
  useCreateConnectionMutation,
  useUpdateConnectionMutation,
  useDeleteConnectionMutation,
  useRegenerateConnectionTokenMutation,
  useUploadGreetingMediaMutation,
  useDeleteGreetingMediaMutation,
  useStartSessionMutation,
  useRenewQrCodeMutation,
  useDisconnectSessionMutation,
  useRestartConnectionsMutation,
  useCloseImportedTicketsMutation,
} = connectionsApi;
