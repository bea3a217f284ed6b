import {
  type AiCompletionAnswer,
  type AiCompletionRequest,
  type AiCompletionService,
  AppError,
  runInTenant,
} from '@balcao/plugin-sdk/server';
import { HANDOVER_MARKER, PROMPT_DEFAULTS } from '../../shared/voices';
import type { AiContext } from '../config';
import { Prompt } from '../models';
import { systemText } from './assistant';
import { complete, failureReason } from './provider';
import { mask, seal, secretsKey, unseal } from './secrets';
import { overCap, recordUsage } from './usage.service';

/**
 * The `ai` service (docs/ai.md "The ai service"): one answer for another feature, by a company's prompt or
 * with the feature's own settings (a flow node's), through the same provider client, key sealing, limits,
 * token accounting and monthly cap as the assistant.
 */

/** The usage rows of completions with inline settings: no prompt of the company is behind them. */
export const INLINE_USAGE_PROMPT_ID = 0;
/** What a prompt has when nothing says otherwise (the prompts table's defaults). */
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_MODEL = 'gpt-4o-mini';

export function createAiCompletionService(ctx: AiContext): AiCompletionService {
  return {
    complete: (companyId, request) => runInTenant({ companyId }, () => completeInTenant(ctx, companyId, request)),
    sealKey: (plain) => seal(secretsKey(ctx), plain),
    // an unreadable sealed key (another server key, altered) shows as dots only, never as what it is
    maskKey: (sealed) => mask(unseal(secretsKey(ctx), sealed)) || '••••••',
  };
}

interface Settings {
  usagePromptId: number;
  system: string;
  apiKeySealed: string;
  baseUrl: string;
  model: string;
  temperature: number;
  maxTokens: number;
}

async function settingsOf(companyId: number, request: AiCompletionRequest): Promise<Settings> {
  if ('promptId' in request) {
    const prompt = await Prompt.query().where({ companyId, id: request.promptId }).first();
    if (!prompt) throw new AppError('ERR_NO_PROMPT_FOUND');
    return {
      usagePromptId: prompt.id,
      system: prompt.prompt,
      apiKeySealed: prompt.apiKeySealed,
      baseUrl: prompt.baseUrl,
      model: prompt.model,
      temperature: Number(prompt.temperature),
      maxTokens: prompt.maxTokens,
    };
  }
  const { settings } = request;
  return {
    usagePromptId: INLINE_USAGE_PROMPT_ID,
    system: settings.prompt,
    apiKeySealed: settings.apiKeySealed,
    baseUrl: settings.baseUrl?.trim().replace(/\/+$/, '') || DEFAULT_BASE_URL,
    model: settings.model?.trim() || DEFAULT_MODEL,
    temperature: settings.temperature ?? PROMPT_DEFAULTS.temperature,
    maxTokens: settings.maxTokens ?? PROMPT_DEFAULTS.maxTokens,
  };
}

async function completeInTenant(ctx: AiContext, companyId: number, request: AiCompletionRequest): Promise<AiCompletionAnswer> {
  const settings = await settingsOf(companyId, request);
  if (await overCap(ctx, companyId)) throw new AppError('ERR_AI_TOKEN_CAP_REACHED');
  const apiKey = unseal(secretsKey(ctx), settings.apiKeySealed);
  if (!apiKey) throw new AppError('ERR_AI_PROVIDER_FAILED');
  try {
    const reply = await complete(
      ctx,
      { baseUrl: settings.baseUrl, apiKey },
      {
        model: settings.model,
        messages: [
          { role: 'system', content: systemText(settings.system) },
          ...request.messages.map((turn) => ({ role: turn.role, content: turn.content })),
        ],
        temperature: settings.temperature,
        maxTokens: settings.maxTokens,
      },
    );
    await recordUsage(ctx, companyId, settings.usagePromptId, reply.tokensIn, reply.tokensOut);
    return { text: reply.text.split(HANDOVER_MARKER).join('').trim(), handOver: reply.text.includes(HANDOVER_MARKER) };
  } catch (error) {
    // the key is never logged: only the reason and the prompt
    ctx.log.warn({ promptId: settings.usagePromptId, reason: failureReason(error) }, 'AI provider failed a completion');
    throw new AppError('ERR_AI_PROVIDER_FAILED');
  }
}
