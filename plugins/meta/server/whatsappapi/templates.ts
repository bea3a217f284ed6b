import { createHash } from 'node:crypto';
import { AppError, type OutboundTarget } from '@balcao/plugin-sdk/server';
import { accountOfConnection, type MetaAccount } from '../accounts';
import type { MetaContext } from '../config';
import { graphOf } from '../graph/client';
import { graphOrAppError } from '../graph/errors';
import { WINDOW_MS, windowOpen } from '../windows';

/** An approved template of a WhatsApp business account, as the composer lists it. */
export interface TemplateSummary {
  name: string;
  language: string;
  category: string;
  /** The body with its `{{1}}` … placeholders. */
  body: string;
  /** How many variables the body takes. */
  variables: number;
}

/** A template chosen for a message: what the Graph's template send needs. */
export interface TemplateChoice {
  name: string;
  language: string;
  variables: string[];
}

const LIST_CACHE_MS = 300_000;

interface GraphTemplate {
  name?: string;
  language?: string;
  status?: string;
  category?: string;
  components?: Array<{ type?: string; text?: string }>;
}

const placeholders = (body: string) => new Set([...body.matchAll(/\{\{(\d+)\}\}/g)].map((match) => match[1])).size;

/** The account's approved templates, from the Graph, cached a few minutes per account. */
export async function listTemplates(ctx: MetaContext, account: MetaAccount): Promise<TemplateSummary[]> {
  const key = `templates:${account.whatsappId}`;
  const cached = await ctx.cache.get(key);
  if (cached) return JSON.parse(cached) as TemplateSummary[];
  const businessAccountId = account.details.businessAccountId;
  if (!businessAccountId) throw new AppError('ERR_META_CONFIG_INVALID');
  const answer = await graphOrAppError(() =>
    graphOf(ctx).call<{ data?: GraphTemplate[] }>(`${businessAccountId}/message_templates`, {
      token: account.token,
      query: { fields: 'name,language,status,category,components', limit: '200' },
    }),
  );
  const templates = (answer.data ?? [])
    .filter((template) => template.status === 'APPROVED' && template.name && template.language)
    .map((template) => {
      const body = template.components?.find((component) => component.type === 'BODY')?.text ?? '';
      return {
        name: template.name as string,
        language: template.language as string,
        category: template.category ?? '',
        body,
        variables: placeholders(body),
      };
    });
  await ctx.cache.set(key, JSON.stringify(templates), LIST_CACHE_MS);
  return templates;
}

/** The template's text with its variables in place: what the agent and the ticket's history see. */
export function renderTemplate(template: TemplateSummary, variables: string[]): string {
  if (variables.length !== template.variables || variables.some((value) => !value.trim()))
    throw new AppError('ERR_META_TEMPLATE_INVALID');
  return template.body.replace(/\{\{(\d+)\}\}/g, (_, index: string) => variables[Number(index) - 1] ?? '');
}

export const bodyHash = (body: string) => createHash('sha256').update(body).digest('hex');

/** Records the template a message of the ticket is to be sent as (before the inbox stores and delivers it). */
export async function recordTemplateSend(
  ctx: MetaContext,
  companyId: number,
  ticketId: number,
  body: string,
  choice: TemplateChoice,
) {
  await ctx.db
    .knex('metaTemplateSends')
    .insert({ companyId, ticketId, bodyHash: bodyHash(body), template: JSON.stringify(choice) });
}

/**
 * The template a message being delivered was chosen as, or null: a free-form message. The first delivery
 * takes the pending choice of its ticket and text for its own message id (once: a later message with the
 * same text is not a template); its retries find it by that id.
 */
export async function templateOf(
  ctx: MetaContext,
  target: OutboundTarget,
  body: string,
  messageId: number,
): Promise<TemplateChoice | null> {
  const knex = ctx.db.knex;
  const own = await knex('metaTemplateSends').where({ companyId: target.companyId, messageId }).first('template');
  if (own) return own.template as TemplateChoice;
  const pending = knex('metaTemplateSends')
    .where({ companyId: target.companyId, ticketId: target.ticket.id, bodyHash: bodyHash(body) })
    .whereNull('messageId')
    .orderBy('id', 'desc')
    .first('id');
  const [taken] = await knex('metaTemplateSends')
    .where('id', pending)
    .whereNull('messageId')
    .update({ messageId })
    .returning('template');
  return taken ? (taken.template as TemplateChoice) : null;
}

/** The Cloud API's body of a template message. */
export function templateBody(to: string, choice: TemplateChoice): Record<string, unknown> {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name: choice.name,
      language: { code: choice.language },
      components:
        choice.variables.length > 0
          ? [{ type: 'body', parameters: choice.variables.map((value) => ({ type: 'text', text: value })) }]
          : [],
    },
  };
}

/**
 * A ticket's 24-hour window on WhatsApp Cloud, as the composer shows it: when its contact last wrote on the
 * ticket's connection (by any of the contact's WhatsApp ids or its number, as the driver addresses it) and
 * whether free text may go now. Tickets of other connections are not windowed here.
 */
export async function ticketWindow(ctx: MetaContext, companyId: number, ticketId: number) {
  const knex = ctx.db.knex;
  const closed = { windowed: false, open: true, whatsappId: null, lastInboundAt: null, closesAt: null };
  const ticket = await knex('tickets as t')
    .join('contacts as c', 'c.id', 't.contactId')
    .where({ 't.companyId': companyId, 't.id': ticketId })
    .first('t.whatsappId', 't.contactId', 'c.number');
  if (!ticket?.whatsappId) return closed;
  const account = await accountOfConnection(ctx, companyId, Number(ticket.whatsappId));
  if (account?.channel !== 'whatsappapi') return closed;
  const identities = (await knex('contactIdentities')
    .where({ companyId, contactId: ticket.contactId })
    .pluck('identifier')) as string[];
  const number = String(ticket.number ?? '').replace(/\D/g, '');
  const candidates = [...new Set([...identities, number].filter(Boolean))];
  const row = candidates.length
    ? await knex('metaWindows')
        .where({ companyId, whatsappId: account.whatsappId })
        .whereIn('identifier', candidates)
        .max('lastInboundAt as last')
        .first()
    : undefined;
  const last = row?.last ? new Date(row.last) : null;
  return {
    windowed: true,
    open: windowOpen(last),
    whatsappId: account.whatsappId,
    lastInboundAt: last?.toISOString() ?? null,
    closesAt: last ? new Date(last.getTime() + WINDOW_MS).toISOString() : null,
  };
}
