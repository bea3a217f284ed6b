import type { SettingsService } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import type { EventBusImpl } from '../events/bus';
import type { SessionStore } from '../tenancy/session-store';

/** Company settings over the `settings` table, read through the session store's cached company state. */
export function createSettingsService(knex: Knex, sessions: SessionStore, events: EventBusImpl): SettingsService {
  return {
    async get(companyId, key) {
      const company = await sessions.company(companyId);
      return company?.settings[key] ?? null;
    },
    async all(companyId) {
      const company = await sessions.company(companyId);
      return { ...(company?.settings ?? {}) };
    },
    async set(companyId, key, value) {
      await knex('settings')
        .insert({ companyId, key, value })
        .onConflict(['companyId', 'key'])
        .merge({ value, updatedAt: knex.fn.now() });
      await sessions.invalidateCompany(companyId);
      await events.publish('settings.updated', { companyId, key, value });
    },
  };
}

/** Inserts the settings a company lacks (never overwrites). */
export async function ensureSettings(knex: Knex, companyId: number, defaults: Readonly<Record<string, string>>): Promise<void> {
  const rows = Object.entries(defaults).map(([key, value]) => ({ companyId, key, value }));
  if (rows.length === 0) return;
  await knex('settings').insert(rows).onConflict(['companyId', 'key']).ignore();
}
