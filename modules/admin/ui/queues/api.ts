import { api, type SessionState, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type { AdminQueueShape, ChatbotOption, ChatbotQueueType, CompanySchedulesShape, ServiceHours } from '../../shared/queues';

/** The queues area's calls (docs/product/administration.md#calls-and-realtime-events Queues, Chatbot, company schedules), in the shell's one cache. */

export type { AdminQueueShape, ChatbotOption, ChatbotQueueType, CompanySchedulesShape, ServiceHours };

/** A row of the Queues page: the documented `GET /queue` (the inbox's list, shared with every picker). */
export type QueueRow = Pick<AdminQueueShape, 'id' | 'name' | 'color' | 'orderQueue'> & { greetingMessage: string | null };

/** An option as the dialog edits it: ids only for options that exist; the tree nests under `options`. */
export interface OptionDraft {
  id?: number;
  /** A key for React lists that new options (without an id) keep while edited. */
  key: string;
  name: string;
  greetingMessage: string;
  queueType: ChatbotQueueType;
  optQueueId: number | null;
  optUserId: number | null;
  optIntegrationId: number | null;
  optFileId: number | null;
  closeTicket: boolean;
  options: OptionDraft[];
}

/** The body of POST and PUT /queue. */
export interface QueueBody {
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: number | null;
  tempoRoteador: number;
  ativarRoteador: boolean;
  closeTicket: boolean;
  /** The queue integration that answers the queue's tickets instead of its menu (null: none). */
  integrationId: number | null;
  schedules: ServiceHours[];
  chatbots: Array<Omit<OptionDraft, 'key' | 'options'> & { options: unknown[] }>;
}

/** `company-{id}-queue` (docs/product/tickets-and-inbox.md#calls-and-realtime-events): a queue changed (or was created) or was deleted. */
export type QueueEvent = { action: 'update' | 'create'; queue: AdminQueueShape } | { action: 'delete'; queueId: number };

const companyIdOf = (state: unknown) => (state as { session?: SessionState }).session?.user?.companyId;

/** Applies a queue event to the page's rows, kept in menu order (order, then name). */
export function applyQueueEvent(rows: QueueRow[], event: QueueEvent): QueueRow[] {
  if (event.action === 'delete') return rows.filter((row) => row.id !== event.queueId);
  const { id, name, color, orderQueue, greetingMessage } = event.queue;
  const row: QueueRow = { id, name, color, orderQueue, greetingMessage };
  const next = rows.some((existing) => existing.id === row.id)
    ? rows.map((existing) => (existing.id === row.id ? row : existing))
    : [...rows, row];
  return next.sort(
    (a, b) =>
      (a.orderQueue ?? Number.MAX_SAFE_INTEGER) - (b.orderQueue ?? Number.MAX_SAFE_INTEGER) ||
      a.name.localeCompare(b.name) ||
      a.id - b.id,
  );
}

/** The inbox's `GET /queue` (pickers, filters) shows the same queues: its cache follows our writes. */
const INBOX_QUEUE_LIST = { type: 'Queue', id: 'LIST' } as const;

export const queuesApi = api.enhanceEndpoints({ addTagTypes: ['AdminQueue', 'Queue', 'CompanySchedules'] }).injectEndpoints({
  endpoints: (build) => ({
    /** `GET /queue`: the page's rows, kept live by `company-{id}-queue`. */
    listAdminQueues: build.query<QueueRow[], void>({
      query: () => '/queue',
      providesTags: [{ type: 'AdminQueue', id: 'LIST' }],
      async onCacheEntryAdded(_arg, lifecycle) {
        if (companyIdOf(lifecycle.getState()) === undefined) return;
        await streamSocketEvent<QueueRow[], QueueEvent>(lifecycle, { channel: 'queue' }, (draft, event) => {
          const next = applyQueueEvent([...(draft as QueueRow[])], event);
          draft.splice(0, draft.length, ...next);
        });
      },
    }),

    /** `GET /queue/:queueId`: one queue with its option tree, for the dialog. */
    getAdminQueue: build.query<AdminQueueShape, number>({
      query: (id) => `/queue/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'AdminQueue', id }],
    }),

    createAdminQueue: build.mutation<AdminQueueShape, QueueBody>({
      query: (body) => ({ url: '/queue', method: 'POST', body }),
      invalidatesTags: [{ type: 'AdminQueue', id: 'LIST' }, INBOX_QUEUE_LIST],
    }),

    updateAdminQueue: build.mutation<AdminQueueShape, Partial<QueueBody> & { id: number }>({
      query: ({ id, ...body }) => ({ url: `/queue/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'AdminQueue', id },
        { type: 'AdminQueue', id: 'LIST' },
        INBOX_QUEUE_LIST,
      ],
    }),

    deleteAdminQueue: build.mutation<void, number>({
      query: (id) => ({ url: `/queue/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'AdminQueue', id: 'LIST' }, INBOX_QUEUE_LIST],
    }),

    /**
     * The flow builder's `GET /queueIntegration` (first 20 by name): what a queue or an integration option
     * may hand a ticket to. Asked only with useIntegrations.
     */
    listQueueIntegrationOptions: build.query<Array<{ id: number; name: string }>, void>({
      query: () => '/queueIntegration',
      transformResponse: (page: { queueIntegrations: Array<{ id: number; name: string }> }) =>
        page.queueIntegrations.map(({ id, name }) => ({ id, name })),
    }),

    /** `GET /users/list`: who an attendent option may hand a ticket to. */
    listQueueUserOptions: build.query<Array<{ id: number; name: string }>, void>({
      query: () => '/users/list',
    }),

    /** `GET /companies/:companyId/schedules`: the Settings page's Schedules tab. */
    getCompanySchedules: build.query<CompanySchedulesShape, number>({
      query: (companyId) => `/companies/${companyId}/schedules`,
      providesTags: ['CompanySchedules'],
    }),

    updateCompanySchedules: build.mutation<CompanySchedulesShape, CompanySchedulesShape & { companyId: number }>({
      query: ({ companyId, ...body }) => ({ url: `/companies/${companyId}/schedules`, method: 'PUT', body }),
      invalidatesTags: ['CompanySchedules'],
    }),
  }),
});

export const {
  useListAdminQueuesQuery,
  useGetAdminQueueQuery,
  useCreateAdminQueueMutation,
  useUpdateAdminQueueMutation,
  useDeleteAdminQueueMutation,
  useListQueueUserOptionsQuery,
  useListQueueIntegrationOptionsQuery,
  useGetCompanySchedulesQuery,
  useUpdateCompanySchedulesMutation,
} = queuesApi;
