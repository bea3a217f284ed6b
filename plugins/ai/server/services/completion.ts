import { type AiCompletionService, AppError, runInTenant } from '@balcao/plugin-sdk/server';
import type { AiContext } from '../config';
import { Prompt } from '../models';
import { complete, failureReason } from './provider';
import { secretsKey, unseal } from './secrets';
import { overCap, recordUsage } from './usage.service';

/**
 * The `ai` service (docs/ai.md "The ai service"): one answer of a company's prompt for another feature,
 * through the same provider client, key, limits, token accounting and monthly cap as the assistant.
 */
export function createAiCompletionService(ctx: AiContext): AiCompletionService {
  return {
    complete: (companyId, request) => runInTenant({ companyId }, () => completeInTenant(ctx, companyId, request)),
  };
}

async function completeInTenant(
  ctx: AiContext,
  companyId: number,
  { promptId, messages }: Parameters<AiCompletionService['complete']>[1],
): Promise<{ text: string }> {
  const prompt = await Prompt.query().where({ companyId, id: promptId }).first();
  if (!prompt) throw new AppError('ERR_NO_PROMPT_FOUND');
  if (await overCap(ctx, companyId)) throw new AppError('ERR_AI_TOKEN_CAP_REACHED');
  const apiKey = unseal(secretsKey(ctx), prompt.apiKeySealed);
  if (!apiKey) throw new AppError('ERR_AI_PROVIDER_FAILED');
  try {
    const reply = await complete(
      ctx,
      { baseUrl: prompt.baseUrl, apiKey },
      {
        model: prompt.model,
        messages: [
          { role: 'system', content: prompt.prompt },
          ...messages.map((turn) => ({ role: turn.role, content: turn.content })),
        ],
        temperature: Number(prompt.temperature),
        maxTokens: prompt.maxTokens,
      },
    );
    await recordUsage(ctx, companyId, prompt.id, reply.tokensIn, reply.tokensOut);
    return { text: reply.text };
  } catch (error) {
    // the key is never logged: only the reason and the prompt
    ctx.log.warn({ promptId: prompt.id, reason: failureReason(error) }, 'AI provider failed a completion');
    throw new AppError('ERR_AI_PROVIDER_FAILED');
  }
}
