import { AppError } from '@balcao/plugin-sdk/server';
import type { FlowbuilderContext } from '../config';
import { FlowBuilder, type IntegrationType, QueueIntegration } from '../models';
import { parseServiceAccount } from './clients/dialogflow';
import { emitToAdmins } from './live';
import { seal, secretsKey } from './secrets';

/** Rows a page of `GET /queueIntegration/` holds. */
export const INTEGRATIONS_PAGE_SIZE = 20;

/** The DialogFlow languages (docs/product/automation.md#constants-and-limits). */
export const DIALOGFLOW_LANGUAGES = ['pt-BR', 'en', 'es'] as const;

/** Typebot defaults (docs/product/automation.md#constants-and-limits). */
export const TYPEBOT_DEFAULT_DELAY_MS = 1000;
export const TYPEBOT_DEFAULT_EXPIRES_MINUTES = 1;

/** What POST and PUT /queueIntegration take. */
export interface IntegrationInput {
  type: IntegrationType;
  name: string;
  projectName?: string;
  /** A Dialogflow service account; on PUT an empty value keeps the stored one. */
  jsonContent?: string;
  language?: string;
  urlN8N?: string;
  typebotDelayMessage?: number;
  typebotExpires?: number;
  typebotKeywordFinish?: string;
  typebotKeywordRestart?: string;
  typebotRestartMessage?: string;
  typebotSlug?: string;
  typebotUnknownMessage?: string;
  flowId?: number | null;
}

