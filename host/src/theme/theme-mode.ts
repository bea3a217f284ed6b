/** The two themes of the product. */
export type ThemeMode = 'light' | 'dark';

/** docs/product/tickets-and-inbox.md#constants-and-limits: default theme colours. Whitelabel settings may replace them. */
export const DEFAULT_PRIMARY_COLORS: Record<ThemeMode, string> = { light: '#0000FF', dark: '#39ACE7' };

const THEME_KEY = 'preferredTheme';
const COLOR_KEYS: Record<ThemeMode, string> = { light: 'primaryColorLight', dark: 'primaryColorDark' };

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // blocked storage: the choice lasts for this page
  }
}

/** The theme chosen on this device, if any (the toggle stores it locally). */
export function storedThemeMode(): ThemeMode | null {
  const value = read(THEME_KEY);
  return value === 'light' || value === 'dark' ? value : null;
}

/** Remembers the theme chosen on this device. */
export function storeThemeMode(mode: ThemeMode): void {
  write(THEME_KEY, mode);
}

/** A CSS hex colour (#RGB, #RRGGBB or #RRGGBBAA), as whitelabel settings hold them. */
export function isHexColor(value: unknown): value is string {
  return typeof value === 'string' && /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value);
}

/** The primary colour last seen for a theme (so a whitelabel colour shows from the first paint). */
export function storedPrimaryColor(mode: ThemeMode): string {
  const value = read(COLOR_KEYS[mode]);
  return isHexColor(value) ? value : DEFAULT_PRIMARY_COLORS[mode];
}

/** Remembers a whitelabel primary colour. */
export function storePrimaryColor(mode: ThemeMode, color: string): void {
  write(COLOR_KEYS[mode], color);
}

/** The public setting key of each theme's primary colour (docs/product/administration.md#entities whitelabel). */
export const PRIMARY_COLOR_SETTING: Record<ThemeMode, string> = COLOR_KEYS;
