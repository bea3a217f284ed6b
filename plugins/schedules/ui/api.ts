import { api, type SessionState, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type { ContactChoice, Ref, Schedule, ScheduleBody } from './types';

/** `company{id}-schedule` (docs/product/automation.md#states-and-transitions): a schedule created, changed or deleted. */
export interface ScheduleEvent {
  action: 'create' | 'update' | 'delete';
  schedule?: Schedule;
  scheduleId?: number;
}

/** The event name of the company's schedules, spelled without a hyphen after "company". */
export const scheduleEvent = (companyId: number) => `company${companyId}-schedule`;

export interface RangeArgs {
  /** ISO instants: the calendar's visible range. */
  start: string;
  end: string;
}

interface SchedulePage {
  schedules: Schedule[];
  count: number;
  hasMore: boolean;
}

/** Pages read for one range at most (200 each): a busier range shows its first 2,000. */
const MAX_PAGES = 10;

const companyOf = (state: unknown) => (state as { session?: SessionState }).session?.user?.companyId;

function apply(draft: Schedule[], event: ScheduleEvent, keep: (schedule: Schedule) => boolean): void {
  const id = event.schedule?.id ?? event.scheduleId;
  const index = draft.findIndex((row) => row.id === id);
  if (event.action === 'delete' || (event.schedule && !keep(event.schedule))) {
    if (index >= 0) draft.splice(index, 1);
    return;
  }
  if (!event.schedule) return;
  if (index >= 0) draft[index] = event.schedule;
  else draft.push(event.schedule);
}

/** The schedules' calls (docs/product/automation.md#calls-and-realtime-events) on the shell's one API, kept live. */
export const schedulesApi = api.enhanceEndpoints({ addTagTypes: ['Schedule'] }).injectEndpoints({
  endpoints: (build) => ({
    /** Every schedule of a range (the calendar's view), page after page. */
    schedulesInRange: build.query<Schedule[], RangeArgs>({
      async queryFn({ start, end }, _api, _extra, baseQuery) {
        const rows: Schedule[] = [];
        for (let pageNumber = 1; pageNumber <= MAX_PAGES; pageNumber++) {
          const result = await baseQuery({ url: '/schedules', params: { start, end, pageNumber } });
          if (result.error) return { error: result.error };
          const page = result.data as SchedulePage;
          rows.push(...page.schedules);
          if (!page.hasMore) break;
        }
        return { data: rows };
      },
      providesTags: [{ type: 'Schedule', id: 'LIST' }],
      onCacheEntryAdded: ({ start, end }, lifecycle) => {
        const companyId = companyOf(lifecycle.getState());
        if (companyId === undefined) return Promise.resolve();
        const from = new Date(start).getTime();
        const to = new Date(end).getTime();
        return streamSocketEvent<Schedule[], ScheduleEvent>(lifecycle, { event: scheduleEvent(companyId) }, (draft, event) =>
          apply(draft, event, (schedule) => {
            const at = new Date(schedule.sendAt).getTime();
            return at >= from && at < to;
          }),
        );
      },
    }),
    /** A contact's schedules (the ticket view's list). */
    contactSchedules: build.query<Schedule[], number>({
      query: (contactId) => ({ url: '/schedules', params: { contactId, pageNumber: 1 } }),
      transformResponse: (response: SchedulePage) => response.schedules,
      providesTags: [{ type: 'Schedule', id: 'LIST' }],
      onCacheEntryAdded: (contactId, lifecycle) => {
        const companyId = companyOf(lifecycle.getState());
        if (companyId === undefined) return Promise.resolve();
        return streamSocketEvent<Schedule[], ScheduleEvent>(lifecycle, { event: scheduleEvent(companyId) }, (draft, event) =>
          apply(draft, event, (schedule) => schedule.contactId === contactId),
        );
      },
    }),
    createSchedule: build.mutation<Schedule, ScheduleBody>({
      query: (body) => ({ url: '/schedules', method: 'POST', body }),
      invalidatesTags: [{ type: 'Schedule', id: 'LIST' }],
    }),
    updateSchedule: build.mutation<Schedule, { id: number; body: ScheduleBody }>({
      query: ({ id, body }) => ({ url: `/schedules/${id}`, method: 'PUT', body }),
      invalidatesTags: [{ type: 'Schedule', id: 'LIST' }],
    }),
    deleteSchedule: build.mutation<void, number>({
      query: (id) => ({ url: `/schedules/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Schedule', id: 'LIST' }],
    }),
    uploadScheduleMedia: build.mutation<Schedule, { id: number; file: File }>({
      query: ({ id, file }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: `/schedules/${id}/media-upload`, method: 'POST', body };
      },
      invalidatesTags: [{ type: 'Schedule', id: 'LIST' }],
    }),
    deleteScheduleMedia: build.mutation<Schedule, number>({
      query: (id) => ({ url: `/schedules/${id}/media-upload`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Schedule', id: 'LIST' }],
    }),

    scheduleContactChoices: build.query<ContactChoice[], string>({
      query: (searchParam) => ({ url: '/contacts', params: { searchParam, pageNumber: 1 } }),
      transformResponse: (response: { contacts: ContactChoice[] }) => response.contacts,
    }),
    scheduleContact: build.query<ContactChoice, number>({
      query: (id) => `/contacts/${id}`,
    }),
    scheduleConnections: build.query<Ref[], void>({
      query: () => '/whatsapp',
    }),
    scheduleQueues: build.query<Ref[], void>({
      query: () => '/queue',
    }),
    scheduleUsers: build.query<Ref[], void>({
      query: () => '/users/list',
    }),
  }),
});

export const {
  useSchedulesInRangeQuery,
  useContactSchedulesQuery,
  useCreateScheduleMutation,
  useUpdateScheduleMutation,
  useDeleteScheduleMutation,
  useUploadScheduleMediaMutation,
  useDeleteScheduleMediaMutation,
  useScheduleContactChoicesQuery,
  useScheduleContactQuery,
  useScheduleConnectionsQuery,
  useScheduleQueuesQuery,
  useScheduleUsersQuery,
} = schedulesApi;
