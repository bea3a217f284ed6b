import { api, type CacheEntryLifecycle, type SessionState, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type { Connection, Flow, FlowCampaign, FlowCampaignBody, IntegrationBody, QueueIntegration } from './types';

const TAGS = ['QueueIntegration', 'FlowCampaign'] as const;

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

export const {
  useQueueIntegrationsQuery,
  useCreateQueueIntegrationMutation,
  useUpdateQueueIntegrationMutation,
  useDeleteQueueIntegrationMutation,
  useTestSessionMutation,
  useFlowsQuery,
  useConnectionChoicesQuery,
  useFlowCampaignsQuery,
  useCreateFlowCampaignMutation,
  useUpdateFlowCampaignMutation,
  useDeleteFlowCampaignMutation,
} = flowbuilderApi;
