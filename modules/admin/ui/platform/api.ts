import { api, type PlanFlag, streamSocketEvent } from '@balcao/plugin-sdk/ui';

/** A plan (docs/product/administration.md#entities Plan); `amount` as the API sends it (decimal text). */
export type Plan = {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  amount: string;
  isPublic: boolean;
  /** The loaded plugins' own flags, each on or off (labels from `GET /plans/flags`). */
  pluginFlags: Record<string, boolean>;
} & Record<PlanFlag, boolean>;

/** A flag a plugin declares for itself, with its label in each language. */
export interface PluginPlanFlagInfo {
  key: string;
  plugin: string;
  label: { pt: string; en: string; es: string; tr: string };
}

export type PlanBody = Omit<Plan, 'id' | 'amount'> & { amount: number };

/** docs/product/administration.md#states-and-transitions recurrences. */
export const RECURRENCES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
export type Recurrence = (typeof RECURRENCES)[number];

/** A company as the super user's screens show it. */
export interface Company {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  document: string | null;
  addressStreet: string | null;
  addressState: string | null;
  addressCity: string | null;
  planId: number;
  plan: { id: number; name: string; amount: string };
  status: boolean;
  dueDate: string;
  recurrence: string;
  paymentMethod: string | null;
  numberAttendants: number;
  numberConections: number;
  value: string | null;
  createdAt: string;
  updatedAt: string;
  lastLogin: string | null;
  folderSize: number;
  numberFileFolder: number;
  updatedAtFolder: string | null;
}

export interface CompanyBody {
  name: string;
  email: string;
  password?: string;
  phone?: string | null;
  document?: string | null;
  planId: number;
  status?: boolean;
  dueDate?: string;
  recurrence?: Recurrence;
  paymentMethod?: string | null;
  numberAttendants?: number;
  numberConections?: number;
  value?: number | null;
}

export interface Help {
  id: number;
  title: string;
  description: string;
  video: string;
  createdAt: string;
  updatedAt: string;
}

export type HelpBody = Pick<Help, 'title' | 'description' | 'video'>;

