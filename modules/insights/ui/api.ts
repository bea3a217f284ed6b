import { api, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type {
  DashboardResponse,
  MomentsEvent,
  MomentTicket,
  MomentUser,
  ReportResponse,
  TicketsDayResponse,
  TicketsUsersResponse,
} from '../shared/types';

/** The insights' calls, in the shell's one RTK Query cache (docs/insights.md "API"). */

export interface RangeArgs {
  from: string;
  to: string;
}

/** The report's query, as `GET /ticketreport/reports` and its export read it. */
export interface ReportArgs {
  dateFrom: string;
  dateTo: string;
  searchParam?: string;
  status?: string[];
  queueIds?: number[];
  users?: number[];
  whatsappId?: number;
  tags?: number[];
  nps?: string[];
  onlyRated?: boolean;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** The report's filters as query parameters (lists as JSON arrays, as docs/product/administration.md#calls-and-realtime-events has them). */
export function reportParams(args: Omit<ReportArgs, 'page' | 'pageSize'> & Partial<Pick<ReportArgs, 'page' | 'pageSize'>>) {
  const params = new URLSearchParams({ dateFrom: args.dateFrom, dateTo: args.dateTo });
  if (args.searchParam?.trim()) params.set('searchParam', args.searchParam.trim());
  const lists: Array<[string, Array<string | number> | undefined]> = [
    ['status', args.status],
    ['queueIds', args.queueIds],
    ['users', args.users],
    ['tags', args.tags],
    ['nps', args.nps],
  ];
  for (const [key, list] of lists) if (list?.length) params.set(key, JSON.stringify(list));
  if (args.whatsappId) params.set('whatsappId', String(args.whatsappId));
  if (args.onlyRated) params.set('onlyRated', 'true');
  if (args.sortBy) params.set('sortBy', args.sortBy);
  if (args.sortOrder) params.set('sortOrder', args.sortOrder);
  if (args.page) params.set('page', String(args.page));
  if (args.pageSize) params.set('pageSize', String(args.pageSize));
  return params;
}

export interface NamedOption {
  id: number;
  name: string;
  color?: string;
}

export interface TicketLogEntry {
  id: number;
  type: string;
  user: { id: number; name: string } | null;
  queue: { id: number; name: string; color: string } | null;
  createdAt: string;
}

export const insightsApi = api.enhanceEndpoints({ addTagTypes: ['InsightsDashboard'] }).injectEndpoints({
  endpoints: (build) => ({
    getDashboard: build.query<DashboardResponse, RangeArgs>({
      query: ({ from, to }) => `/dashboard?date_from=${from}&date_to=${to}`,
      providesTags: ['InsightsDashboard'],
    }),
    getTicketsDay: build.query<TicketsDayResponse, RangeArgs>({
      query: ({ from, to }) => `/dashboard/ticketsDay?initialDate=${from}&finalDate=${to}`,
      providesTags: ['InsightsDashboard'],
    }),
    getTicketsUsers: build.query<TicketsUsersResponse, RangeArgs>({
      query: ({ from, to }) => `/dashboard/ticketsUsers?initialDate=${from}&finalDate=${to}`,
      providesTags: ['InsightsDashboard'],
    }),
    getTimeZone: build.query<{ timezone: string }, void>({
      query: () => '/dashboard/timezone',
      providesTags: ['InsightsDashboard'],
    }),
    setTimeZone: build.mutation<{ timezone: string }, string>({
      query: (timezone) => ({ url: '/dashboard/timezone', method: 'PUT', body: { timezone } }),
      invalidatesTags: ['InsightsDashboard'],
    }),
    getReport: build.query<ReportResponse, ReportArgs>({
      query: (args) => `/ticketreport/reports?${reportParams(args).toString()}`,
    }),
    // the report's pickers read the inbox's and the channels' lists
    listReportQueues: build.query<NamedOption[], void>({ query: () => '/queue' }),
    listReportUsers: build.query<NamedOption[], void>({ query: () => '/users/list' }),
    listReportTags: build.query<NamedOption[], void>({ query: () => '/tags/list' }),
    // connections belong to the channels plugin: without it (or without access) the filter simply has none
    listReportConnections: build.query<NamedOption[], void>({
      queryFn: async (_arg, _api, _extra, baseQuery) => {
        const result = await baseQuery('/whatsapp');
        if (result.error || !Array.isArray(result.data)) return { data: [] };
        return { data: result.data as NamedOption[] };
      },
    }),
    getTicketLog: build.query<TicketLogEntry[], number>({ query: (ticketId) => `/tickets-log/${ticketId}` }),
    getMoments: build.query<MomentTicket[], void>({
      query: () => '/dashboard/moments',
      transformResponse: (response: { tickets: MomentTicket[] }) => response.tickets,
      async onCacheEntryAdded(_arg, lifecycle) {
        await Promise.all([
          streamSocketEvent<MomentTicket[], MomentsEvent>(lifecycle, { channel: 'moments' }, (draft, event) => {
            const index = draft.findIndex(
              (ticket) => ticket.id === (event.action === 'update' ? event.ticket.id : event.ticketId),
            );
            if (index >= 0) draft.splice(index, 1);
            if (event.action === 'update') draft.push(event.ticket);
          }),
          // a ticket deleted through the inbox's route leaves the panel too
          streamSocketEvent<MomentTicket[], { action?: string; ticketId?: number }>(
            lifecycle,
            { channel: 'ticket' },
            (draft, event) => {
              if (event.action !== 'delete') return;
              const index = draft.findIndex((ticket) => ticket.id === event.ticketId);
              if (index >= 0) draft.splice(index, 1);
            },
          ),
        ]);
      },
    }),
    getMomentUsers: build.query<MomentUser[], void>({
      query: () => '/usersMoments',
      transformResponse: (response: { users: MomentUser[] }) => response.users,
      async onCacheEntryAdded(_arg, lifecycle) {
        // the core's online pings and the administration's user events
        await streamSocketEvent<
          MomentUser[],
          { action?: string; user?: Partial<MomentUser> & { id: number }; id?: number; online?: boolean }
        >(lifecycle, { channel: 'user' }, (draft, event) => {
          const id = event.user?.id ?? event.id;
          const user = draft.find((row) => row.id === id);
          if (!user) return;
          const online = event.user?.online ?? event.online;
          if (typeof online === 'boolean') user.online = online;
          if (event.user?.name) user.name = event.user.name;
        });
      },
    }),
  }),
});

export const {
  useGetDashboardQuery,
  useGetTicketsDayQuery,
  useGetTicketsUsersQuery,
  useGetTimeZoneQuery,
  useSetTimeZoneMutation,
  useGetReportQuery,
  useListReportQueuesQuery,
  useListReportUsersQuery,
  useListReportTagsQuery,
  useListReportConnectionsQuery,
  useGetTicketLogQuery,
  useGetMomentsQuery,
  useGetMomentUsersQuery,
} = insightsApi;
