import { AppError } from '@balcao/plugin-sdk/server';
import { PROMPT_DEFAULTS } from '../../shared/voices';
import type { AiContext } from '../config';
import { Prompt } from '../models';
import { emitPrompt } from './live';
import { forgetPromptQueues } from './prompt-queues';
import { mask, seal, secretsKey, unseal } from './secrets';

/** What POST and PUT /prompt take (docs/ai.md "The prompt"). */
export interface PromptInput {
  name: string;
  prompt: string;
  queueId?: number | null;
  voice?: string;
  apiKey?: string;
  voiceKey?: string;
  voiceRegion?: string;
  maxTokens?: number;
  temperature?: number;
  maxMessages?: number;
  baseUrl?: string;
  model?: string;
}

/** A prompt as the API answers it: keys masked, never in clear. */
export function serializePrompt(ctx: AiContext, prompt: Prompt, queueName: string | null) {
  const key = secretsKey(ctx);
  return {
    id: prompt.id,
    name: prompt.name,
    prompt: prompt.prompt,
    queueId: prompt.queueId,
    queue: queueName === null ? null : { id: prompt.queueId, name: queueName },
    voice: prompt.voice,
    voiceRegion: prompt.voiceRegion,
    maxTokens: prompt.maxTokens,
    temperature: Number(prompt.temperature),
    maxMessages: prompt.maxMessages,
    baseUrl: prompt.baseUrl,
    model: prompt.model,
    apiKey: mask(unseal(key, prompt.apiKeySealed) ?? '????'),
    voiceKey: prompt.voiceKeySealed ? mask(unseal(key, prompt.voiceKeySealed) ?? '????') : '',
    createdAt: new Date(prompt.createdAt).toISOString(),
    updatedAt: new Date(prompt.updatedAt).toISOString(),
  };
}

async function queueNames(ctx: AiContext, companyId: number, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows: Array<{ id: number; name: string }> = await ctx.db
    .knex('queues')
    .where({ companyId })
    .whereIn('id', ids)
    .select('id', 'name');
  return new Map(rows.map((row) => [row.id, row.name]));
}

export async function listPrompts(ctx: AiContext, companyId: number) {
  const prompts = await Prompt.query().orderBy('name').orderBy('id');
  const names = await queueNames(
    ctx,
    companyId,
    prompts.map((prompt) => prompt.queueId),
  );
  return prompts.map((prompt) => serializePrompt(ctx, prompt, names.get(prompt.queueId) ?? null));
}

export async function loadPrompt(id: number): Promise<Prompt> {
  const prompt = await Prompt.query().findById(id);
  if (!prompt) throw new AppError('ERR_NO_PROMPT_FOUND');
  return prompt;
}

export async function showPrompt(ctx: AiContext, companyId: number, id: number) {
  const prompt = await loadPrompt(id);
  const names = await queueNames(ctx, companyId, [prompt.queueId]);
  return serializePrompt(ctx, prompt, names.get(prompt.queueId) ?? null);
}

/** The queue a prompt answers: required ("Informe o setor"), the company's, and not another prompt's. */
async function checkQueue(ctx: AiContext, companyId: number, queueId: number | null | undefined, promptId: number | null) {
  if (queueId === undefined || queueId === null) throw new AppError('ERR_PROMPT_QUEUE_REQUIRED');
  const queue = await ctx.db.knex('queues').where({ id: queueId, companyId }).first('id');
  if (!queue) throw new AppError('ERR_NO_QUEUE_FOUND');
  const taken = await Prompt.query()
    .where({ queueId })
    .whereNot('id', promptId ?? 0)
    .first();
  if (taken) throw new AppError('ERR_PROMPT_QUEUE_TAKEN');
  return queueId;
}

const normalizedBaseUrl = (baseUrl: string) => baseUrl.trim().replace(/\/+$/, '');

/**
 * A stored key is only ever sent where it was sent when the admin typed it: moving the prompt to another
 * provider address (or the voice to another region, which names the speech host) without typing the key
 * again would let anyone able to edit the prompt send the sealed key to a host of their choosing.
 */
