import type { AiContext } from '../config';

/**
 * What the assistant costs: tokens in and out per prompt per day per company, and the company's monthly
 * cap, past which the assistant hands tickets to people instead of asking the provider (docs/ai.md "Cost").
 * Days and months are UTC.
 */

export async function recordUsage(ctx: AiContext, companyId: number, promptId: number, tokensIn: number, tokensOut: number) {
  await ctx.db.knex.raw(
    `INSERT INTO ai_usage (company_id, prompt_id, day, tokens_in, tokens_out, requests)
     VALUES (?, ?, (now() AT TIME ZONE 'UTC')::date, ?, ?, 1)
     ON CONFLICT (company_id, day, prompt_id) DO UPDATE SET
       tokens_in = ai_usage.tokens_in + EXCLUDED.tokens_in,
       tokens_out = ai_usage.tokens_out + EXCLUDED.tokens_out,
       requests = ai_usage.requests + 1`,
    [companyId, promptId, tokensIn, tokensOut],
  );
}

export async function monthUsage(ctx: AiContext, companyId: number): Promise<{ tokensIn: number; tokensOut: number }> {
  const row = await ctx.db.knex
    .raw(
      `SELECT coalesce(sum(tokens_in), 0)::bigint AS tokens_in, coalesce(sum(tokens_out), 0)::bigint AS tokens_out
       FROM ai_usage WHERE company_id = ? AND day >= date_trunc('month', now() AT TIME ZONE 'UTC')::date`,
      [companyId],
    )
    .then((result: { rows: Array<{ tokens_in: string; tokens_out: string }> }) => result.rows[0]);
  return { tokensIn: Number(row?.tokens_in ?? 0), tokensOut: Number(row?.tokens_out ?? 0) };
}

export async function monthlyCap(ctx: AiContext, companyId: number): Promise<number | null> {
  const row = await ctx.db.knex('aiCompanySettings').where({ companyId }).first('monthlyTokenCap');
  return row?.monthlyTokenCap === null || row?.monthlyTokenCap === undefined ? null : Number(row.monthlyTokenCap);
}

export async function setMonthlyCap(ctx: AiContext, companyId: number, cap: number | null): Promise<void> {
  await ctx.db
    .knex('aiCompanySettings')
    .insert({ companyId, monthlyTokenCap: cap, updatedAt: new Date() })
    .onConflict('companyId')
    .merge();
}

/** Whether the company spent its month's tokens (in and out together). */
export async function overCap(ctx: AiContext, companyId: number): Promise<boolean> {
  const cap = await monthlyCap(ctx, companyId);
  if (cap === null) return false;
  const used = await monthUsage(ctx, companyId);
  return used.tokensIn + used.tokensOut >= cap;
}

export async function usageReport(ctx: AiContext, companyId: number, days: number) {
  const rows: Array<{ day: string; promptId: number; tokensIn: string; tokensOut: string; requests: number }> = await ctx.db
    .knex('aiUsage')
    .where({ companyId })
    .whereRaw(`day > (now() AT TIME ZONE 'UTC')::date - ?::int`, [days])
    .orderBy('day')
    .orderBy('promptId')
    .select(ctx.db.knex.raw(`to_char(day, 'YYYY-MM-DD') AS day`), 'promptId', 'tokensIn', 'tokensOut', 'requests');
  return {
    days: rows.map((row) => ({
      day: row.day,
      promptId: row.promptId,
      tokensIn: Number(row.tokensIn),
      tokensOut: Number(row.tokensOut),
      requests: row.requests,
    })),
    month: await monthUsage(ctx, companyId),
    monthlyTokenCap: await monthlyCap(ctx, companyId),
  };
}
