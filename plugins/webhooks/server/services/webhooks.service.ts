import { isIP } from 'node:net';
import { AppError, isSpecialAddress, parseAllowEntry } from '@balcao/plugin-sdk/server';
import { TEST_EVENT } from '../../shared/events';
import type { WebhooksContext } from '../config';
import { emitWebhook } from './live';
import { invalidateEndpoints, WAKE_TOPIC } from './outbox';
import { newSigningSecret, seal, secretsKey } from './secrets';

/**
 * Endpoints and their delivery log (docs/api.md "Webhooks"): a company admin's CRUD, the secret shown once
 * on creation and on rotation, a test delivery, redeliveries. Every query names the caller's company.
 */

export interface WebhookInput {
  name: string;
  url: string;
  events: string[];
  active?: boolean;
}

interface EndpointRow {
  id: number;
  companyId: number;
  name: string;
  url: string;
  events: string[];
  active: boolean;
  secretSealed: string;
  failingSince: Date | null;
  disabledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

interface DeliveryRow {
  id: number | string;
  uuid: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  occurredAt: Date;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  redeliveryOf: number | string | null;
}

const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

/** An endpoint as answered: the secret only ever as a mask. */
export function webhookJson(row: EndpointRow) {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: row.events,
    active: row.active,
    secretMasked: 'whsec_••••••••',
    failingSince: iso(row.failingSince),
    disabledAt: iso(row.disabledAt),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

function deliveryJson(row: DeliveryRow) {
  return {
    id: Number(row.id),
    uuid: row.uuid,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    durationMs: row.durationMs,
    error: row.error,
    occurredAt: new Date(row.occurredAt).toISOString(),
    lastAttemptAt: iso(row.lastAttemptAt),
    nextAttemptAt: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
    redeliveryOf: row.redeliveryOf === null ? null : Number(row.redeliveryOf),
  };
}

/**
 * Refuses an address the dispatcher may never reach: not absolute http(s), credentials in it, or a host
 * that is literally a special address (loopback, private, link-local, metadata …) or `localhost`, unless
 * OUTBOUND_HTTP_ALLOW allows it. Names are resolved only when delivering, by the guarded client, which
 * checks the address it connects to (a name can change its answer after it is saved).
 */
export function checkUrl(ctx: WebhooksContext, text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new AppError('ERR_WEBHOOK_URL_INVALID');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !url.hostname) {
    throw new AppError('ERR_WEBHOOK_URL_INVALID');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const literal = host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : isIP(host) ? host : null;
  if (literal !== null && isSpecialAddress(literal)) {
    const [address] = parseAllowEntry(literal);
    const allowed = ctx.config.outboundHttpAllow.some((entry) => {
      const [range, bits] = parseAllowEntry(entry);
      return range.kind() === address.kind() && address.match(range as typeof address, bits);
    });
    if (!allowed) throw new AppError('ERR_WEBHOOK_URL_BLOCKED');
  }
  return url.toString();
}

async function loadEndpoint(ctx: WebhooksContext, companyId: number, id: number): Promise<EndpointRow> {
  const row = (await ctx.db.knex('webhookEndpoints').where({ companyId, id }).first()) as EndpointRow | undefined;
  if (!row) throw new AppError('ERR_NO_WEBHOOK_FOUND');
  return row;
}

export async function listWebhooks(ctx: WebhooksContext, companyId: number) {
  const rows = (await ctx.db.knex('webhookEndpoints').where({ companyId }).orderBy('id')) as EndpointRow[];
  return { webhooks: rows.map(webhookJson) };
}

export async function getWebhook(ctx: WebhooksContext, companyId: number, id: number) {
  return webhookJson(await loadEndpoint(ctx, companyId, id));
}

export async function createWebhook(
  ctx: WebhooksContext,
  companyId: number,
  input: WebhookInput,
  language: string | null = null,
) {
  const url = checkUrl(ctx, input.url);
  const secret = newSigningSecret();
  const row = await ctx.db.knex.transaction(async (trx) => {
    // one creation per company at a time, so two at once can't both pass the count
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?), ?)', ['webhook-endpoints', companyId]);
    const [counted] = (await trx('webhookEndpoints').where({ companyId }).count({ n: '*' })) as Array<{ n: string }>;
    if (Number(counted?.n ?? 0) >= ctx.config.WEBHOOKS_MAX_PER_COMPANY) throw new AppError('ERR_WEBHOOK_LIMIT_REACHED');
    const [inserted] = (await trx('webhookEndpoints')
      .insert({
        companyId,
        name: input.name.trim(),
        url,
        events: input.events,
        active: input.active ?? true,
        language,
        secretSealed: seal(secretsKey(ctx), secret),
      })
      .returning('*')) as EndpointRow[];
    return inserted;
  });
  if (!row) throw new Error('webhook endpoint not inserted');
  await invalidateEndpoints(ctx, companyId);
  emitWebhook(ctx, companyId, { action: 'create', webhookId: row.id });
  return { webhook: webhookJson(row), secret };
}