export interface Announcement {
  id: number;
  title: string;
  text: string;
  priority: number;
  status: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

export type AnnouncementBody = Pick<Announcement, 'title' | 'text' | 'priority' | 'status'>;

/** What `company-announcement` carries (docs/product/automation.md#states-and-transitions). */
export type AnnouncementEvent = { action: 'create' | 'update'; record: Announcement } | { action: 'delete'; id: number };
export const ANNOUNCEMENT_EVENT = 'company-announcement';

export const WHITELABEL_KEYS = [
  'primaryColorLight',
  'primaryColorDark',
  'appName',
  'appLogoLight',
  'appLogoDark',
  'appLogoFavicon',
] as const;
export type WhitelabelKey = (typeof WHITELABEL_KEYS)[number];
export type Whitelabel = Record<WhitelabelKey, string>;
export type LogoMode = 'Light' | 'Dark' | 'Favicon';

/** Where a stored whitelabel logo is served (no session needed: the login page shows it). */
export const logoUrl = (name: string) => `/api/settings-whitelabel/logo/${encodeURIComponent(name)}`;

/** The active announcements, most urgent first; a change keeps the list right. */
export function applyAnnouncement(list: Announcement[], event: AnnouncementEvent): void {
  const id = event.action === 'delete' ? event.id : event.record.id;
  const index = list.findIndex((item) => item.id === id);
  if (index >= 0) list.splice(index, 1);
  if (event.action !== 'delete' && event.record.status) {
    list.push(event.record);
    list.sort((a, b) => a.priority - b.priority || b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
  }
}

/** The platform area's calls (docs/product/administration.md#calls-and-realtime-events Companies, Plans, Helps, Whitelabel; docs/product/automation.md#calls-and-realtime-events Announcements). */
export const platformApi = api
  .enhanceEndpoints({ addTagTypes: ['PlatformCompany', 'PlatformPlan', 'Help', 'Announcement', 'Whitelabel'] })
  .injectEndpoints({
    endpoints: (build) => ({
      listCompanies: build.query<Company[], void>({
        query: () => '/companies/list',
        providesTags: [{ type: 'PlatformCompany', id: 'LIST' }],
      }),
      createCompany: build.mutation<Company, CompanyBody>({
        query: (body) => ({ url: '/companies', method: 'POST', body }),
        invalidatesTags: [{ type: 'PlatformCompany', id: 'LIST' }],
      }),
      updateCompany: build.mutation<Company, CompanyBody & { id: number }>({
        query: ({ id, ...body }) => ({ url: `/companies/${id}`, method: 'PUT', body }),
        invalidatesTags: [{ type: 'PlatformCompany', id: 'LIST' }],
      }),
      advanceDueDate: build.mutation<Company, number>({
        query: (id) => ({ url: `/companies/${id}/advance-due-date`, method: 'PUT' }),
        invalidatesTags: [{ type: 'PlatformCompany', id: 'LIST' }],
      }),
      deleteCompany: build.mutation<void, number>({
        query: (id) => ({ url: `/companies/${id}`, method: 'DELETE' }),
        invalidatesTags: [{ type: 'PlatformCompany', id: 'LIST' }],
      }),

      listPlans: build.query<Plan[], void>({
        query: () => '/plans/all',
        providesTags: [{ type: 'PlatformPlan', id: 'LIST' }],
      }),
      listPluginPlanFlags: build.query<{ flags: PluginPlanFlagInfo[] }, void>({ query: () => '/plans/flags' }),
      createPlan: build.mutation<Plan, PlanBody>({
        query: (body) => ({ url: '/plans', method: 'POST', body }),
        invalidatesTags: [{ type: 'PlatformPlan', id: 'LIST' }],
      }),
      updatePlan: build.mutation<Plan, PlanBody & { id: number }>({
        query: ({ id, ...body }) => ({ url: `/plans/${id}`, method: 'PUT', body }),
        // companies show their plan's name
        invalidatesTags: [
          { type: 'PlatformPlan', id: 'LIST' },
          { type: 'PlatformCompany', id: 'LIST' },
        ],
      }),
      deletePlan: build.mutation<void, number>({
        query: (id) => ({ url: `/plans/${id}`, method: 'DELETE' }),
        invalidatesTags: [{ type: 'PlatformPlan', id: 'LIST' }],
      }),

      listHelps: build.query<Help[], void>({
        query: () => '/helps/list',
        providesTags: [{ type: 'Help', id: 'LIST' }],
      }),
      createHelp: build.mutation<Help, HelpBody>({
        query: (body) => ({ url: '/helps', method: 'POST', body }),
        invalidatesTags: [{ type: 'Help', id: 'LIST' }],
      }),
      updateHelp: build.mutation<Help, HelpBody & { id: number }>({
        query: ({ id, ...body }) => ({ url: `/helps/${id}`, method: 'PUT', body }),
        invalidatesTags: [{ type: 'Help', id: 'LIST' }],
      }),
      deleteHelp: build.mutation<void, number>({
        query: (id) => ({ url: `/helps/${id}`, method: 'DELETE' }),
        invalidatesTags: [{ type: 'Help', id: 'LIST' }],
      }),

      /** Every announcement (the super user's page: `GET /announcements/`, first page of 20 is enough per search). */
      pageAnnouncements: build.query<
        { records: Announcement[]; count: number; hasMore: boolean },
        { searchParam: string; pageNumber: number }
      >({
        query: (params) => ({ url: '/announcements', params }),
        serializeQueryArgs: ({ endpointName, queryArgs }) => `${endpointName}(${JSON.stringify(queryArgs.searchParam)})`,
        merge: (current, incoming, { arg }) => {
          if (arg.pageNumber <= 1) return incoming;
          const known = new Set(current.records.map((row) => row.id));
          return { ...incoming, records: [...current.records, ...incoming.records.filter((row) => !known.has(row.id))] };
        },
        forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
        providesTags: [{ type: 'Announcement', id: 'LIST' }],
      }),
      /** The active announcements for the top bar, kept live over `company-announcement`. */
      activeAnnouncements: build.query<Announcement[], void>({
        query: () => '/announcements/list',
        providesTags: [{ type: 'Announcement', id: 'ACTIVE' }],
        onCacheEntryAdded: (_args, lifecycle) =>
          streamSocketEvent<Announcement[], AnnouncementEvent>(lifecycle, { event: ANNOUNCEMENT_EVENT }, applyAnnouncement),
      }),
      createAnnouncement: build.mutation<Announcement, AnnouncementBody>({
        query: (body) => ({ url: '/announcements', method: 'POST', body }),
        invalidatesTags: [{ type: 'Announcement', id: 'LIST' }],
      }),
      updateAnnouncement: build.mutation<Announcement, AnnouncementBody & { id: number }>({
        query: ({ id, ...body }) => ({ url: `/announcements/${id}`, method: 'PUT', body }),
        invalidatesTags: [{ type: 'Announcement', id: 'LIST' }],
      }),
      deleteAnnouncement: build.mutation<void, number>({
        query: (id) => ({ url: `/announcements/${id}`, method: 'DELETE' }),
        invalidatesTags: [{ type: 'Announcement', id: 'LIST' }],
      }),
      uploadAnnouncementImage: build.mutation<Announcement, { id: number; file: File }>({
        query: ({ id, file }) => {
          const form = new FormData();
          form.append('typeArch', 'announcements');
          form.append('file', file);
          return { url: `/announcements/${id}/media-upload`, method: 'POST', body: form };
        },
        invalidatesTags: [{ type: 'Announcement', id: 'LIST' }],
      }),
      removeAnnouncementImage: build.mutation<Announcement, number>({
        query: (id) => ({ url: `/announcements/${id}/media-upload`, method: 'DELETE' }),
        invalidatesTags: [{ type: 'Announcement', id: 'LIST' }],
      }),

      getWhitelabel: build.query<Whitelabel, void>({
        query: () => '/settings-whitelabel',
        providesTags: [{ type: 'Whitelabel', id: 'ALL' }],
      }),
      setWhitelabel: build.mutation<Whitelabel, { key: WhitelabelKey; value: string }>({
        query: ({ key, value }) => ({ url: `/settings-whitelabel/${key}`, method: 'PUT', body: { value } }),
        async onQueryStarted(_args, { dispatch, queryFulfilled }) {
          const { data } = await queryFulfilled.catch(() => ({ data: null }));
          if (data) applyWhitelabel(dispatch, data);
        },
      }),
      uploadLogo: build.mutation<string, { mode: LogoMode; file: File }>({
        query: ({ mode, file }) => {
          const form = new FormData();
          form.append('typeArch', 'logo');
          form.append('mode', mode);
          form.append('file', file);
          return { url: '/settings-whitelabel/logo', method: 'POST', body: form };
        },
        async onQueryStarted({ mode }, { dispatch, queryFulfilled, getState }) {
          const { data } = await queryFulfilled.catch(() => ({ data: null }));
          if (data === null) return;
          const current = platformApi.endpoints.getWhitelabel.select()(getState() as never).data;
          if (current) applyWhitelabel(dispatch, { ...current, [`appLogo${mode}`]: data });
        },
      }),
    }),
  });

/**
 * Applies saved whitelabel values at once: the super user's own list, and the shell's cached public
 * settings (`getPublicSetting`, which the theme, the title, the menu and the login page read), so the
 * new colours, name and logos show without a reload.
 */
function applyWhitelabel(dispatch: (action: unknown) => unknown, values: Whitelabel): void {
  dispatch(platformApi.util.upsertQueryData('getWhitelabel', undefined, values));
  const shell = api as unknown as {
    util: { upsertQueryData(endpoint: string, args: unknown, value: unknown): unknown };
    endpoints: Record<string, unknown>;
  };
  if (!shell.endpoints.getPublicSetting) return;
  for (const key of WHITELABEL_KEYS) dispatch(shell.util.upsertQueryData('getPublicSetting', key, values[key]));
}

export const {
  useListCompaniesQuery,
  useCreateCompanyMutation,
  useUpdateCompanyMutation,
  useAdvanceDueDateMutation,
  useDeleteCompanyMutation,
  useListPlansQuery,
  useListPluginPlanFlagsQuery,
  useCreatePlanMutation,
  useUpdatePlanMutation,
  useDeletePlanMutation,
  useListHelpsQuery,
  useCreateHelpMutation,
  useUpdateHelpMutation,
  useDeleteHelpMutation,
  usePageAnnouncementsQuery,
  useActiveAnnouncementsQuery,
  useCreateAnnouncementMutation,
  useUpdateAnnouncementMutation,
  useDeleteAnnouncementMutation,
  useUploadAnnouncementImageMutation,
  useRemoveAnnouncementImageMutation,
  useGetWhitelabelQuery,
  useSetWhitelabelMutation,
  useUploadLogoMutation,
} = platformApi;
