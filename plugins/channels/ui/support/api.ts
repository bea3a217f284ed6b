import { api } from '@balcao/plugin-sdk/ui';

/** A webchat connection of the platform company the super user may choose. */
export interface SupportChatOption {
  id: number;
  name: string;
  /** Empty: any origin. */
  allowedOrigins: string[];
}

/** `GET /support-chat/settings`: the chosen connection (null: none) and the choices. */
export interface SupportChatSettings {
  whatsappId: number | null;
  connections: SupportChatOption[];
}

/** The super user's choice of the login page's support chat (docs/channels/widget.md). */
export const supportChatApi = api.enhanceEndpoints({ addTagTypes: ['SupportChat'] }).injectEndpoints({
  endpoints: (build) => ({
    getSupportChatSettings: build.query<SupportChatSettings, void>({
      query: () => '/support-chat/settings',
      providesTags: ['SupportChat'],
    }),
    setSupportChat: build.mutation<SupportChatSettings, number | null>({
      query: (whatsappId) => ({ url: '/support-chat', method: 'PUT', body: { whatsappId } }),
      async onQueryStarted(_whatsappId, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(supportChatApi.util.upsertQueryData('getSupportChatSettings', undefined, data));
      },
    }),
  }),
});

export const { useGetSupportChatSettingsQuery, useSetSupportChatMutation } = supportChatApi;

/** Whether a connection's widget accepts this page's origin (the login page is served from the same one). */
export function acceptsOrigin(option: SupportChatOption, origin: string): boolean {
  return option.allowedOrigins.length === 0 || option.allowedOrigins.includes(origin);
}