function requireKeysForNewEndpoints(stored: Prompt, input: PromptInput) {
  const movesProvider = input.baseUrl !== undefined && normalizedBaseUrl(input.baseUrl) !== stored.baseUrl;
  if (movesProvider && (input.apiKey?.trim() ?? '') === '') throw new AppError('ERR_PROMPT_API_KEY_REENTRY_REQUIRED');
  const movesVoice = input.voiceRegion !== undefined && input.voiceRegion !== stored.voiceRegion;
  if (movesVoice && stored.voiceKeySealed && (input.voiceKey?.trim() ?? '') === '')
    throw new AppError('ERR_PROMPT_VOICE_KEY_REENTRY_REQUIRED');
}

function columnsOf(ctx: AiContext, input: PromptInput) {
  const key = secretsKey(ctx);
  const apiKey = input.apiKey?.trim() ?? '';
  const voiceKey = input.voiceKey?.trim() ?? '';
  return {
    name: input.name.trim(),
    prompt: input.prompt,
    ...(input.voice === undefined ? {} : { voice: input.voice }),
    ...(input.voiceRegion === undefined ? {} : { voiceRegion: input.voiceRegion }),
    ...(input.maxTokens === undefined ? {} : { maxTokens: input.maxTokens }),
    ...(input.temperature === undefined ? {} : { temperature: input.temperature }),
    ...(input.maxMessages === undefined ? {} : { maxMessages: input.maxMessages }),
    ...(input.baseUrl === undefined ? {} : { baseUrl: normalizedBaseUrl(input.baseUrl) }),
    ...(input.model === undefined ? {} : { model: input.model.trim() }),
    // blank keys keep what is stored (the form shows only the masked key)
    ...(apiKey === '' ? {} : { apiKeySealed: seal(key, apiKey) }),
    ...(voiceKey === '' ? {} : { voiceKeySealed: seal(key, voiceKey) }),
  };
}

function requireName(input: PromptInput) {
  if (input.name.trim() === '') throw new AppError('ERR_VALIDATION', { details: [{ field: 'name', message: 'required' }] });
  if (input.prompt.trim() === '') throw new AppError('ERR_VALIDATION', { details: [{ field: 'prompt', message: 'required' }] });
}

export async function createPrompt(ctx: AiContext, companyId: number, input: PromptInput) {
  requireName(input);
  const queueId = await checkQueue(ctx, companyId, input.queueId, null);
  if ((input.apiKey?.trim() ?? '') === '') throw new AppError('ERR_PROMPT_API_KEY_REQUIRED');
  const created = await Prompt.query().insert({
    voice: PROMPT_DEFAULTS.voice,
    maxTokens: PROMPT_DEFAULTS.maxTokens,
    temperature: PROMPT_DEFAULTS.temperature,
    maxMessages: PROMPT_DEFAULTS.maxMessages,
    ...columnsOf(ctx, input),
    queueId,
  });
  forgetPromptQueues(companyId);
  const shown = await showPrompt(ctx, companyId, created.id);
  await emitPrompt(ctx, companyId, { action: 'create', prompt: shown });
  return shown;
}

export async function updatePrompt(ctx: AiContext, companyId: number, id: number, input: PromptInput) {
  requireName(input);
  const stored = await loadPrompt(id);
  requireKeysForNewEndpoints(stored, input);
  const queueId = await checkQueue(ctx, companyId, input.queueId, id);
  await Prompt.query().patchAndFetchById(id, { ...columnsOf(ctx, input), queueId, updatedAt: new Date() });
  forgetPromptQueues(companyId);
  const shown = await showPrompt(ctx, companyId, id);
  await emitPrompt(ctx, companyId, { action: 'update', prompt: shown });
  return shown;
}

export async function deletePrompt(ctx: AiContext, companyId: number, id: number) {
  await loadPrompt(id);
  await ctx.db.transaction(async (trx) => {
    await Prompt.query(trx).deleteById(id);
    // a connection naming it names nothing from now on
    await trx('whatsapps').where({ companyId, promptId: id }).update({ promptId: null });
  });
  forgetPromptQueues(companyId);
  await emitPrompt(ctx, companyId, { action: 'delete', promptId: id });
  return { message: 'Prompt deleted' };
}
