import { createHash, randomBytes } from 'node:crypto';
import type { PluginContext } from '@balcao/plugin-sdk/server';

/** Acme's demo keys: their secrets are random and never shown (a demo key is made on the page). */
const KEYS = [
  { name: 'ERP da loja (demo)', scopes: ['messages:send', 'contacts:read'], revoked: false },
  { name: 'Integração antiga (demo)', scopes: ['tickets:read'], revoked: true },
] as const;

/**
 * Acme's API keys for the `/messages-api` page (idempotent by name): one in use, one revoked, both made by
 * Acme's admin. Their secrets are random and discarded: an admin creates a key on the page to try the API.
 */
export async function seedMessageApiDemo(ctx: PluginContext, demo: { companies: Record<string, number> }): Promise<void> {
  const companyId = demo.companies.acme;
  if (!companyId) return;
  const admin = (await ctx.db.knex('users').where({ companyId, profile: 'admin' }).orderBy('id').first('id')) as
    | { id: number }
    | undefined;
  if (!admin) return;
  for (const key of KEYS) {
    if (await ctx.db.knex('apiKeys').where({ companyId, name: key.name }).first('id')) continue;
    const [row] = await ctx.db
      .knex('apiKeys')
      .insert({
        companyId,
        name: key.name,
        scopes: [...key.scopes],
        secretHash: createHash('sha256').update(randomBytes(24).toString('base64url')).digest('hex'),
        hint: '',
        createdBy: admin.id,
        revokedAt: key.revoked ? ctx.db.knex.fn.now() : null,
        lastUsedAt: key.revoked ? null : ctx.db.knex.fn.now(),
      })
      .returning('id');
    await ctx.db
      .knex('apiKeys')
      .where({ id: row.id })
      .update({ hint: `blc_${row.id}_${randomBytes(3).toString('hex').slice(0, 4)}…` });
  }
}
