import { api, type CacheEntryLifecycle, type SessionState, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type { Prompt, PromptBody, Usage } from './types';

interface PromptEvent {
  action: 'create' | 'update' | 'delete';
  prompt?: Prompt;
  promptId?: number;
}

const companyOf = (state: unknown) => (state as { session?: SessionState }).session?.user?.companyId;

/** The AI plugin's calls (docs/ai.md "Calls") on the shell's api; the list follows the company's prompt channel. */
export const aiApi = api.enhanceEndpoints({ addTagTypes: ['AiPrompt', 'AiUsage'] }).injectEndpoints({
  endpoints: (build) => ({
    aiPrompts: build.query<{ prompts: Prompt[] }, void>({
      query: () => '/prompt',
      providesTags: [{ type: 'AiPrompt', id: 'LIST' }],
      onCacheEntryAdded: (_arg, lifecycle: CacheEntryLifecycle<{ prompts: Prompt[] }>) => {
        if (companyOf(lifecycle.getState()) === undefined) return Promise.resolve();
        return streamSocketEvent<{ prompts: Prompt[] }, PromptEvent>(lifecycle, { channel: 'prompt' }, (draft, event) => {
          const index = draft.prompts.findIndex((row) => row.id === (event.prompt?.id ?? event.promptId));
          if (event.action === 'delete') {
            if (index >= 0) draft.prompts.splice(index, 1);
          } else if (event.prompt) {
            if (index >= 0) draft.prompts[index] = event.prompt;
            else draft.prompts.push(event.prompt);
          }
        });
      },
    }),
    aiQueues: build.query<Array<{ id: number; name: string }>, void>({
      query: () => '/queue',
    }),
    createAiPrompt: build.mutation<Prompt, PromptBody>({
      query: (body) => ({ url: '/prompt', method: 'POST', body }),
      invalidatesTags: [{ type: 'AiPrompt', id: 'LIST' }],
    }),
    updateAiPrompt: build.mutation<Prompt, { id: number; body: PromptBody }>({
      query: ({ id, body }) => ({ url: `/prompt/${id}`, method: 'PUT', body }),
      invalidatesTags: [{ type: 'AiPrompt', id: 'LIST' }],
    }),
    deleteAiPrompt: build.mutation<{ message: string }, number>({
      query: (id) => ({ url: `/prompt/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'AiPrompt', id: 'LIST' }],
    }),
    transcribeAudio: build.query<{ transcribedText: string }, string>({
      query: (fileName) => `/messages/transcribeAudio/${encodeURIComponent(fileName)}`,
      keepUnusedDataFor: 0,
    }),
    aiUsage: build.query<Usage, void>({
      query: () => '/prompt-usage',
      providesTags: ['AiUsage'],
    }),
    setAiTokenCap: build.mutation<Usage, number | null>({
      query: (monthlyTokenCap) => ({ url: '/prompt-usage/cap', method: 'PUT', body: { monthlyTokenCap } }),
      invalidatesTags: ['AiUsage'],
    }),
  }),
});

export const {
  useAiPromptsQuery,
  useAiQueuesQuery,
  useCreateAiPromptMutation,
  useUpdateAiPromptMutation,
  useDeleteAiPromptMutation,
  useAiUsageQuery,
  useSetAiTokenCapMutation,
  useLazyTranscribeAudioQuery,
} = aiApi;
