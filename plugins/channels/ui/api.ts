import {
  type AppDispatch,
  api,
  type CacheEntryLifecycle,
  type SessionState,
  streamSocketEvent,
  subscribeSocketEvent,
} from '@balcao/plugin-sdk/ui';
import type {
  Connection,
  ConnectionBody,
  ConnectionEvent,
  ConnectionQueue,
  ConnectionSessionEvent,
  ImportProgress,
  ImportProgressEvent,
} from './types';

/** Cache tags of the connections' reads. */
const TAGS = ['Connections', 'AllConnections'] as const;

/** A client company, as the super user's overview names it. */
export interface CompanyOption {
  id: number;
  name: string;
}

const companyIdOf = (state: unknown) => (state as { session?: SessionState }).session?.user?.companyId;

/**
 * Whether `incoming` is an older state of a connection than `current`. The server stamps `updatedAt` (the
 * database's clock) on every change and reads the row after writing it, so a list read or an answer that
 * left before a later change carries an older stamp. It must not take that change back: the list refetched
 * after "Tentar novamente" (read while OPENING) may land after the QR code came over the socket, which
 * would leave the row OPENING, without its QR button, until the next QR code.
 */
function isOlder(incoming: Pick<Connection, 'updatedAt'>, current: Pick<Connection, 'updatedAt'>): boolean {
  const incomingAt = Date.parse(incoming.updatedAt);
  const currentAt = Date.parse(current.updatedAt);
  return Number.isFinite(incomingAt) && Number.isFinite(currentAt) && incomingAt < currentAt;
}

/**
 * Applies `company-{id}-whatsapp` and `company-{id}-whatsappSession` to a list of connections: an update
 * replaces the connection (or adds it), a delete drops it, a session update patches its status, qrcode,
 * pairingCode, sessionError, retries and updatedAt (docs/product/administration.md#states-and-transitions) — only of a row already there.
 * A state older than the row's (`updatedAt`) is ignored.
 */
export function applyConnectionEvent(rows: Connection[], event: ConnectionEvent | ConnectionSessionEvent): Connection[] {
  if (event.action === 'delete') return rows.filter((row) => row.id !== event.whatsappId);
  const incoming = 'session' in event ? event.session : event.whatsapp;
  if (!('session' in event) && !rows.some((row) => row.id === incoming.id)) return [...rows, incoming];
  // the realtime shape lacks what only the super user's list carries (companyName): keep it
  return rows.map((row) => (row.id === incoming.id && !isOlder(incoming, row) ? { ...row, ...incoming } : row));
}

/** A list just read, keeping the cached state of a connection where it is newer than what was read. */
export function mergeConnectionList(cached: Connection[], fetched: Connection[]): Connection[] {
  const byId = new Map(cached.map((row) => [row.id, row]));
  return fetched.map((row) => {
    const mine = byId.get(row.id);
    return mine && isOlder(row, mine) ? mine : row;
  });
}

/**
 * The import channel (docs/product/administration.md#states-and-transitions). Its name is the documented one, `importMessages-{companyId}`, not a
 * `company-{id}-…` channel.
 */
export const importMessagesEvent = (companyId: number) => `importMessages-${companyId}`;

/** The imports under way, by connection id: `update` sets a connection's progress, `refresh` (start or end) drops it. */
export function applyImportProgress(progress: Record<number, ImportProgress>, event: ImportProgressEvent): void {
  if (event.action === 'update') progress[event.whatsappId] = { ...event.status };
  else delete progress[event.whatsappId];
}

/** A cache entry's lifecycle as the connections list uses it: live patches, and refetching itself. */
type ListLifecycle = CacheEntryLifecycle<Connection[]> & { dispatch: AppDispatch };

/**
 * An import started or ended (`refresh` on the import channel): its `statusImportMessages` changed, which
 * drives the preparing state and the close-imported-tickets button, so the list is read again. Follows the
 * list's entry rather than the page, so that the badge's entry (always there) stays right too.
 */
async function refetchOnImportRefresh(lifecycle: ListLifecycle): Promise<void> {
  try {
    await lifecycle.cacheDataLoaded;
  } catch {
    return;
  }
  const companyId = companyIdOf(lifecycle.getState());
  if (companyId === undefined) return;
  const stop = subscribeSocketEvent<ImportProgressEvent>(importMessagesEvent(companyId), (event) => {
    if (event.action !== 'refresh') return;
    lifecycle.dispatch(connectionsApi.endpoints.listConnections.initiate(undefined, { forceRefetch: true, subscribe: false }));
    lifecycle.dispatch(connectionsApi.util.invalidateTags(['AllConnections']));
  });
  await lifecycle.cacheEntryRemoved;
  stop();
}

