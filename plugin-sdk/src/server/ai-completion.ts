/**
 * The AI completion contract: the AI plugin provides the `ai` service, with which another feature (the
 * flow builder's model node) asks a company's prompt for one answer without knowing the plugin: the
 * prompt's provider, key, model, temperature and token limit, its token accounting and its monthly cap.
 * Read with `ctx.services.has('ai')` / `use('ai')`.
 */

/** One turn of the conversation sent after the prompt's own text (its system message). */
export interface AiCompletionTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** The `ai` service: a company's prompt answering once, for a feature that isn't the AI plugin. */
export interface AiCompletionService {
  /**
   * One answer of the company's prompt `promptId` to `messages`. Rejects with `ERR_NO_PROMPT_FOUND` for a
   * prompt the company doesn't have, `ERR_AI_TOKEN_CAP_REACHED` once the month's cap is spent, and
   * `ERR_AI_PROVIDER_FAILED` when the provider fails (refused, unreachable, slow, a broken answer).
   */
  complete(companyId: number, request: { promptId: number; messages: AiCompletionTurn[] }): Promise<{ text: string }>;
}

declare module './events' {
  interface BalcaoServices {
    /** Provided by the AI plugin. */
    ai: AiCompletionService;
  }
}
