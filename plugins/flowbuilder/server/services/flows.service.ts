import type { Readable } from 'node:stream';
import { AppError } from '@balcao/plugin-sdk/server';
import { fileTypeFromBuffer } from 'file-type';
import {
  checkFlow,
  FLOW_MEDIA_LIMITS,
  FLOW_NAME_MAX,
  FLOW_NAME_MIN,
  type FlowDocument,
  type FlowMediaKind,
  type FlowNode,
  type FlowNodeOf,
  type FlowProblem,
} from '../../shared/flow-document';
import type { FlowbuilderContext } from '../config';
import { FlowBuilder } from '../models';
import { emitToAdmins } from './live';

/**
 * The flows themselves (docs/product/automation.md#flows): create, rename, duplicate, delete, read and
 * save the document — checked by the shared `checkFlow` plus what only the server knows (the queues, the
 * uploaded media, whether an AI service runs openai nodes) — and the media the nodes send.
 */

/** Where a company's flow media live in its storage. */
export const FLOW_MEDIA_PREFIX = 'flowbuilder/';

export interface FlowJson {
  id: number;
  name: string;
  active: boolean;
  flow: FlowDocument | null;
  createdAt: string;
  updatedAt: string;
}

/** The dots a sealed key shows as when nothing can read it (the AI plugin is gone). */
const UNREADABLE_KEY_MASK = '••••••';

/** The keys an openai node keeps sealed in the stored document: answered masked, never sealed nor in clear. */
const OPENAI_SEALED_FIELDS = ['apiKey', 'voiceKey'] as const;

/**
 * A document as the API answers it: every openai node's sealed keys masked by the `ai` service (the last
 * four characters of the key behind dots), so neither the key nor its sealed form leaves the server.
 */
export function shownDocument(ctx: FlowbuilderContext, document: FlowDocument | null): FlowDocument | null {
  if (!document || !Array.isArray(document.nodes) || !document.nodes.some((node) => node?.type === 'openai')) return document;
  const ai = ctx.services.has('ai') ? ctx.services.use('ai') : null;
  return {
    ...document,
    nodes: document.nodes.map((node) => {
      if (node?.type !== 'openai') return node;
      const inner = { ...node.data.typebotIntegration };
      for (const field of OPENAI_SEALED_FIELDS) {
        const sealed = inner[field];
        if (typeof sealed === 'string' && sealed !== '') inner[field] = ai ? ai.maskKey(sealed) : UNREADABLE_KEY_MASK;
      }
      return { ...node, data: { ...node.data, typebotIntegration: inner } };
    }),
  };
}

export function flowJson(ctx: FlowbuilderContext, row: FlowBuilder & { createdAt?: Date; updatedAt?: Date }): FlowJson {
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    flow: shownDocument(ctx, (row.flow as FlowDocument | null) ?? null),
    createdAt: (row.createdAt ?? new Date()).toISOString(),
    updatedAt: (row.updatedAt ?? new Date()).toISOString(),
  };
}

/** A flow's name: trimmed, 2 to 50 characters. */
export function cleanFlowName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < FLOW_NAME_MIN || trimmed.length > FLOW_NAME_MAX) throw new AppError('ERR_FLOW_NAME_INVALID');
  return trimmed;
}

export async function loadFlow(id: number): Promise<FlowBuilder & { createdAt: Date; updatedAt: Date }> {
  const row = await FlowBuilder.query().findById(id);
  if (!row) throw new AppError('ERR_NO_FLOW_FOUND');
  return row as FlowBuilder & { createdAt: Date; updatedAt: Date };
}

async function announce(ctx: FlowbuilderContext, companyId: number, action: 'create' | 'update', row: FlowBuilder) {
  const { flow: _document, ...flow } = flowJson(ctx, row);
  await emitToAdmins(ctx, companyId, 'flowbuilder', { action, flow });
}

export async function createFlow(ctx: FlowbuilderContext, companyId: number, name: string): Promise<FlowJson> {
  const row = await FlowBuilder.query().insertAndFetch({ name: cleanFlowName(name), active: true, flow: null });
  await announce(ctx, companyId, 'create', row);
  return flowJson(ctx, row);
}

export async function renameFlow(ctx: FlowbuilderContext, companyId: number, id: number, name: string): Promise<FlowJson> {
  await loadFlow(id);
  const row = await FlowBuilder.query().patchAndFetchById(id, { name: cleanFlowName(name), updatedAt: new Date() } as never);
  await announce(ctx, companyId, 'update', row);
  return flowJson(ctx, row);
}