/**
 * Puts a session action's answer (the connection as it now is) into the cached lists, where they hold it.
 * Used instead of refetching them when an update may follow at once over the socket: a refetch landing after
 * it would take it back (the pairing code arrives moments after `POST …/pairing-code` answers OPENING).
 */
function patchCachedLists(dispatch: AppDispatch, connection: Connection): void {
  // the session form of the event only patches rows already there: another company's connection (All
  // connections) never enters the session company's own list
  const patch = (draft: Connection[]) => {
    const next = applyConnectionEvent([...draft] as Connection[], { action: 'update', session: connection });
    draft.splice(0, draft.length, ...next);
  };
  dispatch(connectionsApi.util.updateQueryData('listConnections', undefined, patch));
  dispatch(connectionsApi.util.updateQueryData('listAllConnections', undefined, patch));
}

/** Keeps a cached list of the session company's connections live through both realtime channels and the import channel. */
async function followConnections(lifecycle: ListLifecycle): Promise<void> {
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
    refetchOnImportRefresh(lifecycle),
  ]);
}

/**
 * The connections' calls (docs/product/administration.md#calls-and-realtime-events Connections) on the shell's one API. The list is kept live by
 * `company-{id}-whatsapp` and `-whatsappSession`; writes refresh what they change.
 */
export const connectionsApi = api.enhanceEndpoints({ addTagTypes: [...TAGS] }).injectEndpoints({
  endpoints: (build) => ({
    /** `GET /whatsapp/?session=0`: the company's connections. */
    listConnections: build.query<Connection[], void>({
      query: () => ({ url: '/whatsapp/', params: { session: 0 } }),
      providesTags: ['Connections'],
      // a refetch answered after a realtime update must not take it back
      merge: (cached, fetched) => {
        cached.splice(0, cached.length, ...mergeConnectionList(cached, fetched));
      },
      onCacheEntryAdded: (_arg, lifecycle) => followConnections(lifecycle),
    }),
    /**
     * The imports under way (`importMessages-{companyId}` `update`s), by connection id. Nothing to fetch: the
     * entry starts empty and the import channel fills it, in the same cache as the list.
     */
    importProgress: build.query<Record<number, ImportProgress>, void>({
      queryFn: () => ({ data: {} }),
      onCacheEntryAdded: async (_arg, lifecycle) => {
        const companyId = companyIdOf(lifecycle.getState());
        if (companyId === undefined) return;
        await streamSocketEvent<Record<number, ImportProgress>, ImportProgressEvent>(
          lifecycle,
          { event: importMessagesEvent(companyId) },
          applyImportProgress,
        );
      },
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
    /** The company's queue integrations (the flow builder's route; answered only with useIntegrations). */
    listIntegrationOptions: build.query<Array<{ id: number; name: string; type: string }>, string>({
      query: (searchParam) => ({ url: '/queueIntegration', params: { searchParam: searchParam || undefined } }),
      transformResponse: (page: { queueIntegrations: Array<{ id: number; name: string; type: string }> }) =>
        page.queueIntegrations.map(({ id, name, type }) => ({ id, name, type })),
    }),
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
    /** `POST /whatsapp/:id/token` → a new token (docs/product/administration.md#constants-and-limits: regenerable). */
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
    /**
     * `POST /whatsappsession/:id/pairing-code` (ours): pair by phone number instead of a QR code. Answers the
     * connection OPENING; its `pairingCode` (status PAIRING), then CONNECTED, come over `-whatsappSession`.
     */
    requestPairingCode: build.mutation<Connection, { id: number; number: string }>({
      query: ({ id, number }) => ({ url: `/whatsappsession/${id}/pairing-code`, method: 'POST', body: { number } }),
      onQueryStarted: async (_arg, { dispatch, queryFulfilled }) => {
        try {
          const { data } = await queryFulfilled;
          patchCachedLists(dispatch, data);
        } catch {
          // the caller shows the error
        }
      },
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
  useImportProgressQuery,
  useGetConnectionQuery,
  useListAllConnectionsQuery,
  useListCompaniesQuery,
  useListIntegrationOptionsQuery,
  useListQueueOptionsQuery,
  useCreateConnectionMutation,
  useUpdateConnectionMutation,
  useDeleteConnectionMutation,
  useRegenerateConnectionTokenMutation,
  useUploadGreetingMediaMutation,
  useDeleteGreetingMediaMutation,
  useStartSessionMutation,
  useRenewQrCodeMutation,
  useRequestPairingCodeMutation,
  useDisconnectSessionMutation,
  useRestartConnectionsMutation,
  useCloseImportedTicketsMutation,
} = connectionsApi;
