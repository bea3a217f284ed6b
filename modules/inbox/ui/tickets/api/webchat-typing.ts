import { api } from '@balcao/plugin-sdk/ui';

/** `POST /webchat-typing/:ticketId` (channels plugin): tells a webchat visitor an agent is typing. */
export const webchatTypingApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendWebchatTyping: build.mutation<void, { ticketId: number; typing: boolean }>({
      query: ({ ticketId, typing }) => ({ url: `/webchat-typing/${ticketId}`, method: 'POST', body: { typing } }),
    }),
  }),
});

export const { useSendWebchatTypingMutation } = webchatTypingApi;