export async function duplicateFlow(ctx: FlowbuilderContext, companyId: number, id: number): Promise<FlowJson> {
  const source = await loadFlow(id);
  const suffix = ' - cópia';
  const name = `${source.name.slice(0, FLOW_NAME_MAX - suffix.length)}${suffix}`;
  const row = await FlowBuilder.query().insertAndFetch({ name, active: source.active, flow: source.flow ?? null });
  await announce(ctx, companyId, 'create', row);
  return flowJson(ctx, row);
}

/**
 * Deletes a flow: its phrase campaigns go with it (the table's cascade), connections that start it start
 * nothing, and the runs on it stop.
 */
export async function deleteFlow(ctx: FlowbuilderContext, companyId: number, id: number): Promise<void> {
  await loadFlow(id);
  const inFlow = (
    (await ctx.db
      .knex('flowRuns')
      .where({ companyId, flowId: id })
      .whereIn('status', ['running', 'waiting', 'paused'])
      .select('ticketId')) as Array<{ ticketId: number }>
  ).map((row) => row.ticketId);
  await ctx.db.transaction(async (trx) => {
    await trx('whatsapps').where({ companyId, flowIdWelcome: id }).update({ flowIdWelcome: null });
    await trx('whatsapps').where({ companyId, flowIdNotPhrase: id }).update({ flowIdNotPhrase: null });
    // the runs go with the flow (cascade)
    await trx('flowBuilders').where({ companyId, id }).delete();
  });
  // their tickets go back to people: the integration toggle off, as when a run ends
  const inbox = ctx.services.use('inbox');
  for (const ticketId of inFlow)
    await inbox.applyTicketChange({
      ticketId: Number(ticketId),
      useIntegration: false,
      expect: { status: 'pending', userId: null },
    });
  await emitToAdmins(ctx, companyId, 'flowbuilder', { action: 'delete', flowId: id });
}

/** The stored media a document names, by node: what must exist in the company's storage. */
function mediaOf(node: FlowNode): Array<{ key: string; element?: string }> {
  switch (node.type) {
    case 'img':
    case 'audio':
    case 'video':
      return [{ key: node.data.url }];
    case 'singleBlock':
      return node.data.elements
        .filter((element) => element.type === 'img' || element.type === 'audio' || element.type === 'video')
        .map((element) => ({ key: element.value, element: element.number }));
    default:
      return [];
  }
}

/**
 * Whether openai nodes can run for the company: the AI plugin provides its `ai` service and the company's
 * plan has useOpenAi. Without either, the save refuses the node and the editor doesn't offer it.
 */
export async function openaiAvailable(ctx: FlowbuilderContext, companyId: number): Promise<boolean> {
  return ctx.services.has('ai') && (await ctx.plans.has(companyId, 'useOpenAi'));
}

const normalizedBaseUrl = (value: unknown) => (typeof value === 'string' ? value.trim().replace(/\/+$/, '') : '');

/**
 * The document to store: each openai node's keys sealed by the `ai` service. A key typed in clear is sealed;
 * a masked key (what GET answered) keeps the sealed key of the stored document it masks — of an openai node
 * of this flow with the same provider address, so a key is never sent to an address nobody typed it for. A
 * masked key that matches none is refused as missing (the admin types it again).
 */
function sealOpenAiKeys(ctx: FlowbuilderContext, document: FlowDocument, stored: FlowDocument | null): FlowDocument {
  if (!document.nodes.some((node) => node.type === 'openai')) return document;
  const ai = ctx.services.use('ai');
  const storedNodes = (stored?.nodes ?? []).filter((node): node is FlowNodeOf<'openai'> => node?.type === 'openai');
  const missing: FlowProblem[] = [];
  const nodes = document.nodes.map((node) => {
    if (node.type !== 'openai') return node;
    const inner = { ...node.data.typebotIntegration };
    for (const field of OPENAI_SEALED_FIELDS) {
      const given = typeof inner[field] === 'string' ? (inner[field] as string).trim() : '';
      if (given === '') continue;
      if (!given.startsWith(UNREADABLE_KEY_MASK)) {
        inner[field] = ai.sealKey(given);
        continue;
      }
      const kept = storedNodes
        .map((candidate) => candidate.data.typebotIntegration)
        .find(
          (candidate) =>
            typeof candidate[field] === 'string' &&
            candidate[field] !== '' &&
            ai.maskKey(candidate[field] as string) === given &&
            normalizedBaseUrl(candidate.baseUrl) === normalizedBaseUrl(inner.baseUrl) &&
            (field === 'apiKey' || (candidate.voiceRegion ?? '') === (inner.voiceRegion ?? '')),
        );
      if (kept) inner[field] = kept[field] as string;
      else if (field === 'apiKey')
        missing.push({
          nodeId: node.id,
          code: 'openaiFieldsRequired',
          severity: 'error',
          message: 'flowProblems.openaiFieldsRequired',
        });
      else delete inner[field];
    }
    return { ...node, data: { ...node.data, typebotIntegration: inner } };
  });
  if (missing.length > 0) refuse(missing);
  return { ...document, nodes };
}

