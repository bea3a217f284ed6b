import { api } from '@balcao/plugin-sdk/ui';

/** Facebook Login's settings (`GET /meta/facebook/login`). */
export interface LoginSettings {
  /** False when the server has no Meta app. */
  configured: boolean;
  appId: string | null;
  sdkUrl: string;
  graphVersion: string;
}

/** A page a Facebook Login token manages (`POST /meta/facebook/pages`). */
export interface FoundPage {
  id: string;
  name: string;
  instagram: { id: string; username: string } | null;
  connected: { facebook: boolean; instagram: boolean };
}

/** A connection `POST /facebook` made. */
export interface CreatedConnection {
  id: number;
  name: string;
  channel: string;
  number: string;
}

/** A ticket's 24-hour window on WhatsApp Cloud (`GET /meta/tickets/:ticketId/window`). */
export interface TicketWindow {
  windowed: boolean;
  open: boolean;
  whatsappId: number | null;
  lastInboundAt: string | null;
  closesAt: string | null;
}

/** An approved WhatsApp template (`GET /meta/whatsappapi/:whatsappId/templates`). */
export interface Template {
  name: string;
  language: string;
  category: string;
  body: string;
  variables: number;
}

/** The Meta plugin's calls (docs/meta.md) on the shell's api. */
export const metaApi = api.enhanceEndpoints({ addTagTypes: ['MetaWindow'] }).injectEndpoints({
  endpoints: (build) => ({
    metaLoginSettings: build.query<LoginSettings, void>({ query: () => '/meta/facebook/login' }),
    metaFacebookPages: build.mutation<{ pages: FoundPage[] }, { facebookUserToken: string }>({
      query: (body) => ({ url: '/meta/facebook/pages', method: 'POST', body }),
    }),
    connectFacebook: build.mutation<
      { connections: CreatedConnection[] },
      { facebookUserId: string; facebookUserToken: string; pageIds: string[]; addInstagram: boolean }
    >({
      query: (body) => ({ url: '/facebook', method: 'POST', body }),
    }),
    metaTicketWindow: build.query<TicketWindow, { ticketId: number; updatedAt: string }>({
      // the ticket's updatedAt moves with each of its messages: a customer's new one may reopen the window
      query: ({ ticketId }) => `/meta/tickets/${ticketId}/window`,
      providesTags: (_result, _error, { ticketId }) => [{ type: 'MetaWindow', id: ticketId }],
    }),
    metaTemplates: build.query<{ templates: Template[] }, number>({
      query: (whatsappId) => `/meta/whatsappapi/${whatsappId}/templates`,
    }),
    sendMetaTemplate: build.mutation<
      { messageId: number },
      { whatsappId: number; ticketId: number; name: string; language: string; variables: string[] }
    >({
      query: ({ whatsappId, ...body }) => ({ url: `/meta/whatsappapi/${whatsappId}/templates/send`, method: 'POST', body }),
      invalidatesTags: (_result, _error, { ticketId }) => [{ type: 'MetaWindow', id: ticketId }],
    }),
  }),
});

export const {
  useMetaLoginSettingsQuery,
  useMetaFacebookPagesMutation,
  useConnectFacebookMutation,
  useMetaTicketWindowQuery,
  useMetaTemplatesQuery,
  useSendMetaTemplateMutation,
} = metaApi;
