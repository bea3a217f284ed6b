import { createOutboundHttp, type OutboundHttp, OutboundHttpError } from '@balcao/plugin-sdk/server';
import OpenAI, { APIConnectionTimeoutError, APIError, toFile } from 'openai';
import type { AiContext } from '../config';
import { SpeechFailure } from './speech';

/**
 * The official `openai` client against any OpenAI-compatible base URL (OpenAI, Azure OpenAI, a local
 * server), every request going through the SDK's guarded outbound client: the tenant chooses the URL, so
 * it gets the deadline, the size cap and the address rules of every other tenant-configured URL
 * (docs/plugin-authoring.md "Outbound HTTP"). The client's own retries are off: the assistant decides.
 */

const clients = new WeakMap<object, OutboundHttp>();
/** Extra allowed addresses of one app (the demo's loopback stand-in), set before the first call. */
const extraAllow = new WeakMap<object, string[]>();

export async function allowAlso(ctx: AiContext, entries: string[]): Promise<void> {
  extraAllow.set(ctx, entries);
  // a client made before keeps its allow list: the next call makes a new one
  await closeProviderHttp(ctx);
}

export function providerHttp(ctx: AiContext): OutboundHttp {
  let client = clients.get(ctx);
  if (!client) {
    client = createOutboundHttp({
      allow: [...ctx.config.outboundHttpAllow, ...(extraAllow.get(ctx) ?? [])],
      timeoutMs: ctx.config.AI_HTTP_TIMEOUT_MS,
      maxBytes: ctx.config.AI_HTTP_MAX_BYTES,
    });
    clients.set(ctx, client);
  }
  return client;
}

export async function closeProviderHttp(ctx: AiContext): Promise<void> {
  await clients.get(ctx)?.close();
  clients.delete(ctx);
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A `fetch` for the openai client that sends through the guarded client. */
export function guardedFetch(http: OutboundHttp): typeof fetch {
  return async (input, init) => {
    const request = new Request(input as string | URL | Request, init);
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await http.request(request.url, { method: request.method as Method, headers, ...(body ? { body } : {}) });
    return new Response(NULL_BODY_STATUSES.has(answer.status) ? null : new Uint8Array(answer.body), {
      status: answer.status,
      headers: answer.headers,
    });
  };
}

export interface ProviderTarget {
  baseUrl: string;
  apiKey: string;
}

export function providerClient(ctx: AiContext, target: ProviderTarget): OpenAI {
  return new OpenAI({
    apiKey: target.apiKey,
    baseURL: target.baseUrl,
    maxRetries: 0,
    timeout: ctx.config.AI_HTTP_TIMEOUT_MS,
    fetch: guardedFetch(providerHttp(ctx)),
  });
}

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatAnswer {
  text: string;
  tokensIn: number;
  tokensOut: number;
}

/** One chat completion (not streamed). */
export async function complete(
  ctx: AiContext,
  target: ProviderTarget,
  request: { model: string; messages: ChatTurn[]; temperature: number; maxTokens: number },
): Promise<ChatAnswer> {
  const answer = await providerClient(ctx, target).chat.completions.create({
    model: request.model,
    messages: request.messages,
    temperature: request.temperature,
    max_tokens: request.maxTokens,
  });
  const text = answer.choices?.[0]?.message?.content;
  if (typeof text !== 'string') throw new ProviderFailure('invalid answer');
  return { text, tokensIn: answer.usage?.prompt_tokens ?? 0, tokensOut: answer.usage?.completion_tokens ?? 0 };
}

/** Transcribes an audio file (the Whisper-compatible endpoint of the same provider). */
export async function transcribe(
  ctx: AiContext,
  target: ProviderTarget,
  audio: { bytes: Buffer; fileName: string },
): Promise<string> {
  const answer = await providerClient(ctx, target).audio.transcriptions.create({
    model: 'whisper-1',
    file: await toFile(audio.bytes, audio.fileName),
  });
  if (typeof answer?.text !== 'string') throw new ProviderFailure('invalid answer');
  return answer.text;
}

/** A provider's answer we cannot use. */
export class ProviderFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Why a provider call failed, in a few words for the log and the ticket's state (at most 60 characters). */
export function failureReason(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof OutboundHttpError ? error.cause : error;
  if (cause instanceof OutboundHttpError) return cause.failure;
  if (error instanceof APIConnectionTimeoutError) return 'timeout';
  if (error instanceof APIError && typeof error.status === 'number') return `status ${error.status}`;
  if (error instanceof ProviderFailure || error instanceof SpeechFailure) return error.reason.slice(0, 60);
  return 'invalid answer';
}

/** The seconds a 429 asks to wait (`retry-after`), or null when it isn't one or says nothing usable. */
export function retryAfterSeconds(error: unknown): number | null {
  if (!(error instanceof APIError) || error.status !== 429) return null;
  const value = error.headers?.get?.('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : null;
}
