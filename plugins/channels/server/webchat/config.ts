import { randomBytes } from 'node:crypto';
import { AppError, normalizeOrigin } from '@balcao/plugin-sdk/server';
import type {
  WebchatChannelConfig,
  WebchatPosition,
  WebchatPrechat,
  WebchatPrechatMode,
  WebchatTheme,
} from '../../shared/webchat';

export type { WebchatChannelConfig };

/** `wck_` and 32 url-safe characters: public, in the site's script tag. */
export const WIDGET_KEY_PATTERN = '^wck_[A-Za-z0-9_-]{32}$';
const WIDGET_KEY_RE = new RegExp(WIDGET_KEY_PATTERN);
const PRECHAT_MODES: WebchatPrechatMode[] = ['off', 'optional', 'required'];
const THEMES: WebchatTheme[] = ['light', 'dark', 'auto'];
const POSITIONS: WebchatPosition[] = ['right', 'left'];
const REGENERABLE = ['widgetKey', 'identitySecret'] as const;

export const DEFAULT_NEW_CONVERSATIONS_PER_IP_PER_HOUR = 20;
export const DEFAULT_MESSAGES_PER_MINUTE = 30;
/** Upper bounds an admin may set (a bench or a kiosk needs high ones; beyond these a limit means nothing). */
const MAX_PER_IP_PER_HOUR = 100_000;
const MAX_PER_MINUTE = 10_000;

export const newWidgetKey = () => `wck_${randomBytes(24).toString('base64url')}`;
export const newIdentitySecret = () => randomBytes(32).toString('base64url');

function invalid(field: string, message: string): AppError {
  return new AppError('ERR_WEBCHAT_CONFIG_INVALID', { details: [{ field: `channelConfig.${field}`, message }] });
}

const has = (input: Record<string, unknown>, key: string) => Object.hasOwn(input, key) && input[key] !== undefined;

function text(input: Record<string, unknown>, key: string, fallback: string, max: number): string {
  if (!has(input, key)) return fallback;
  const value = input[key];
  if (typeof value !== 'string') throw invalid(key, 'must be text');
  if (value.length > max) throw invalid(key, `must have at most ${max} characters`);
  return value.trim();
}

function choice<T extends string>(input: Record<string, unknown>, key: string, choices: T[], fallback: T): T {
  if (!has(input, key)) return fallback;
  const value = input[key];
  if (!choices.includes(value as T)) throw invalid(key, `must be one of ${choices.join(', ')}`);
  return value as T;
}

function count(input: Record<string, unknown>, key: string, fallback: number, max: number): number {
  if (!has(input, key)) return fallback;
  const value = input[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw invalid(key, `must be a whole number from 1 to ${max}`);
  }
  return value;
}

/** The stored config of a connection, with defaults for anything missing (an older or hand-made row). */
export function readConfig(raw: Record<string, unknown> | null | undefined): WebchatChannelConfig {
  const source = raw ?? {};
  const prechat = (source.prechat ?? {}) as Partial<WebchatPrechat>;
  const mode = (value: unknown): WebchatPrechatMode =>
    PRECHAT_MODES.includes(value as WebchatPrechatMode) ? (value as WebchatPrechatMode) : 'off';
  return {
    widgetKey: typeof source.widgetKey === 'string' ? source.widgetKey : '',
    identitySecret: typeof source.identitySecret === 'string' ? source.identitySecret : '',
    allowedOrigins: Array.isArray(source.allowedOrigins)
      ? source.allowedOrigins.filter((o): o is string => typeof o === 'string')
      : [],
    prechat: { name: mode(prechat.name), email: mode(prechat.email), phone: mode(prechat.phone) },
    color: typeof source.color === 'string' && /^#[0-9A-Fa-f]{6}$/.test(source.color) ? source.color : '#1677FF',
    theme: THEMES.includes(source.theme as WebchatTheme) ? (source.theme as WebchatTheme) : 'auto',
    position: POSITIONS.includes(source.position as WebchatPosition) ? (source.position as WebchatPosition) : 'right',
    title: typeof source.title === 'string' ? source.title : '',
    welcomeMessage: typeof source.welcomeMessage === 'string' ? source.welcomeMessage : '',
    newConversationsPerIpPerHour:
      typeof source.newConversationsPerIpPerHour === 'number'
        ? source.newConversationsPerIpPerHour
        : DEFAULT_NEW_CONVERSATIONS_PER_IP_PER_HOUR,
    messagesPerMinute: typeof source.messagesPerMinute === 'number' ? source.messagesPerMinute : DEFAULT_MESSAGES_PER_MINUTE,
  };
}

