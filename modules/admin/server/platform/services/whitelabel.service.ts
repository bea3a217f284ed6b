import type { Readable } from 'node:stream';
import { AppError, type PluginContext } from '@balcao/plugin-sdk/server';
import { PLATFORM_COMPANY_ID } from '../schemas';
import type { StoredImage } from './images';

/** docs/product/administration.md#constants-and-limits Whitelabel modes, and the setting each one's logo name is kept in. */
export const LOGO_MODES = { Light: 'appLogoLight', Dark: 'appLogoDark', Favicon: 'appLogoFavicon' } as const;
export type LogoMode = keyof typeof LOGO_MODES;

/** The whitelabel settings (docs/product/administration.md#entities Setting), kept on the platform company. */
export const WHITELABEL_KEYS = ['primaryColorLight', 'primaryColorDark', 'appName', ...Object.values(LOGO_MODES)] as const;
export type WhitelabelKey = (typeof WHITELABEL_KEYS)[number];

/** docs/product/administration.md#constants-and-limits: the colours a blank setting stands for. */
export const DEFAULT_COLORS = { primaryColorLight: '#0000FF', primaryColorDark: '#39ACE7' } as const;

/** Logos: raster images only (an SVG can carry script), favicons also as .ico. */
export const LOGO_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/x-icon']);
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
/** The folder of the platform company's storage that holds the logos. */
export const LOGO_FOLDER = 'whitelabel';
/** What a stored logo is named (the random key `storeImage` gives, with its extension). */
export const LOGO_NAME_PATTERN = '^[a-f0-9]{24}\\.(png|jpg|webp|gif|ico)$';

const MIME_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  ico: 'image/x-icon',
};

/** The current whitelabel values (blank for what was never set). */
export async function readWhitelabel(ctx: PluginContext): Promise<Record<WhitelabelKey, string>> {
  const settings = await ctx.settings.all(PLATFORM_COMPANY_ID);
  return Object.fromEntries(WHITELABEL_KEYS.map((key) => [key, settings[key] ?? ''])) as Record<WhitelabelKey, string>;
}

const nameOf = (key: string) => key.slice(LOGO_FOLDER.length + 1);

/** Removes a logo file no setting names any more. */
async function dropLogo(ctx: PluginContext, name: string): Promise<void> {
  if (!name || !new RegExp(LOGO_NAME_PATTERN).test(name)) return;
  const settings = await readWhitelabel(ctx);
  if (Object.values(LOGO_MODES).some((key) => settings[key] === name)) return;
  await ctx.storage.delete(PLATFORM_COMPANY_ID, `${LOGO_FOLDER}/${name}`).catch(() => {});
}

/** Makes an uploaded image the logo of `mode`; answers its stored name (docs/product/administration.md#calls-and-realtime-events Whitelabel). */
export async function useUploadedLogo(ctx: PluginContext, mode: LogoMode, image: StoredImage): Promise<string> {
  const setting = LOGO_MODES[mode];
  const previous = (await readWhitelabel(ctx))[setting];
  const name = nameOf(image.key);
  await ctx.settings.set(PLATFORM_COMPANY_ID, setting, name);
  await dropLogo(ctx, previous);
  return name;
}

/**
 * Sets one whitelabel value: colours as #RRGGBB (blank restores the default), the app name, or a logo
 * setting to one stored logo's name (blank removes it).
 */
export async function setWhitelabel(
  ctx: PluginContext,
  key: WhitelabelKey,
  rawValue: string,
): Promise<Record<WhitelabelKey, string>> {
  const value = rawValue.trim();
  const current = await readWhitelabel(ctx);
  if (key === 'primaryColorLight' || key === 'primaryColorDark') {
    if (value && !/^#[0-9A-Fa-f]{6}$/.test(value)) {
      throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.value', message: 'must be a colour #RRGGBB' }] });
    }
    await ctx.settings.set(PLATFORM_COMPANY_ID, key, value.toUpperCase() || DEFAULT_COLORS[key]);
  } else if (key === 'appName') {
    if (value.length > 50)
      throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.value', message: 'must have at most 50 characters' }] });
    await ctx.settings.set(PLATFORM_COMPANY_ID, key, value);
  } else {
    if (value) {
      if (
        !new RegExp(LOGO_NAME_PATTERN).test(value) ||
        !(await ctx.storage.stat(PLATFORM_COMPANY_ID, `${LOGO_FOLDER}/${value}`))
      ) {
        throw new AppError('ERR_NO_LOGO_FOUND');
      }
    }
    await ctx.settings.set(PLATFORM_COMPANY_ID, key, value);
    if (current[key] !== value) await dropLogo(ctx, current[key]);
  }
  return readWhitelabel(ctx);
}

/** A stored logo's content and type, for the login page and the menu (no session needed). */
export async function readLogo(ctx: PluginContext, name: string): Promise<{ stream: Readable; mime: string }> {
  const extension = name.split('.').pop() ?? '';
  const stream = await ctx.storage.get(PLATFORM_COMPANY_ID, `${LOGO_FOLDER}/${name}`);
  if (!stream) throw new AppError('ERR_NO_LOGO_FOUND');
  return { stream, mime: MIME_BY_EXTENSION[extension] ?? 'application/octet-stream' };
}