/**
 * Changes an endpoint; switching it back on starts its failure count over. The saving admin's language
 * (when the request tells one) becomes the endpoint's, for the e-mail of a disable.
 */
export async function updateWebhook(
  ctx: WebhooksContext,
  companyId: number,
  id: number,
  input: WebhookInput,
  language: string | null = null,
) {
  const current = await loadEndpoint(ctx, companyId, id);
  const url = checkUrl(ctx, input.url);
  const active = input.active ?? current.active;
  const reenabled = active && !current.active;
  const [row] = (await ctx.db
    .knex('webhookEndpoints')
    .where({ companyId, id })
    .update({
      name: input.name.trim(),
      url,
      events: input.events,
      active,
      ...(language ? { language } : {}),
      updatedAt: new Date(),
      ...(reenabled ? { failingSince: null, disabledAt: null } : {}),
    })
    .returning('*')) as EndpointRow[];
  if (!row) throw new AppError('ERR_NO_WEBHOOK_FOUND');
  await invalidateEndpoints(ctx, companyId);
  emitWebhook(ctx, companyId, { action: 'update', webhookId: id });
  if (reenabled) await ctx.broadcast.publish(WAKE_TOPIC, {});
  return webhookJson(row);
}

export async function deleteWebhook(ctx: WebhooksContext, companyId: number, id: number): Promise<void> {
  const deleted = await ctx.db.knex('webhookEndpoints').where({ companyId, id }).delete();
  if (deleted === 0) throw new AppError('ERR_NO_WEBHOOK_FOUND');
  await invalidateEndpoints(ctx, companyId);
  emitWebhook(ctx, companyId, { action: 'delete', webhookId: id });
}

/** A new secret, shown once; deliveries still pending are signed with it. */
export async function rotateSecret(ctx: WebhooksContext, companyId: number, id: number) {
  await loadEndpoint(ctx, companyId, id);
  const secret = newSigningSecret();
  const [row] = (await ctx.db
    .knex('webhookEndpoints')
    .where({ companyId, id })
    .update({ secretSealed: seal(secretsKey(ctx), secret), updatedAt: new Date() })
    .returning('*')) as EndpointRow[];
  if (!row) throw new AppError('ERR_NO_WEBHOOK_FOUND');
  return { webhook: webhookJson(row), secret };
}

const PAGE_SIZE = 20;

export async function listDeliveries(ctx: WebhooksContext, companyId: number, id: number, pageNumber = 1) {
  await loadEndpoint(ctx, companyId, id);
  const query = ctx.db.knex('webhookDeliveries').where({ companyId, endpointId: id });
  const [rows, [total]] = await Promise.all([
    query
      .clone()
      .orderBy('id', 'desc')
      .limit(PAGE_SIZE)
      .offset((pageNumber - 1) * PAGE_SIZE) as Promise<DeliveryRow[]>,
    query.clone().count({ n: '*' }) as Promise<Array<{ n: string }>>,
  ]);
  const count = Number(total?.n ?? 0);
  return { deliveries: rows.map(deliveryJson), count, hasMore: pageNumber * PAGE_SIZE < count };
}

async function insertDelivery(
  ctx: WebhooksContext,
  values: { companyId: number; endpointId: number; event: string; data: unknown; redeliveryOf?: number },
) {
  const now = new Date();
  const [row] = (await ctx.db
    .knex('webhookDeliveries')
    .insert({ ...values, data: JSON.stringify(values.data), occurredAt: now, nextAttemptAt: now })
    .returning('*')) as DeliveryRow[];
  if (!row) throw new Error('webhook delivery not inserted');
  await ctx.broadcast.publish(WAKE_TOPIC, {});
  return deliveryJson(row);
}

/** Queues a `webhook.test` delivery to one endpoint, sent at once: refused while the endpoint is off. */
export async function sendTest(ctx: WebhooksContext, companyId: number, id: number) {
  const endpoint = await loadEndpoint(ctx, companyId, id);
  if (!endpoint.active) throw new AppError('ERR_WEBHOOK_INACTIVE');
  return insertDelivery(ctx, {
    companyId,
    endpointId: endpoint.id,
    event: TEST_EVENT,
    data: { webhookId: endpoint.id, name: endpoint.name },
  });
}

/**
 * Sends a delivery's event again as a new delivery (its own id: a receiver that deduped the first one
 * takes this one, which is what a redelivery asks for); its 24 hours start now.
 */
export async function redeliver(ctx: WebhooksContext, companyId: number, id: number, deliveryId: number) {
  await loadEndpoint(ctx, companyId, id);
  const original = (await ctx.db.knex('webhookDeliveries').where({ companyId, endpointId: id, id: deliveryId }).first()) as
    | (DeliveryRow & { data: unknown })
    | undefined;
  if (!original) throw new AppError('ERR_NO_WEBHOOK_DELIVERY_FOUND');
  return insertDelivery(ctx, { companyId, endpointId: id, event: original.event, data: original.data, redeliveryOf: deliveryId });
}
