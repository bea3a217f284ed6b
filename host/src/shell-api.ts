import { type AuthResponse, api, type PluginListing } from '@balcao/plugin-sdk/ui';

/** A public plan as `GET /plans/list` answers it (the signup's plan select). */
export interface PublicPlan {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  amount: string;
}

/** The login body (docs/product/tickets-and-inbox.md#calls-and-realtime-events): the e-mail lowercased; `remember` makes the refresh cookie persistent. */
export interface LoginRequest {
  email: string;
  password: string;
  remember: boolean;
}

/** The signup body (docs/product/tickets-and-inbox.md#calls-and-realtime-events, docs/product/administration.md#entities). */
export interface SignupRequest {
  name: string;
  email: string;
  password: string;
  phone: string;
  companyId: number | null;
  companyName: string;
  planId: number;
}

/** What a signup answers. */
export interface SignupResult {
  companyId: number;
  userId: number;
  dueDate: string;
}

/** The calls of the shell itself: session, signup, password reset, version, public settings, plugins. */
export const shellApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<AuthResponse, LoginRequest>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    logout: build.mutation<null, void>({
      query: () => ({ url: '/auth/logout', method: 'DELETE' }),
    }),
    signup: build.mutation<SignupResult, SignupRequest>({
      query: (body) => ({ url: '/auth/signup', method: 'POST', body }),
    }),
    listPublicPlans: build.query<PublicPlan[], void>({
      query: () => '/plans/list',
    }),
    getPublicSetting: build.query<string, string>({
      query: (key) => `/public-settings/${encodeURIComponent(key)}`,
    }),
    /** The login page's support chat: the widget to open, or nulls (no button); docs/channels/widget.md. */
    getSupportChat: build.query<{ widgetKey: string | null; scriptUrl: string | null }, void>({
      query: () => '/support-chat',
    }),
    getVersion: build.query<{ version: string }, void>({
      query: () => '/version',
    }),
    listPlugins: build.query<{ plugins: PluginListing[] }, void>({
      query: () => '/plugins',
    }),
    requestPasswordReset: build.mutation<{ status: 'sent' }, string>({
      query: (email) => ({ url: `/forgetpassword/${encodeURIComponent(email)}`, method: 'POST' }),
    }),
    resetPassword: build.mutation<{ status: 'reset' }, { email: string; code: string; newPassword: string }>({
      query: ({ email, code, newPassword }) => ({
        url: `/resetpasswords/${encodeURIComponent(email)}/${encodeURIComponent(code)}/${encodeURIComponent(newPassword)}`,
        method: 'POST',
      }),
    }),
  }),
});

export const {
  useLoginMutation,
  useLogoutMutation,
  useSignupMutation,
  useListPublicPlansQuery,
  useGetPublicSettingQuery,
  useGetSupportChatQuery,
  useGetVersionQuery,
  useListPluginsQuery,
  useRequestPasswordResetMutation,
  useResetPasswordMutation,
} = shellApi;
