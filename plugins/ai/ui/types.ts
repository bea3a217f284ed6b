/** A prompt as the API answers it (docs/ai.md): keys masked. */
export interface Prompt {
  id: number;
  name: string;
  prompt: string;
  queueId: number;
  queue: { id: number; name: string } | null;
  voice: string;
  voiceRegion: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  baseUrl: string;
  model: string;
  apiKey: string;
  voiceKey: string;
  createdAt: string;
  updatedAt: string;
}

export interface PromptBody {
  name: string;
  prompt: string;
  queueId: number | null;
  voice: string;
  apiKey: string;
  voiceKey: string;
  voiceRegion: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  baseUrl: string;
  model: string;
}

export interface Usage {
  days: Array<{ day: string; promptId: number; tokensIn: number; tokensOut: number; requests: number }>;
  month: { tokensIn: number; tokensOut: number };
  monthlyTokenCap: number | null;
}
