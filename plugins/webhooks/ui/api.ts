import { api } from '@balcao/plugin-sdk/ui';

/** An endpoint as the API answers it (never its secret). */
export interface Webhook {
  id: number;
  name: string;
  url: string;
  events: string[];
  active: boolean;
  secretMasked: string;
  failingSince: string | null;
  disabledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookDelivery {
  id: number;
  uuid: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  occurredAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  redeliveryOf: number | null;
}

export interface WebhookInput {
  name: string;
  url: string;
  events: string[];
  active?: boolean;
}

/** The webhooks page's calls on the shell's one API (docs/api.md "Webhooks"). */
export const webhooksApi = api.enhanceEndpoints({ addTagTypes: ['Webhook', 'WebhookDelivery'] }).injectEndpoints({
  endpoints: (build) => ({
    webhooks: build.query<Webhook[], void>({
      query: () => '/webhooks',
      transformResponse: (answer: { webhooks: Webhook[] }) => answer.webhooks,
      providesTags: ['Webhook'],
    }),
    createWebhook: build.mutation<{ webhook: Webhook; secret: string }, WebhookInput>({
      query: (body) => ({ url: '/webhooks', method: 'POST', body }),
      invalidatesTags: ['Webhook'],
    }),
    updateWebhook: build.mutation<Webhook, { id: number; body: WebhookInput }>({
      query: ({ id, body }) => ({ url: `/webhooks/${id}`, method: 'PUT', body }),
      invalidatesTags: ['Webhook', 'WebhookDelivery'],
    }),
    deleteWebhook: build.mutation<null, number>({
      query: (id) => ({ url: `/webhooks/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Webhook'],
    }),
    rotateWebhookSecret: build.mutation<{ webhook: Webhook; secret: string }, number>({
      query: (id) => ({ url: `/webhooks/${id}/rotate-secret`, method: 'POST', body: {} }),
      invalidatesTags: ['Webhook'],
    }),
    testWebhook: build.mutation<WebhookDelivery, number>({
      query: (id) => ({ url: `/webhooks/${id}/test`, method: 'POST', body: {} }),
      invalidatesTags: ['WebhookDelivery'],
    }),
    webhookDeliveries: build.query<
      { deliveries: WebhookDelivery[]; count: number; hasMore: boolean },
      { id: number; pageNumber: number }
    >({
      query: ({ id, pageNumber }) => `/webhooks/${id}/deliveries?pageNumber=${pageNumber}`,
      providesTags: ['WebhookDelivery'],
    }),
    redeliverWebhook: build.mutation<WebhookDelivery, { id: number; deliveryId: number }>({
      query: ({ id, deliveryId }) => ({ url: `/webhooks/${id}/deliveries/${deliveryId}/redeliver`, method: 'POST', body: {} }),
      invalidatesTags: ['WebhookDelivery'],
    }),
  }),
});

export const {
  useWebhooksQuery,
  useCreateWebhookMutation,
  useUpdateWebhookMutation,
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useTestWebhookMutation,
  useWebhookDeliveriesQuery,
  useRedeliverWebhookMutation,
} = webhooksApi;
