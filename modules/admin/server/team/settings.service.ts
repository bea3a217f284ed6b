import { AppError, type PluginContext, type RequestSession } from '@balcao/plugin-sdk/server';
import { missingRequiredMessage, SETTING_KEYS, SETTINGS, settingValueProblem } from './setting-keys';

/**
 * Company settings (docs/product/administration.md#entities Setting, #validation, docs/product/roles-and-permissions.md#roles-in-administration, docs/product/administration.md#calls-and-realtime-events Settings) over the core's settings service,
 * which stores them, drops the cached session data and publishes `settings.updated`.
 */

export interface SettingPair {
  key: string;
  value: string;
}

/** The company's settings of docs/product/administration.md#entities, by key. */
export async function companySettings(ctx: PluginContext, companyId: number): Promise<Record<string, string>> {
  const all = await ctx.settings.all(companyId);
  return Object.fromEntries(SETTING_KEYS.filter((key) => key in all).map((key) => [key, all[key] as string]));
}

/** `GET /settings`: the company's settings as key/value pairs. */
export async function listSettings(ctx: PluginContext, companyId: number): Promise<SettingPair[]> {
  return Object.entries(await companySettings(ctx, companyId)).map(([key, value]) => ({ key, value }));
}

/** One setting of the company, or 404 ERR_NO_SETTING_FOUND (also for keys that are no setting of docs/product/administration.md#entities). */
export async function readSetting(ctx: PluginContext, companyId: number, key: string): Promise<SettingPair> {
  const value = (await companySettings(ctx, companyId))[key];
  if (value === undefined) throw new AppError('ERR_NO_SETTING_FOUND');
  return { key, value };
}

/**
 * `GET /companySettings/:companyId`: the caller's own company; the super user may read any company's.
 * Another company's id answers 404, as if it didn't exist.
 */
export async function settingsOfCompany(ctx: PluginContext, caller: RequestSession, companyId: number) {
  if (companyId !== caller.companyId && !caller.super) throw new AppError('ERR_NO_COMPANY_FOUND');
  const exists = await ctx.db.knex('companies').where({ id: companyId }).first('id');
  if (!exists) throw new AppError('ERR_NO_COMPANY_FOUND');
  return companySettings(ctx, companyId);
}

/**
 * Changes one setting of the caller's company: a key of docs/product/administration.md#entities (404 otherwise), a value it accepts
 * (ERR_VALIDATION), super-only keys only by the super user and whitelabel keys never here (their routes
 * are the platform area's), and no toggle on while its required message is empty (docs/product/administration.md#validation,
 * ERR_SETTING_MESSAGE_REQUIRED with the message's key).
 */
export async function writeSetting(ctx: PluginContext, caller: RequestSession, key: string, value: string): Promise<SettingPair> {
  const definition = SETTINGS[key];
  if (!definition) throw new AppError('ERR_NO_SETTING_FOUND');
  if (definition.readOnly || (definition.superOnly && !caller.super)) throw new AppError('ERR_NO_PERMISSION');
  const problem = settingValueProblem(key, value);
  if (problem) throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.value', message: problem }] });
  const stored = definition.rule.kind === 'text' ? value.trim() : value;
  const missing = missingRequiredMessage(await ctx.settings.all(caller.companyId), key, stored);
  if (missing) throw new AppError('ERR_SETTING_MESSAGE_REQUIRED', { key: missing });
  await ctx.settings.set(caller.companyId, key, stored);
  return { key, value: stored };
}
