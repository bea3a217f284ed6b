/**
 * What the campaigns' server and UI share: statuses, the settings with their defaults and options, the
 * editability rule, numbers, message variables and the sending window.
 */

export const CAMPAIGN_STATUSES = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const TICKET_STATUSES = ['closed', 'pending', 'open'] as const;
export type CampaignTicketStatus = (typeof TICKET_STATUSES)[number];

/** A campaign is editable while INATIVA, or PROGRAMADA more than this ahead of its start. */
export const EDIT_LEAD_MS = 60 * 60 * 1000;

/** Whether a campaign's dialog may change it (a cancelled campaign can also be saved). */
export function isEditable(campaign: { status: CampaignStatus; scheduledAt: string | null }, now = Date.now()): boolean {
  if (campaign.status === 'INATIVA') return true;
  if (campaign.status !== 'PROGRAMADA') return false;
  return campaign.scheduledAt !== null && new Date(campaign.scheduledAt).getTime() - now > EDIT_LEAD_MS;
}

/** Whether the dialog's save button is offered (editable, or cancelled). */
export function isSavable(campaign: { status: CampaignStatus; scheduledAt: string | null }, now = Date.now()): boolean {
  return campaign.status === 'CANCELADA' || isEditable(campaign, now);
}

/** The options of the settings page (values in seconds or messages). */
export const MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20, 30, 60, 70, 80, 100, 120] as const;
export const LONGER_INTERVAL_AFTER_OPTIONS = [0, 5, 10, 15, 20, 30, 40, 50, 60] as const;
export const GREATER_INTERVAL_OPTIONS = [0, ...Array.from({ length: 17 }, (_, i) => 20 + i * 10)] as const;

/** A custom variable usable in messages as `{key}`. */
export interface CampaignVariable {
  key: string;
  value: string;
}

/** The campaign settings of a company (key/value on the server). */
export interface CampaignSettings {
  messageInterval: number;
  longerIntervalAfter: number;
  greaterInterval: number;
  variables: CampaignVariable[];
  sabado: boolean;
  domingo: boolean;
  startHour: string;
  endHour: string;
  /** Ours: the IANA time zone the hours are read in. */
  timeZone: string;
  /** Ours: the country code put before national numbers (10 or 11 digits). */
  countryCode: string;
  /** Ours: answers that stop every campaign to the number (compared whole, case and accents aside). */
  stopWords: string[];
}

export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

export const DEFAULT_SETTINGS: CampaignSettings = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [],
  sabado: false,
  domingo: false,
  startHour: '09:00',
  endHour: '18:00',
  timeZone: DEFAULT_TIME_ZONE,
  countryCode: '55',
  stopWords: ['SAIR', 'PARAR', 'STOP'],
};

export const SETTING_KEYS = Object.keys(DEFAULT_SETTINGS) as Array<keyof CampaignSettings>;

/** `HH:MM`, 00:00 to 23:59. */
export const HOUR_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

/** Numbers: digits only, country code first; E.164 allows at most 15 digits. */
export const MIN_NUMBER_DIGITS = 8;
export const MAX_NUMBER_DIGITS = 15;

/**
 * A phone number as campaigns keep it: digits only, the international prefix (`+`, `00`) dropped, and the
 * company's country code put before a national number with area code (10 or 11 digits). Null when what is
 * left is not 8 to 15 digits.
 */
export function normaliseNumber(raw: string, countryCode = DEFAULT_SETTINGS.countryCode): string | null {
  let digits = raw.replace(/\D/g, '');
  if (raw.trim().startsWith('+')) {
    // already international
  } else if (digits.startsWith('00')) {
    digits = digits.slice(2);
  } else if (digits.length === 10 || digits.length === 11) {
    digits = `${countryCode}${digits}`;
  }
  return digits.length >= MIN_NUMBER_DIGITS && digits.length <= MAX_NUMBER_DIGITS ? digits : null;
}

/** What a recipient fills into a message. */
export interface RecipientFields {
  name: string;
  number: string;
  email: string | null;
}

/**
 * A message with its variables filled: `{nome}`, `{numero}`, `{email}` and the company's custom variables
 * (`{key}`); an unknown `{…}` stays as written.
 */
export function fillVariables(text: string, recipient: RecipientFields, variables: CampaignVariable[] = []): string {
  const values = new Map<string, string>([
    ['nome', recipient.name],
    ['numero', recipient.number],
    ['email', recipient.email ?? ''],
  ]);
  for (const variable of variables) if (!values.has(variable.key)) values.set(variable.key, variable.value);
  return text.replace(/\{([^{}\s]{1,40})\}/g, (whole, key: string) => values.get(key) ?? whole);
}

/** The message variants a campaign has (1 to 5), in order; empty ones left out. */
export function variantsOf(campaign: Record<string, unknown>, prefix: 'message' | 'confirmationMessage'): number[] {
  return [1, 2, 3, 4, 5].filter((n) => String(campaign[`${prefix}${n}`] ?? '').trim() !== '');
}

/** Minutes since midnight of `HH:MM`. */
function minutesOf(hour: string): number {
  const [h, m] = hour.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** The local weekday (0 Sunday) and minutes since midnight of an instant in a time zone. */
export function localTime(at: Date, timeZone: string): { weekday: number; minutes: number; seconds: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '0';
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  return { weekday, minutes: Number(get('hour')) * 60 + Number(get('minute')), seconds: Number(get('second')) };
}

/** The window settings of `sendingWindow`. */
export type WindowSettings = Pick<CampaignSettings, 'startHour' | 'endHour' | 'sabado' | 'domingo' | 'timeZone'>;

/**
 * Whether campaigns may send at `now` — between startHour (included) and endHour (excluded) in the company's
 * time zone, on Saturdays only with `sabado` and Sundays only with `domingo` — and, when not, the first
 * instant they may (at most a week ahead). An end not after the start means "until midnight".
 */
export function sendingWindow(settings: WindowSettings, now: Date): { open: boolean; opensAt: Date } {
  const start = minutesOf(settings.startHour);
  const endRaw = minutesOf(settings.endHour);
  const end = endRaw > start ? endRaw : 24 * 60;
  const dayAllowed = (weekday: number) => (weekday !== 6 || settings.sabado) && (weekday !== 0 || settings.domingo);
  const local = localTime(now, settings.timeZone);
  if (dayAllowed(local.weekday) && local.minutes >= start && local.minutes < end) return { open: true, opensAt: now };
  // walk forward a minute boundary at a time through the days: find the next allowed day's start
  const toNextMinute = 60 - local.seconds;
  let candidate = new Date(now.getTime() + toNextMinute * 1000 - (now.getTime() % 1000));
  for (let step = 0; step < 8 * 24 * 60; ) {
    const at = localTime(candidate, settings.timeZone);
    if (dayAllowed(at.weekday) && at.minutes >= start && at.minutes < end) return { open: false, opensAt: candidate };
    // jump to the start of the window today (if still ahead) or to the next midnight
    const jump = at.minutes < start && dayAllowed(at.weekday) ? start - at.minutes : 24 * 60 - at.minutes;
    candidate = new Date(candidate.getTime() + jump * 60_000);
    step += jump;
  }
  return { open: false, opensAt: new Date(now.getTime() + 7 * 86_400_000) };
}

/** The realtime payload of `company-{id}-campaign`. */
export interface CampaignEvent {
  action: 'create' | 'update' | 'delete';
  record?: unknown;
  id?: number;
}
