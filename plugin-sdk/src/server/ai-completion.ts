/**
 * The AI completion contract: the AI plugin provides the `ai` service, with which another feature (the
 * flow builder's model node) asks for one answer without knowing the plugin — either by a company's prompt
 * (its provider, key, model, temperature and token limit) or with settings of its own (a flow node's
 * prompt text and sealed key) — through the same provider client, token accounting and monthly cap.
 * Read with `ctx.services.has('ai')` / `use('ai')`.
 */

/** One turn of the conversation sent after the prompt's own text (its system message). */
export interface AiCompletionTurn {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * A completion's settings carried by the feature itself (a flow node), as a prompt has them. The API key
 * is the sealed form `sealKey` answered: the feature stores and passes that, never the key in clear.
 */
export interface AiInlineSettings {
  /** The system text. */
  prompt: string;
  /** What `sealKey` answered for the provider's API key. */
  apiKeySealed: string;
  /** Default 100. */
  maxTokens?: number;
  /** Default 1. */
  temperature?: number;
  /** An OpenAI-compatible base URL; default OpenAI's. */
  baseUrl?: string;
  /** Default the prompts' default model. */
  model?: string;
}

/** What `complete` asks: a company prompt's answer, or one with the feature's own settings. */
export type AiCompletionRequest =
  | { promptId: number; messages: AiCompletionTurn[] }
  | { settings: AiInlineSettings; messages: AiCompletionTurn[] };

/** The answer: its text (the hand-over marker removed), and whether the model asked for a person. */
export interface AiCompletionAnswer {
  text: string;
  /** The model said the customer needs a person (the assistant's documented marker was in its answer). */
  handOver: boolean;
}

/** The `ai` service: the AI plugin answering once, for a feature that isn't the AI plugin. */
export interface AiCompletionService {
  /**
   * One answer to `messages`, by the company's prompt `promptId` or with inline `settings`. Rejects with
   * `ERR_NO_PROMPT_FOUND` for a prompt the company doesn't have, `ERR_AI_TOKEN_CAP_REACHED` once the month's
   * cap is spent, and `ERR_AI_PROVIDER_FAILED` when the provider fails (refused, unreachable, slow, a broken
   * answer) or a sealed key can't be read.
   */
  complete(companyId: number, request: AiCompletionRequest): Promise<AiCompletionAnswer>;
  /** Seals an API key for a feature to store (AES-256-GCM under the AI plugin's key). */
  sealKey(plain: string): string;
  /**
   * How a sealed key is shown to people: its last four characters behind dots (`••••••abcd`); only the dots
   * when it can't be read. Never the key.
   */
  maskKey(sealed: string): string;
}

declare module './events' {
  interface BalcaoServices {
    /** Provided by the AI plugin. */
    ai: AiCompletionService;
  }
}
