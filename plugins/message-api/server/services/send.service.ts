import { createHash } from 'node:crypto';
import {
  AppError,
  type BatcherStats,
  type DeliveryOutcome,
  perInstance,
  runInTenant,
  type StagedOutbound,
  type StageOutboundItem,
  type StageOutboundOptions,
  StatementBatcher,
} from '@balcao/plugin-sdk/server';
import type { MessageApiContext } from '../config';
import type { StoredApiMedia } from './media';

/** Who is sending: the company, the connection the token names (null for an API key) and the rate-limit identity. */
export interface ApiCaller {
  companyId: number;
  connectionId: number | null;
  /** `connection:<id>` or `key:<id>`: what the rate limit counts. */
  identity: string;
}

/** One send as the API received it (JSON or multipart), validated. */
export interface ApiSend {
  number: string;
  body: string;
  userId: number | null;
  queueId: number | null;
  sendSignature: boolean;
  closeTicket: boolean;
  /** The connection an API key sends through (a connection's token names its own). */
  whatsappId: number | null;
  files: StoredApiMedia[];
}

/** The answer of `POST /api/messages/send`, stored with an idempotency key and answered again on a retry. */
export interface ApiSendAnswer {
  /** The first message's id (the only one for a text). */
  messageId: number;
  ticketId: number;
  contactId: number;
  whatsappId: number;
  ticketCreated: boolean;
  ticketStatus: string;
  messages: Array<{ id: number; status: 'sent' | 'failed' | 'pending'; error: string | null }>;
}

/** A phone number as the API takes it: digits only, country code first (no mask, no letters, no `+`). */
export const API_NUMBER_PATTERN = '^[0-9]{8,20}$';
const NUMBER = new RegExp(API_NUMBER_PATTERN);

/** Refuses a number with a mask or letters, naming the field (docs/api.md "The message API"). */
export function checkNumber(number: string): void {
  if (!NUMBER.test(number)) {
    throw new AppError('ERR_VALIDATION', {
      details: [{ field: 'body.number', message: 'must be digits only, country code first (no mask, spaces or letters)' }],
    });
  }
}

