import { API_BASE, type ApiKeyInfo, type ApiKeyScope, api } from '@balcao/plugin-sdk/ui';

/** The message API page's calls on the shell's one API (docs/api.md "API keys", "The message API"). */
export const messageApi = api.enhanceEndpoints({ addTagTypes: ['ApiKey', 'MessageApiUsage'] }).injectEndpoints({
  endpoints: (build) => ({
    apiKeys: build.query<ApiKeyInfo[], void>({
      query: () => '/api-keys',
      transformResponse: (answer: { apiKeys: ApiKeyInfo[] }) => answer.apiKeys,
      providesTags: ['ApiKey'],
    }),
    createApiKey: build.mutation<{ key: string; apiKey: ApiKeyInfo }, { name: string; scopes: ApiKeyScope[] }>({
      query: (body) => ({ url: '/api-keys', method: 'POST', body }),
      invalidatesTags: ['ApiKey'],
    }),
    revokeApiKey: build.mutation<ApiKeyInfo, number>({
      query: (id) => ({ url: `/api-keys/${id}`, method: 'DELETE' }),
      invalidatesTags: ['ApiKey'],
    }),
    messageApiUsage: build.query<{ day: string; count: number }, void>({
      query: () => '/messages-api/usage',
      providesTags: ['MessageApiUsage'],
    }),
  }),
});

export const { useApiKeysQuery, useCreateApiKeyMutation, useRevokeApiKeyMutation, useMessageApiUsageQuery } = messageApi;

/** The address of the send call, as an outside system writes it. */
export function sendUrl(origin: string = window.location.origin): string {
  return `${origin}${API_BASE}/messages/send`;
}

/**
 * Sends through the message API exactly as an outside system does: with the token typed in the form as
 * bearer (never the person's session), JSON or multipart. Throws `{ data: { error } }` on a refusal so
 * that the shell's `showError` shows its text.
 */
export async function sendTest(token: string, body: FormData | Record<string, unknown>): Promise<unknown> {
  const isForm = body instanceof FormData;
  const response = await fetch(sendUrl(), {
    method: 'POST',
    headers: { authorization: `Bearer ${token.trim()}`, ...(isForm ? {} : { 'content-type': 'application/json' }) },
    body: isForm ? body : JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw { status: response.status, data: answer };
  return answer;
}
