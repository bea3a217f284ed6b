import { access, defineRoutes } from '@balcao/plugin-sdk/server';
import type { AiContext } from '../config';
import { CapBody, UsageQuery, UsageSchema } from '../services/schemas';
import { setMonthlyCap, usageReport } from '../services/usage.service';

/** What the assistant costs (docs/ai.md "Cost"): tokens per prompt per day, and the monthly cap. Admins only. */
export default defineRoutes((app, rawCtx) => {
  const ctx = rawCtx as AiContext;
  const companyOf = (request: { session: { companyId: number } | null }) => (request.session as { companyId: number }).companyId;

  app.get(
    '/prompt-usage',
    {
      schema: {
        summary: 'Tokens spent per prompt per day, the month so far and the cap',
        errors: {},
        querystring: UsageQuery,
        response: { 200: UsageSchema },
      },
      config: { ...access.admin },
    },
    async (request) => usageReport(ctx, companyOf(request), request.query.days ?? 30),
  );

  app.put(
    '/prompt-usage/cap',
    {
      schema: {
        summary: "Set the company's monthly token cap (null: none)",
        errors: {},
        body: CapBody,
        response: { 200: UsageSchema },
      },
      config: { ...access.admin },
    },
    async (request) => {
      await setMonthlyCap(ctx, companyOf(request), request.body.monthlyTokenCap);
      return usageReport(ctx, companyOf(request), 30);
    },
  );
});