/** An integration as the API answers it: its secret never leaves the server (`hasJsonContent` says one is kept). */
export function integrationJson(row: QueueIntegration) {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    projectName: row.projectName,
    jsonContent: '',
    hasJsonContent: row.jsonContentSealed !== null,
    language: row.language,
    urlN8N: row.urlN8N,
    typebotDelayMessage: row.typebotDelayMessage,
    typebotExpires: row.typebotExpires,
    typebotKeywordFinish: row.typebotKeywordFinish,
    typebotKeywordRestart: row.typebotKeywordRestart,
    typebotRestartMessage: row.typebotRestartMessage,
    typebotSlug: row.typebotSlug,
    typebotUnknownMessage: row.typebotUnknownMessage,
    flowId: row.flowId ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type IntegrationJson = ReturnType<typeof integrationJson>;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The flow a `flowbuilder` integration starts: given (else the stored one), and one of the company's flows
 * (the model reads the caller's company only, so another company's id is not found). Null for other types.
 */
async function flowOf(input: IntegrationInput, existing: QueueIntegration | null): Promise<number | null> {
  if (input.type !== 'flowbuilder') return null;
  const flowId = input.flowId === undefined ? (existing?.flowId ?? null) : input.flowId;
  if (flowId === null || !(await FlowBuilder.query().findById(flowId))) throw new AppError('ERR_INTEGRATION_FLOW_REQUIRED');
  return flowId;
}

/**
 * The rules of docs/product/automation.md#validation-rules and what each type needs to run: a name;
 * DialogFlow a language of its three and a service account; n8n, webhooks and Typebot an http(s) URL;
 * Typebot its slug; Flowbuilder a flow of the company. Answers the row's columns.
 */
async function columnsOf(ctx: FlowbuilderContext, input: IntegrationInput, existing: QueueIntegration | null) {
  const name = input.name.trim();
  if (name === '') throw new AppError('ERR_INTEGRATION_NAME_REQUIRED');
  const language = (input.language ?? existing?.language ?? '').trim();
  const urlN8N = (input.urlN8N ?? existing?.urlN8N ?? '').trim();
  const typebotSlug = (input.typebotSlug ?? existing?.typebotSlug ?? '').trim();
  let jsonContentSealed = existing?.jsonContentSealed ?? null;
  if (input.type === 'dialogflow') {
    if (!(DIALOGFLOW_LANGUAGES as readonly string[]).includes(language)) throw new AppError('ERR_INTEGRATION_LANGUAGE_REQUIRED');
    const given = input.jsonContent?.trim() ?? '';
    if (given !== '') {
      if (!parseServiceAccount(given)) throw new AppError('ERR_INTEGRATION_CREDENTIALS_INVALID');
      jsonContentSealed = seal(secretsKey(ctx), given);
    }
    if (jsonContentSealed === null) throw new AppError('ERR_INTEGRATION_CREDENTIALS_INVALID');
  } else {
    jsonContentSealed = null;
  }
  if ((input.type === 'n8n' || input.type === 'webhook' || input.type === 'typebot') && !isHttpUrl(urlN8N)) {
    throw new AppError('ERR_INTEGRATION_URL_REQUIRED');
  }
  if (input.type === 'typebot' && typebotSlug === '') throw new AppError('ERR_INTEGRATION_URL_REQUIRED');
  const flowId = await flowOf(input, existing);
  return {
    type: input.type,
    name,
    // Typebot's project name is its name (docs/product/automation.md#entities)
    projectName: input.type === 'typebot' ? name : (input.projectName ?? existing?.projectName ?? name).trim(),
    jsonContentSealed,
    language,
    urlN8N,
    typebotDelayMessage: input.typebotDelayMessage ?? existing?.typebotDelayMessage ?? TYPEBOT_DEFAULT_DELAY_MS,
    typebotExpires: input.typebotExpires ?? existing?.typebotExpires ?? TYPEBOT_DEFAULT_EXPIRES_MINUTES,
    typebotKeywordFinish: (input.typebotKeywordFinish ?? existing?.typebotKeywordFinish ?? '').trim(),
    typebotKeywordRestart: (input.typebotKeywordRestart ?? existing?.typebotKeywordRestart ?? '').trim(),
    typebotRestartMessage: input.typebotRestartMessage ?? existing?.typebotRestartMessage ?? '',
    typebotSlug,
    typebotUnknownMessage: input.typebotUnknownMessage ?? existing?.typebotUnknownMessage ?? '',
    flowId,
  };
}

export async function pageIntegrations(query: { searchParam?: string; pageNumber?: number }) {
  const page = query.pageNumber ?? 1;
  const base = QueueIntegration.query();
  const search = query.searchParam?.trim();
  if (search) base.whereRaw("name ILIKE ? ESCAPE '\\'", [`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
  const rows = await base
    .orderBy('name')
    .orderBy('id')
    .limit(INTEGRATIONS_PAGE_SIZE + 1)
    .offset((page - 1) * INTEGRATIONS_PAGE_SIZE);
  return {
    queueIntegrations: rows.slice(0, INTEGRATIONS_PAGE_SIZE).map(integrationJson),
    hasMore: rows.length > INTEGRATIONS_PAGE_SIZE,
  };
}

export async function loadIntegration(id: number): Promise<QueueIntegration> {
  const row = await QueueIntegration.query().findById(id);
  if (!row) throw new AppError('ERR_NO_INTEGRATION_FOUND');
  return row;
}

export async function createIntegration(
  ctx: FlowbuilderContext,
  companyId: number,
  input: IntegrationInput,
): Promise<IntegrationJson> {
  const row = await QueueIntegration.query().insertAndFetch(await columnsOf(ctx, input, null));
  const json = integrationJson(row);
  await emitToAdmins(ctx, companyId, 'queueIntegration', { action: 'create', queueIntegration: json });
  return json;
}

export async function updateIntegration(
  ctx: FlowbuilderContext,
  companyId: number,
  id: number,
  input: IntegrationInput,
): Promise<IntegrationJson> {
  const existing = await loadIntegration(id);
  const row = await QueueIntegration.query().patchAndFetchById(id, await columnsOf(ctx, input, existing));
  const json = integrationJson(row);
  await emitToAdmins(ctx, companyId, 'queueIntegration', { action: 'update', queueIntegration: json });
  return json;
}

/**
 * Deletes an integration. Queues, chatbot options, connections and tickets that named it forget it (their
 * ids point nowhere otherwise): they fall back to their ordinary handling.
 */
export async function deleteIntegration(ctx: FlowbuilderContext, companyId: number, id: number): Promise<void> {
  await loadIntegration(id);
  await ctx.db.transaction(async (trx) => {
    await trx('queues').where({ companyId, integrationId: id }).update({ integrationId: null });
    await trx('chatbots').where({ companyId, optIntegrationId: id }).update({ optIntegrationId: null });
    await trx('whatsapps').where({ companyId, integrationId: id }).update({ integrationId: null });
    await trx('tickets').where({ companyId, integrationId: id }).update({ integrationId: null, useIntegration: false });
    await trx('queueIntegrations').where({ companyId, id }).delete();
  });
  await emitToAdmins(ctx, companyId, 'queueIntegration', { action: 'delete', integrationId: id });
}