/** The hash an idempotency key is tied to: the same key with another request is refused. */
export function requestHash(send: ApiSend): string {
  const canonical = JSON.stringify([
    send.number,
    send.body,
    send.userId,
    send.queueId,
    send.sendSignature,
    send.closeTicket,
    send.whatsappId,
    send.files.map((file) => [file.fileName, file.size, file.mimetype]),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** Today in UTC (`YYYY-MM-DD`): the day a send is counted on. */
export function utcDay(at = new Date()): string {
  return at.toISOString().slice(0, 10);
}

/** The Redis counter of a company's sends on a day (kept three days: today's and the two before). */
export const usageKey = (companyId: number, day: string) => `usage:${companyId}:${day}`;
const USAGE_WINDOW_MS = 3 * 86_400_000;

/** Adds one to the company's sends of the day. */
async function countSend(ctx: MessageApiContext, companyId: number): Promise<void> {
  await ctx.cache.increment(usageKey(companyId, utcDay()), USAGE_WINDOW_MS);
}

/** The company's sends through the API today (UTC). */
export async function sendsToday(ctx: MessageApiContext, companyId: number): Promise<number> {
  return Number((await ctx.cache.get(usageKey(companyId, utcDay()))) ?? 0);
}

/**
 * The connection a send goes through: the token's, else the one named, else the company's default. A named
 * one comes from the `connections` service's profile (cached per process, dropped on every process when
 * the connection is saved or deleted): no read per send. The default is found by a read (which connection
 * is the default changes with any other connection's save).
 */
async function connectionOf(ctx: MessageApiContext, caller: ApiCaller, send: ApiSend): Promise<{ id: number; channel: string }> {
  const named = caller.connectionId ?? send.whatsappId;
  if (named !== null && ctx.services.has('connections')) {
    const profile = await ctx.services.use('connections').profile(caller.companyId, named);
    if (!profile) throw new AppError('ERR_MESSAGE_API_NO_CONNECTION');
    return { id: profile.id, channel: profile.channel };
  }
  const query = ctx.db.knex('whatsapps').where({ companyId: caller.companyId });
  if (named !== null) query.andWhere({ id: named });
  else
    query.orderBy([
      { column: 'isDefault', order: 'desc' },
      { column: 'id', order: 'asc' },
    ]);
  const row = (await query.first('id', 'channel')) as { id: number; channel: string } | undefined;
  if (!row) throw new AppError('ERR_MESSAGE_API_NO_CONNECTION');
  return row;
}

/** The sending user (their name signs the text), refused when not the company's. */
async function senderOf(ctx: MessageApiContext, companyId: number, userId: number | null): Promise<{ name: string } | null> {
  if (userId === null) return null;
  const user = (await ctx.db.knex('users').where({ companyId, id: userId }).first('name')) as { name: string } | undefined;
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  return user;
}

async function checkQueue(ctx: MessageApiContext, companyId: number, queueId: number | null): Promise<void> {
  if (queueId === null) return;
  if (!(await ctx.db.knex('queues').where({ companyId, id: queueId }).first('id'))) throw new AppError('ERR_NO_QUEUE_FOUND');
}

interface StoredRequest {
  requestHash: string;
  response: ApiSendAnswer;
  createdAt: Date;
}

/** One request's look-up of its idempotency key. */
interface KeyLookup {
  companyId: number;
  caller: string;
  key: string;
}

/**
 * The records of several requests' keys in one statement (`lookups` of one company). A record without a
 * caller was written before records had one: it still answers its company's callers until the retention
 * purges it (the caller's own record comes first).
 */
async function storedRequests(ctx: MessageApiContext, lookups: KeyLookup[]): Promise<Array<StoredRequest | null>> {
  const result = (await ctx.db.knex
    .raw(
      `SELECT x.n, r.request_hash AS "requestHash", r.response, r.created_at AS "createdAt"
     FROM unnest(?::int[], ?::text[], ?::text[]) WITH ORDINALITY AS x(company_id, caller, key, n)
     CROSS JOIN LATERAL (
       SELECT request_hash, response, created_at FROM message_api_requests r
       WHERE r.company_id = x.company_id AND r.idempotency_key = x.key AND (r.caller = x.caller OR r.caller IS NULL)
       ORDER BY r.caller IS NULL LIMIT 1) r`,
      [lookups.map((lookup) => lookup.companyId), lookups.map((lookup) => lookup.caller), lookups.map((lookup) => lookup.key)],
      // one fixed text for any number of look-ups: prepared once per connection, parsed and planned once
    )
    .options({ name: 'message_api_lookup_keys' })) as { rows: Array<StoredRequest & { n: string | number }> };
  const byPosition = new Map(result.rows.map((row) => [Number(row.n), row]));
  return lookups.map((_lookup, index) => {
    const row = byPosition.get(index + 1);
    return row ? { requestHash: row.requestHash, response: row.response, createdAt: row.createdAt } : null;
  });
}

/** The caller's record of a key: read with the look-ups of the requests arriving meanwhile (`batchersOf(ctx).lookup`). */
function storedRequest(ctx: MessageApiContext, caller: ApiCaller, key: string): Promise<StoredRequest | null> {
  return batchersOf(ctx).lookup.submit({ companyId: caller.companyId, caller: caller.identity, key });
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}

/**
 * How long after its record a request's pending messages are taken for abandoned (the process that stored
 * them died before delivering): a replay then delivers them. Younger, the first request is still at it.
 */
const ABANDONED_AFTER_MS = 15_000;

/**
 * Answers a request whose idempotency key was used before: the stored answer with its messages' state now.
 * Messages still pending from a record older than `ABANDONED_AFTER_MS` are delivered — `deliver` keeps one
 * channel message per message id, so even that never makes a second message.
 */
async function replay(
  ctx: MessageApiContext,
  companyId: number,
  stored: StoredRequest,
  send: ApiSend,
  hash: string,
): Promise<ApiSendAnswer> {
  if (stored.requestHash !== hash) throw new AppError('ERR_IDEMPOTENCY_KEY_REUSED');
  const answer = stored.response;
  const ids = answer.messages.map((message) => message.id);
  const rows = (await ctx.db
    .knex('messages')
    .where({ companyId })
    .whereIn('id', ids)
    .select('id', 'sendStatus', 'sendError')) as Array<{ id: string | number; sendStatus: string; sendError: string | null }>;
  let messages: ApiSendAnswer['messages'] = ids.map((id) => {
    const row = rows.find((candidate) => Number(candidate.id) === id);
    const status = row?.sendStatus === 'sent' || row?.sendStatus === 'failed' ? row.sendStatus : 'pending';
    return { id, status, error: row?.sendError ?? null };
  });
  if (messages.some((message) => message.status === 'pending') && Date.now() - stored.createdAt.getTime() > ABANDONED_AFTER_MS) {
    messages = outcomesOf(ids, await ctx.services.use('inbox').deliver(ids));
  }
  const ticketStatus = await finishTicket(ctx, companyId, answer.ticketId, send);
  return { ...answer, ticketStatus, messages };
}

/**
 * Closes the ticket when the send asks for it (once: a closed ticket is left as it is); answers its status.
 * `statusNow` is the status just read with the other tickets of a delivery batch (else it is read here).
 */
async function finishTicket(
  ctx: MessageApiContext,
  companyId: number,
  ticketId: number,
  send: ApiSend,
  statusNow?: string,
): Promise<string> {
  const status =
    statusNow ?? ((await ctx.db.knex('tickets').where({ companyId, id: ticketId }).first('status'))?.status as string);
  if (!send.closeTicket || status === 'closed') return status;
  await ctx.services
    .use('inbox')
    .applyTicketChange({ ticketId, status: 'closed', logs: [{ type: 'closed', userId: send.userId }] });
  return 'closed';
}

function outcomesOf(ids: number[], outcomes: DeliveryOutcome[]): ApiSendAnswer['messages'] {
  return ids.map((id) => {
    const outcome = outcomes.find((candidate) => candidate.messageId === id);
    return { id, status: outcome?.status ?? 'pending', error: outcome?.error ?? null };
  });
}

/** One request's messages to stage: they go in one statement with those of the requests that arrive meanwhile. */
interface StageRequest {
  companyId: number;
  connection: { id: number; channel: string };
  newTicket: StageOutboundOptions['newTicket'];
  /** Keyed 0…n-1 in the request's order. */
  items: StageOutboundItem[];
  /** `caller` is the caller's identity: a key is the caller's own, another caller may use it too. */
  idempotency: { caller: string; key: string; hash: string } | null;
}

/** The record a retry with the same key answers from (its messages' states and the ticket's status are read again). */
function recordedAnswer(rows: StagedOutbound[], connectionId: number): ApiSendAnswer {
  const first = rows[0] as StagedOutbound;
  return {
    messageId: first.messageId,
    ticketId: first.ticketId,
    contactId: first.contactId,
    whatsappId: connectionId,
    ticketCreated: first.ticketCreated,
    ticketStatus: 'pending',
    messages: rows.map((row) => ({ id: row.messageId, status: 'pending', error: null })),
  };
}

/**
 * Stages the messages of several requests of one company, connection and ticket options in one
 * `stageOutbound` (one transaction), with each request's idempotency record. A key already recorded (a
 * concurrent twin committed first: the insert waits on the unique index, then fails) undoes the batch,
 * and the batcher runs each request alone: the twin then replays, the others go through.
 */
async function stageRequests(ctx: MessageApiContext, requests: StageRequest[]): Promise<StagedOutbound[][]> {
  const first = requests[0] as StageRequest;
  const owner: number[] = [];
  const items: StageOutboundItem[] = [];
  requests.forEach((request, index) => {
    for (const item of request.items) {
      owner.push(index);
      items.push({ ...item, key: items.length });
    }
  });
  const byRequest = (rows: StagedOutbound[]) =>
    requests.map((_request, index) =>
      rows
        .filter((row) => owner[row.key] === index)
        .sort((a, b) => a.key - b.key)
        .map((row, position) => ({ ...row, key: position })),
    );
  const staged = await runInTenant({ companyId: first.companyId }, () =>
    ctx.services.use('inbox').stageOutbound(items, {
      whatsappId: first.connection.id,
      channel: first.connection.channel,
      newTicket: first.newTicket,
      automation: 'message-api',
      async link(trx, rows) {
        const split = byRequest(rows);
        const records = requests.flatMap((request, index) =>
          request.idempotency
            ? [
                {
                  companyId: request.companyId,
                  caller: request.idempotency.caller,
                  idempotencyKey: request.idempotency.key,
                  requestHash: request.idempotency.hash,
                  response: JSON.stringify(recordedAnswer(split[index] as StagedOutbound[], request.connection.id)),
                },
              ]
            : [],
        );
        // one fixed text for any number of records: prepared once per connection
        if (records.length > 0)
          await trx
            .raw(
              `INSERT INTO message_api_requests (company_id, caller, idempotency_key, request_hash, response)
               SELECT * FROM unnest(?::int[], ?::text[], ?::text[], ?::text[], ?::jsonb[])`,
              [
                records.map((record) => record.companyId),
                records.map((record) => record.caller),
                records.map((record) => record.idempotencyKey),
                records.map((record) => record.requestHash),
                records.map((record) => record.response),
              ],
            )
            .options({ name: 'message_api_record_keys' });
      },
    }),
  );
  return byRequest(staged);
}

/** Whether two requests can't share a staging: another company, connection or ticket options, or one caller's same key. */
function stagingConflicts(earlier: StageRequest, item: StageRequest): boolean {
  return (
    earlier.companyId !== item.companyId ||
    earlier.connection.id !== item.connection.id ||
    // field by field: the batcher compares each arriving send with those queued before it
    earlier.newTicket.status !== item.newTicket.status ||
    (earlier.newTicket.userId ?? null) !== (item.newTicket.userId ?? null) ||
    (earlier.newTicket.queueId ?? null) !== (item.newTicket.queueId ?? null) ||
    (earlier.idempotency !== null &&
      earlier.idempotency.key === item.idempotency?.key &&
      earlier.idempotency.caller === item.idempotency.caller)
  );
}

/** The deliveries of concurrent requests of one company, as one `deliver` call. */
interface DeliverRequest {
  companyId: number;
  ids: number[];
  /** The ticket the messages are on: its status after the delivery is part of the answer. */
  ticketId: number;
}

/** A request's delivery outcomes and its ticket's status once delivered. */
interface Delivered {
  outcomes: DeliveryOutcome[];
  ticketStatus: string | undefined;
}

/**
 * One `deliver` for the batch; each request's ticket status is the one the delivery read with its messages
 * (`DeliveryOutcome.ticketStatus`), and the tickets it didn't answer for are read together, once.
 */
async function deliverRequests(ctx: MessageApiContext, requests: DeliverRequest[]): Promise<Delivered[]> {
  const first = requests[0] as DeliverRequest;
  const outcomes = await runInTenant({ companyId: first.companyId }, () =>
    ctx.services.use('inbox').deliver(requests.flatMap((request) => request.ids)),
  );
  const byMessage = new Map(outcomes.map((outcome) => [outcome.messageId, outcome]));
  const statusOf = new Map<number, string>();
  for (const request of requests) {
    const status = request.ids.map((id) => byMessage.get(id)?.ticketStatus).find((found) => found !== undefined);
    if (status !== undefined) statusOf.set(request.ticketId, status);
  }
  const unknown = [...new Set(requests.map((request) => request.ticketId))].filter((id) => !statusOf.has(id));
  if (unknown.length > 0) {
    const rows = (await ctx.db
      .knex('tickets')
      .where({ companyId: first.companyId })
      .whereIn('id', unknown)
      .select('id', 'status')) as Array<{ id: number; status: string }>;
    for (const row of rows) statusOf.set(row.id, row.status);
  }
  return requests.map((request) => ({
    outcomes: request.ids.flatMap((id) => {
      const outcome = byMessage.get(id);
      return outcome ? [outcome] : [];
    }),
    ticketStatus: statusOf.get(request.ticketId),
  }));
}

/**
 * Each app's batchers (docs/architecture.md "API keys and the message API"): a send's cost is mostly per
 * statement and per transaction, so concurrent sends are staged and delivered together, as the inbox's
 * `receive` gathers inbound messages; a lone send goes at once.
 */
const batchersOf = perInstance((ctx: MessageApiContext) => ({
  lookup: new StatementBatcher<KeyLookup, StoredRequest | null>({
    runOne: async (lookup) => (await storedRequests(ctx, [lookup]))[0] ?? null,
    runMany: (lookups) => storedRequests(ctx, lookups),
    conflicts: (earlier, item) => earlier.companyId !== item.companyId,
    maxInFlight: 4,
    maxBatch: 100,
  }),
  stage: new StatementBatcher<StageRequest, StagedOutbound[]>({
    runOne: async (request) => (await stageRequests(ctx, [request]))[0] as StagedOutbound[],
    runMany: (requests) => stageRequests(ctx, requests),
    conflicts: stagingConflicts,
    maxInFlight: 4,
    maxBatch: 50,
  }),
  deliver: new StatementBatcher<DeliverRequest, Delivered>({
    runOne: async (request) => (await deliverRequests(ctx, [request]))[0] as Delivered,
    runMany: (requests) => deliverRequests(ctx, requests),
    conflicts: (earlier, item) => earlier.companyId !== item.companyId,
    maxInFlight: 4,
    maxBatch: 50,
  }),
}));

/**
 * `POST /api/messages/send` (docs/product/automation.md "Message API", docs/api.md "The message API"):
 * stores the messages on the person's ticket (the contact and the ticket made when missing) through the
 * inbox, delivers them, closes the ticket when asked, and answers what it made. With an idempotency key,
 * the key's record is written in the staging transaction itself: a retry — sequential or concurrent —
 * finds it (or waits on its unique index until the first commits) and gets the same answer; nothing is
 * sent twice.
 */
export async function sendThroughApi(
  ctx: MessageApiContext,
  caller: ApiCaller,
  send: ApiSend,
  idempotencyKey: string | null,
): Promise<{ answer: ApiSendAnswer; replayed: boolean }> {
  const { companyId } = caller;
  return runInTenant({ companyId }, async () => {
    const hash = requestHash(send);
    if (idempotencyKey !== null) {
      const stored = await storedRequest(ctx, caller, idempotencyKey);
      if (stored) return { answer: await replay(ctx, companyId, stored, send, hash), replayed: true };
    }
    if (send.body.trim() === '' && send.files.length === 0) throw new AppError('ERR_MESSAGE_API_EMPTY');
    const [connection, sender] = await Promise.all([
      connectionOf(ctx, caller, send),
      senderOf(ctx, companyId, send.userId),
      checkQueue(ctx, companyId, send.queueId),
    ]);
    // docs/product/tickets-and-inbox.md#entities: an agent's signature is `*{name}:*` on a line of its own
    const text = send.sendSignature && sender && send.body.trim() !== '' ? `*${sender.name}:*\n${send.body}` : send.body;
    const items =
      send.files.length === 0
        ? [{ key: 0, number: send.number, body: text }]
        : send.files.map((file, index) => ({
            key: index,
            number: send.number,
            // the text is the first file's caption
            body: index === 0 ? text : '',
            media: { storageKey: file.storageKey, fileName: file.fileName, mimetype: file.mimetype, mediaType: file.mediaType },
          }));
    let staged: StagedOutbound[];
    try {
      staged = await batchersOf(ctx).stage.submit({
        companyId,
        connection,
        newTicket: { status: send.userId !== null ? 'open' : 'pending', userId: send.userId, queueId: send.queueId },
        items,
        idempotency: idempotencyKey === null ? null : { caller: caller.identity, key: idempotencyKey, hash },
      });
    } catch (error) {
      if (idempotencyKey !== null && isUniqueViolation(error)) {
        const stored = await storedRequest(ctx, caller, idempotencyKey);
        if (stored) return { answer: await replay(ctx, companyId, stored, send, hash), replayed: true };
      }
      throw error;
    }
    const ids = staged.map((row) => row.messageId);
    const first = staged[0] as StagedOutbound;
    const { outcomes, ticketStatus: statusNow } = await batchersOf(ctx).deliver.submit({
      companyId,
      ids,
      ticketId: first.ticketId,
    });
    const ticketStatus = await finishTicket(ctx, companyId, first.ticketId, send, statusNow);
    await countSend(ctx, companyId);
    return {
      answer: {
        messageId: first.messageId,
        ticketId: first.ticketId,
        contactId: first.contactId,
        whatsappId: connection.id,
        ticketCreated: first.ticketCreated,
        ticketStatus,
        messages: outcomesOf(ids, outcomes),
      },
      replayed: false,
    };
  });
}

/** What the app's batchers did (statements and the sends they carried), for tests and the bench. */
export function sendBatcherStats(ctx: MessageApiContext): { lookup: BatcherStats; stage: BatcherStats; deliver: BatcherStats } {
  const batchers = batchersOf(ctx);
  return { lookup: batchers.lookup.stats, stage: batchers.stage.stats, deliver: batchers.deliver.stats };
}
