import { AppError, type PluginContext } from '@balcao/plugin-sdk/server';
import { type CampaignSettings, DEFAULT_SETTINGS, SETTING_KEYS } from '../../shared/campaigns';

/** How long a process reuses a company's settings (a change also drops them everywhere at once). */
const SETTINGS_TTL_MS = 5_000;
/** The broadcast topic of "a company's campaign settings changed". */
export const SETTINGS_CHANGED = 'campaign-settings-changed';

const caches = new WeakMap<PluginContext, Map<number, { at: number; settings: Promise<CampaignSettings> }>>();

function cacheOf(ctx: PluginContext) {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new Map();
    caches.set(ctx, cache);
  }
  return cache;
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** A stored value as its setting's type; a stored value that doesn't parse falls back to the default. */
function parse<K extends keyof CampaignSettings>(key: K, value: string): CampaignSettings[K] {
  const fallback = DEFAULT_SETTINGS[key];
  try {
    if (typeof fallback === 'number') {
      const n = Number(value);
      return (Number.isFinite(n) ? n : fallback) as CampaignSettings[K];
    }
    if (typeof fallback === 'boolean') return (value === 'true' || value === 'enabled') as CampaignSettings[K];
    if (Array.isArray(fallback)) {
      const parsed = JSON.parse(value) as unknown;
      return (Array.isArray(parsed) ? parsed : fallback) as CampaignSettings[K];
    }
    return value as CampaignSettings[K];
  } catch {
    return fallback;
  }
}

function serialise(value: CampaignSettings[keyof CampaignSettings]): string {
  return typeof value === 'string' ? value : Array.isArray(value) ? JSON.stringify(value) : String(value);
}

/** The company's campaign settings, defaults filled in (cached per process for a few seconds). */
export function campaignSettings(ctx: PluginContext, companyId: number): Promise<CampaignSettings> {
  const cache = cacheOf(ctx);
  const hit = cache.get(companyId);
  if (hit && Date.now() - hit.at < SETTINGS_TTL_MS) return hit.settings;
  const settings = (async () => {
    const rows = (await ctx.db.knex('campaignSettings').where({ companyId }).select('key', 'value')) as Array<{
      key: string;
      value: string;
    }>;
    const result: CampaignSettings = { ...DEFAULT_SETTINGS };
    for (const row of rows) {
      if ((SETTING_KEYS as string[]).includes(row.key)) {
        const key = row.key as keyof CampaignSettings;
        (result as unknown as Record<string, unknown>)[key] = parse(key, row.value);
      }
    }
    if (!isTimeZone(result.timeZone)) result.timeZone = DEFAULT_SETTINGS.timeZone;
    return result;
  })();
  cache.set(companyId, { at: Date.now(), settings });
  settings.catch(() => cache.delete(companyId));
  return settings;
}

/** Drops a company's cached settings in this process. */
export function forgetSettings(ctx: PluginContext, companyId: number): void {
  cacheOf(ctx).delete(companyId);
}

/** The settings as `GET /campaign-settings` lists them: `[{ key, value }]`, every key, values as text. */
export function settingsList(settings: CampaignSettings): Array<{ key: string; value: string }> {
  return SETTING_KEYS.map((key) => ({ key, value: serialise(settings[key]) }));
}

/** Saves the given settings (validated by the route's schema; the time zone checked here). */
export async function saveSettings(ctx: PluginContext, companyId: number, changes: Partial<CampaignSettings>): Promise<void> {
  if (changes.timeZone !== undefined && !isTimeZone(changes.timeZone)) throw new AppError('ERR_INVALID_TIME_ZONE');
  const rows = Object.entries(changes)
    .filter(([key, value]) => (SETTING_KEYS as string[]).includes(key) && value !== undefined)
    .map(([key, value]) => ({ companyId, key, value: serialise(value as CampaignSettings[keyof CampaignSettings]) }));
  if (rows.length === 0) return;
  await ctx.db.knex('campaignSettings').insert(rows).onConflict(['companyId', 'key']).merge(['value']);
  forgetSettings(ctx, companyId);
  await ctx.broadcast.publish(SETTINGS_CHANGED, { companyId });
}