/** A 400 naming the first node at fault, with every error found. */
function refuse(problems: FlowProblem[]): never {
  const first = problems[0] as FlowProblem;
  throw new AppError('ERR_FLOW_INVALID', {
    nodeId: first.nodeId,
    code: first.code,
    problems: problems.slice(0, 50),
  });
}

/**
 * `POST /flowbuilder/flow`: saves a flow's document when nothing in it is an error; answers the flow and
 * the warnings (the editor shows them).
 */
export async function saveFlowDocument(
  ctx: FlowbuilderContext,
  companyId: number,
  id: number,
  document: { nodes: unknown[]; connections: unknown[] },
): Promise<{ flow: FlowJson; problems: FlowProblem[] }> {
  const stored = await loadFlow(id);
  const problems = checkFlow(document, { openaiAvailable: await openaiAvailable(ctx, companyId) });
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0) refuse(errors);
  const flow = sealOpenAiKeys(ctx, document as FlowDocument, (stored.flow as FlowDocument | null) ?? null);

  // what only the server knows: the queues are the company's, the media were uploaded by it
  const serverErrors: FlowProblem[] = [];
  const queueIds = new Map<number, string>();
  for (const node of flow.nodes) if (node.type === 'ticket') queueIds.set(node.data.data.id, node.id);
  if (queueIds.size > 0) {
    const found = new Set<number>(
      await ctx.db
        .knex('queues')
        .where({ companyId })
        .whereIn('id', [...queueIds.keys()])
        .pluck('id'),
    );
    for (const [queueId, nodeId] of queueIds)
      if (!found.has(queueId))
        serverErrors.push({ nodeId, code: 'queueRequired', severity: 'error', message: 'flowProblems.queueRequired' });
  }
  for (const node of flow.nodes) {
    for (const media of mediaOf(node)) {
      const ok = media.key.startsWith(FLOW_MEDIA_PREFIX) && (await ctx.storage.stat(companyId, media.key)) !== null;
      if (!ok)
        serverErrors.push({
          nodeId: node.id,
          code: 'mediaMissing',
          severity: 'error',
          message: 'flowProblems.mediaMissing',
          ...(media.element === undefined ? {} : { detail: media.element }),
        });
    }
  }
  if (serverErrors.length > 0) refuse(serverErrors);

  const row = await FlowBuilder.query().patchAndFetchById(id, {
    flow: { nodes: flow.nodes, connections: flow.connections },
    updatedAt: new Date(),
  } as never);
  await announce(ctx, companyId, 'update', row);
  return { flow: flowJson(ctx, row), problems };
}

export async function readUpload(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The kind of media a file is, by its content, when a flow may send it. */
async function mediaKindOf(data: Buffer, fileName: string): Promise<{ kind: FlowMediaKind; ext: string } | null> {
  const type = await fileTypeFromBuffer(data);
  // an MP3 without an ID3 tag has no magic number file-type knows for sure: its name decides, checked below
  const mime = type?.mime ?? (fileName.toLowerCase().endsWith('.mp3') ? 'audio/mpeg' : null);
  const ext = type?.ext === 'opus' ? 'opus' : (type?.ext ?? 'mp3');
  if (!mime) return null;
  for (const kind of Object.keys(FLOW_MEDIA_LIMITS) as FlowMediaKind[]) {
    if ((FLOW_MEDIA_LIMITS[kind].mimeTypes as readonly string[]).includes(mime))
      return { kind, ext: ext === 'jpeg' ? 'jpg' : ext };
  }
  return null;
}

/**
 * Stores one uploaded file for a node: its kind (by content) must be one `accepted`, within its size.
 * Answers the stored name the node's data keeps.
 */
export async function storeFlowMedia(
  ctx: FlowbuilderContext,
  companyId: number,
  file: { fileName: string; data: Buffer },
  accepted: FlowMediaKind[],
): Promise<string> {
  const found = await mediaKindOf(file.data, file.fileName);
  if (!found || !accepted.includes(found.kind)) throw new AppError('ERR_FLOW_MEDIA_TYPE');
  if (file.data.length > FLOW_MEDIA_LIMITS[found.kind].maxBytes) throw new AppError('ERR_FLOW_MEDIA_TOO_LARGE');
  const base = file.fileName
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .slice(0, 60);
  const key = `${FLOW_MEDIA_PREFIX}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}-${base || 'file'}.${found.ext}`;
  await ctx.storage.put(companyId, key, file.data, { maxBytes: FLOW_MEDIA_LIMITS[found.kind].maxBytes });
  return key;
}