/**
 * `ChannelDefinition.prepareConfig` of webchat: validates what the editor sent, keeps what it didn't send
 * from `previous`, fills defaults and makes the widget key and identity secret (new ones when
 * `input.regenerate` names them).
 */
export function prepareWebchatConfig(
  input: Record<string, unknown>,
  previous: Record<string, unknown> | null,
): WebchatChannelConfig {
  const before = previous ? readConfig(previous) : null;
  const regenerate = has(input, 'regenerate') ? input.regenerate : [];
  if (!Array.isArray(regenerate) || regenerate.some((name) => !REGENERABLE.includes(name))) {
    throw invalid('regenerate', `must list some of ${REGENERABLE.join(', ')}`);
  }
  let allowedOrigins = before?.allowedOrigins ?? [];
  if (has(input, 'allowedOrigins')) {
    const list = input.allowedOrigins;
    if (!Array.isArray(list) || list.length > 50) throw invalid('allowedOrigins', 'must be a list of at most 50 origins');
    allowedOrigins = [];
    for (const origin of list) {
      const normalized = typeof origin === 'string' ? normalizeOrigin(origin) : null;
      if (!normalized) throw invalid('allowedOrigins', `${JSON.stringify(origin)} is not an origin like https://shop.example`);
      if (!allowedOrigins.includes(normalized)) allowedOrigins.push(normalized);
    }
  }
  let prechat = before?.prechat ?? { name: 'off', email: 'off', phone: 'off' };
  if (has(input, 'prechat')) {
    const value = input.prechat;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('prechat', 'must be an object');
    const fields = value as Record<string, unknown>;
    for (const key of Object.keys(fields))
      if (!['name', 'email', 'phone'].includes(key)) throw invalid(`prechat.${key}`, 'is not a pre-chat field');
    prechat = {
      name: choice(fields, 'name', PRECHAT_MODES, prechat.name),
      email: choice(fields, 'email', PRECHAT_MODES, prechat.email),
      phone: choice(fields, 'phone', PRECHAT_MODES, prechat.phone),
    };
  }
  const color = text(input, 'color', before?.color ?? '#1677FF', 7);
  if (!/^#[0-9A-Fa-f]{6}$/.test(color)) throw invalid('color', 'must be a colour like #1677FF');
  const keepKey = before?.widgetKey && WIDGET_KEY_RE.test(before.widgetKey) && !regenerate.includes('widgetKey');
  const keepSecret = before?.identitySecret && before.identitySecret.length >= 32 && !regenerate.includes('identitySecret');
  return {
    widgetKey: keepKey ? (before?.widgetKey as string) : newWidgetKey(),
    identitySecret: keepSecret ? (before?.identitySecret as string) : newIdentitySecret(),
    allowedOrigins,
    prechat,
    color: color.toUpperCase(),
    theme: choice(input, 'theme', THEMES, before?.theme ?? 'auto'),
    position: choice(input, 'position', POSITIONS, before?.position ?? 'right'),
    title: text(input, 'title', before?.title ?? '', 80),
    welcomeMessage: text(input, 'welcomeMessage', before?.welcomeMessage ?? '', 1_000),
    newConversationsPerIpPerHour: count(
      input,
      'newConversationsPerIpPerHour',
      before?.newConversationsPerIpPerHour ?? DEFAULT_NEW_CONVERSATIONS_PER_IP_PER_HOUR,
      MAX_PER_IP_PER_HOUR,
    ),
    messagesPerMinute: count(
      input,
      'messagesPerMinute',
      before?.messagesPerMinute ?? DEFAULT_MESSAGES_PER_MINUTE,
      MAX_PER_MINUTE,
    ),
  };
}
