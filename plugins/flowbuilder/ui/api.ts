import { api, type CacheEntryLifecycle, type SessionState, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type { FlowDocumentConnection, FlowDocumentNode } from './flows/model';
import type {
  Connection,
  Flow,
  FlowCampaign,
  FlowCampaignBody,
  FlowRun,
  FlowWithDocument,
  IntegrationBody,
  QueueChoice,
  QueueIntegration,
} from './types';

const TAGS = ['QueueIntegration', 'FlowCampaign', 'Flow'] as const;

interface IntegrationEvent {
  action: 'create' | 'update' | 'delete';
  queueIntegration?: QueueIntegration;
  integrationId?: number;
}

interface CampaignEvent {
  action: 'create' | 'update' | 'delete';
  record?: FlowCampaign;
  id?: number;
}

interface FlowEvent {
  action: 'create' | 'update' | 'delete';
  flow?: Flow;
  flowId?: number;
}

export interface FlowPage {
  flows: Flow[];
  hasMore: boolean;
}

/** A stored media file's name, whatever wrapper the upload answers with. */
function storedName(answer: unknown): string {
  if (typeof answer === 'string') return answer;
  const record = (answer ?? {}) as { name?: unknown; filename?: unknown; names?: unknown };
  if (typeof record.name === 'string') return record.name;
  if (typeof record.filename === 'string') return record.filename;
  if (Array.isArray(record.names) && typeof record.names[0] === 'string') return record.names[0];
  return '';
}

/** The uploads of the editor: one call per media kind, the stored name comes back. */
const UPLOAD_PATHS = { img: '/flowbuilder/img', audio: '/flowbuilder/audio', video: '/flowbuilder/video' } as const;

export interface IntegrationPage {
  queueIntegrations: QueueIntegration[];
  hasMore: boolean;
}

const companyOf = (state: unknown) => (state as { session?: SessionState }).session?.user?.companyId;

function follow<Data, Payload>(
  lifecycle: CacheEntryLifecycle<Data>,
  channel: string,
  apply: (draft: Parameters<Parameters<CacheEntryLifecycle<Data>['updateCachedData']>[0]>[0], payload: Payload) => void,
) {
  if (companyOf(lifecycle.getState()) === undefined) return Promise.resolve();
  return streamSocketEvent<Data, Payload>(lifecycle, { channel }, apply);
}

function upsert<T extends { id: number }>(rows: T[], row: T, insert: boolean): void {
  const index = rows.findIndex((item) => item.id === row.id);
  if (index >= 0) rows[index] = row;
  else if (insert) rows.push(row);
}

function remove<T extends { id: number }>(rows: T[], id: number | undefined): void {
  const index = rows.findIndex((item) => item.id === id);
  if (index >= 0) rows.splice(index, 1);
}

/** The flow builder's calls (docs/product/automation.md#calls-and-realtime-events) on the shell's api, kept live. */
export const flowbuilderApi = api.enhanceEndpoints({ addTagTypes: [...TAGS] }).injectEndpoints({
  endpoints: (build) => ({
    queueIntegrations: build.query<IntegrationPage, { searchParam: string; pageNumber: number }>({
      query: ({ searchParam, pageNumber }) => ({
        url: '/queueIntegration',
        params: { searchParam: searchParam || undefined, pageNumber },
      }),
      serializeQueryArgs: ({ queryArgs }) => `queueIntegrations(${queryArgs.searchParam})`,
      merge: (current, incoming, { arg }) => {
        if (arg.pageNumber <= 1) return incoming;
        const known = new Set(current.queueIntegrations.map((row) => row.id));
        return {
          hasMore: incoming.hasMore,
          queueIntegrations: [...current.queueIntegrations, ...incoming.queueIntegrations.filter((row) => !known.has(row.id))],
        };
      },
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
      providesTags: [{ type: 'QueueIntegration', id: 'LIST' }],
      onCacheEntryAdded: (args, lifecycle) =>
        follow<IntegrationPage, IntegrationEvent>(lifecycle, 'queueIntegration', (draft, event) => {
          if (event.action === 'delete') remove(draft.queueIntegrations, event.integrationId);
          else if (event.queueIntegration) {
            const needle = args.searchParam.trim().toLowerCase();
            if (!needle || event.queueIntegration.name.toLowerCase().includes(needle)) {
              upsert(draft.queueIntegrations, event.queueIntegration, event.action === 'create');
            }
          }
        }),
    }),
    createQueueIntegration: build.mutation<QueueIntegration, IntegrationBody>({
      query: (body) => ({ url: '/queueIntegration', method: 'POST', body }),
      invalidatesTags: [{ type: 'QueueIntegration', id: 'LIST' }],
    }),
    updateQueueIntegration: build.mutation<QueueIntegration, { id: number; body: IntegrationBody }>({
      query: ({ id, body }) => ({ url: `/queueIntegration/${id}`, method: 'PUT', body }),
      invalidatesTags: [{ type: 'QueueIntegration', id: 'LIST' }],
    }),
    deleteQueueIntegration: build.mutation<void, number>({
      query: (id) => ({ url: `/queueIntegration/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'QueueIntegration', id: 'LIST' }],
    }),
    testSession: build.mutation<
      { ok: boolean; messages: string[] },
      { jsonContent?: string; language?: string; projectName?: string; integrationId?: number }
    >({
      query: (body) => ({ url: '/queueIntegration/testSession', method: 'POST', body }),
    }),

    flows: build.query<{ flows: Flow[]; hasMore: boolean }, string>({
      query: (searchParam) => ({ url: '/flowbuilder', params: { searchParam: searchParam || undefined } }),
      providesTags: [{ type: 'Flow', id: 'LIST' }],
    }),
    flowList: build.query<FlowPage, { searchParam: string; pageNumber: number }>({
      query: ({ searchParam, pageNumber }) => ({
        url: '/flowbuilder',
        params: { searchParam: searchParam || undefined, pageNumber },
      }),
      serializeQueryArgs: ({ queryArgs }) => `flowList(${queryArgs.searchParam})`,
      merge: (current, incoming, { arg }) => {
        if (arg.pageNumber <= 1) return incoming;
        const known = new Set(current.flows.map((row) => row.id));
        return { hasMore: incoming.hasMore, flows: [...current.flows, ...incoming.flows.filter((row) => !known.has(row.id))] };
      },
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
      // other admins' changes arrive on the company's `flowbuilder` channel
      onCacheEntryAdded: (args, lifecycle) =>
        follow<FlowPage, FlowEvent>(lifecycle, 'flowbuilder', (draft, event) => {
          if (event.action === 'delete') remove(draft.flows, event.flowId);
          else if (event.flow) {
            const needle = args.searchParam.trim().toLowerCase();
            const row = draft.flows.find((item) => item.id === event.flow?.id);
            if (row) Object.assign(row, { name: event.flow.name, active: event.flow.active });
            else if (event.action === 'create' && (!needle || event.flow.name.toLowerCase().includes(needle))) {
              insertSorted(draft.flows, event.flow);
            }
          }
        }),
    }),
    createFlow: build.mutation<Flow, { name: string }>({
      query: (body) => ({ url: '/flowbuilder', method: 'POST', body }),
      invalidatesTags: [{ type: 'Flow', id: 'LIST' }],
      onQueryStarted: (_arg, { dispatch, getState, queryFulfilled }) =>
        queryFulfilled.then(({ data }) => patchFlowLists(dispatch, getState, (rows) => insertSorted(rows, data)), noop),
    }),
    renameFlow: build.mutation<Flow, { flowId: number; name: string }>({
      query: (body) => ({ url: '/flowbuilder', method: 'PUT', body }),
      invalidatesTags: [{ type: 'Flow', id: 'LIST' }],
      onQueryStarted: (arg, { dispatch, getState, queryFulfilled }) =>
        queryFulfilled.then(
          () =>
            patchFlowLists(dispatch, getState, (rows) => {
              const row = rows.find((item) => item.id === arg.flowId);
              if (row) row.name = arg.name;
            }),
          noop,
        ),
    }),
    deleteFlow: build.mutation<void, number>({
      query: (id) => ({ url: `/flowbuilder/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Flow', id: 'LIST' }],
      onQueryStarted: (id, { dispatch, getState, queryFulfilled }) =>
        queryFulfilled.then(() => patchFlowLists(dispatch, getState, (rows) => remove(rows, id)), noop),
    }),
    duplicateFlow: build.mutation<Flow, number>({
      query: (flowId) => ({ url: '/flowbuilder/duplicate', method: 'POST', body: { flowId } }),
      invalidatesTags: [{ type: 'Flow', id: 'LIST' }],
      onQueryStarted: (_arg, { dispatch, getState, queryFulfilled }) =>
        queryFulfilled.then(({ data }) => patchFlowLists(dispatch, getState, (rows) => insertSorted(rows, data)), noop),
    }),
    flowDocument: build.query<FlowWithDocument, number>({
      query: (id) => `/flowbuilder/flow/${id}`,
      transformResponse: (answer: { flow: Omit<FlowWithDocument, 'openaiAvailable'>; openaiAvailable: boolean }) => ({
        ...answer.flow,
        openaiAvailable: answer.openaiAvailable === true,
      }),
      // the editor keeps its own copy while editing: a stale cached document must never replace it
      keepUnusedDataFor: 0,
    }),
    saveFlowDocument: build.mutation<
      unknown,
      { idFlow: number; nodes: FlowDocumentNode[]; connections: FlowDocumentConnection[] }
    >({
      query: (body) => ({ url: '/flowbuilder/flow', method: 'POST', body }),
    }),
    uploadFlowMedia: build.mutation<string, { kind: keyof typeof UPLOAD_PATHS; file: File }>({
      query: ({ kind, file }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: UPLOAD_PATHS[kind], method: 'POST', body };
      },
      transformResponse: storedName,
    }),
    flowRun: build.query<FlowRun, number>({
      query: (ticketId) => `/flowbuilder/runs/${ticketId}`,
    }),
    flowQueueChoices: build.query<QueueChoice[], void>({
      query: () => '/queue',
    }),
    connectionChoices: build.query<Connection[], void>({
      query: () => '/whatsapp',
    }),
    flowCampaigns: build.query<{ flow: FlowCampaign[] }, void>({
      query: () => '/flowcampaign',
      providesTags: [{ type: 'FlowCampaign', id: 'LIST' }],
      onCacheEntryAdded: (_args, lifecycle) =>
        follow<{ flow: FlowCampaign[] }, CampaignEvent>(lifecycle, 'flowCampaign', (draft, event) => {
          if (event.action === 'delete') remove(draft.flow, event.id);
          else if (event.record) upsert(draft.flow, event.record, event.action === 'create');
        }),
    }),
    createFlowCampaign: build.mutation<FlowCampaign, FlowCampaignBody>({
      query: (body) => ({ url: '/flowcampaign', method: 'POST', body }),
      invalidatesTags: [{ type: 'FlowCampaign', id: 'LIST' }],
    }),
    updateFlowCampaign: build.mutation<FlowCampaign, FlowCampaignBody & { id: number }>({
      query: (body) => ({ url: '/flowcampaign', method: 'PUT', body }),
      invalidatesTags: [{ type: 'FlowCampaign', id: 'LIST' }],
    }),
    deleteFlowCampaign: build.mutation<void, number>({
      query: (id) => ({ url: `/flowcampaign/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'FlowCampaign', id: 'LIST' }],
    }),
  }),
});

// failures are the caller's to show (its unwrap rejects)
function noop() {}

/** A new flow in a list sorted as the server sorts it (by name, then id). */
function insertSorted(rows: Flow[], flow: Flow): void {
  if (!flow || typeof flow.id !== 'number' || rows.some((row) => row.id === flow.id)) return;
  const at = rows.findIndex((row) => row.name.localeCompare(flow.name) > 0);
  rows.splice(at < 0 ? rows.length : at, 0, { active: false, ...flow });
}

/**
 * Applies a change to every cached page set of the flow list (each search has its own): the infinite list
 * keeps its pages and scroll position instead of starting again from page 1.
 */
function patchFlowLists(dispatch: (action: unknown) => unknown, getState: () => unknown, recipe: (rows: Flow[]) => void): void {
  // biome-ignore lint/suspicious/noExplicitAny: the shell's root state type is not the injected api's
  const state = getState() as any;
  for (const args of flowbuilderApi.util.selectCachedArgsForQuery(state, 'flowList')) {
    dispatch(flowbuilderApi.util.updateQueryData('flowList', args, (draft) => recipe(draft.flows)));
  }
}

export const {
  useQueueIntegrationsQuery,
  useCreateQueueIntegrationMutation,
  useUpdateQueueIntegrationMutation,
  useDeleteQueueIntegrationMutation,
  useTestSessionMutation,
  useFlowsQuery,
  useFlowListQuery,
  useCreateFlowMutation,
  useRenameFlowMutation,
  useDeleteFlowMutation,
  useDuplicateFlowMutation,
  useFlowDocumentQuery,
  useSaveFlowDocumentMutation,
  useUploadFlowMediaMutation,
  useFlowRunQuery,
  useLazyFlowRunQuery,
  useFlowQueueChoicesQuery,
  useConnectionChoicesQuery,
  useFlowCampaignsQuery,
  useCreateFlowCampaignMutation,
  useUpdateFlowCampaignMutation,
  useDeleteFlowCampaignMutation,
} = flowbuilderApi;
