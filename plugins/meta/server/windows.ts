import type { MetaContext } from './config';

/** Meta's customer-service window: free-form replies only within 24 hours of the contact's last message. */
export const WINDOW_MS = 24 * 3_600_000;
/** Messenger's HUMAN_AGENT tag lets an agent answer within 7 days of the contact's last message. */
export const HUMAN_AGENT_MS = 7 * 24 * 3_600_000;

/** Records the contacts' latest inbound messages of one connection (one statement for a whole delivery). */
export async function touchWindows(
  ctx: MetaContext,
  companyId: number,
  whatsappId: number,
  latest: Map<string, Date>,
): Promise<void> {
  if (latest.size === 0) return;
  const rows = [...latest].map(([identifier, at]) => ({ companyId, whatsappId, identifier, lastInboundAt: at }));
  await ctx.db
    .knex('metaWindows')
    .insert(rows)
    .onConflict(['whatsappId', 'identifier'])
    .merge({ lastInboundAt: ctx.db.knex.raw('greatest(??, excluded.??)', ['metaWindows.lastInboundAt', 'lastInboundAt']) });
}

/** When the contact last wrote on the connection (null: never). */
export async function lastInbound(
  ctx: MetaContext,
  companyId: number,
  whatsappId: number,
  identifier: string,
): Promise<Date | null> {
  const row = await ctx.db.knex('metaWindows').where({ companyId, whatsappId, identifier }).first('lastInboundAt');
  return row ? new Date(row.lastInboundAt) : null;
}

/** Whether a free-form message may go now; `spanMs` the window (24 h, or 7 days with HUMAN_AGENT). */
export function windowOpen(last: Date | null, spanMs = WINDOW_MS, now = Date.now()): boolean {
  return last !== null && now - last.getTime() < spanMs;
}
