import type { Agent } from 'node:https';
import type { PluginContext } from '@balcao/plugin-sdk/server';
import type { WAVersion } from '@whiskeysockets/baileys';
import type { WhatsAppConfig } from './config';

/**
 * Where and how the WhatsApp sessions of an app reach WhatsApp. Production uses WhatsApp's own servers;
 * tests and benchmarks point an app at the loopback protocol peer (`whatsapp/testing/peer`) with
 * `setWhatsAppTransport` — the driver code that runs is the same.
 */
export interface WhatsAppTransport {
  /** The WhatsApp Web socket (Baileys' `waWebSocketUrl`). */
  waWebSocketUrl: string;
  /** The agent media uploads go through (Baileys' `fetchAgent`); default Node's. */
  fetchAgent?: Agent;
  /** Fetch options of Baileys' own downloads (history sync, app state: its `options`); default none. */
  options?: Record<string, unknown>;
  /** Fetch options of media downloads (an undici `dispatcher` trusting a test CA, …); default none. */
  downloadOptions?: Record<string, unknown>;
  /**
   * The WhatsApp Web version to announce. Null: fetched from WhatsApp once per process (a dead or slow
   * answer falls back to the version Baileys ships with).
   */
  version: WAVersion | null;
  /** How long a QR code lives before the next one (Baileys' `qrTimeout`); default WhatsApp's (60 s, then 20 s). */
  qrTimeoutMs?: number;
  connectTimeoutMs: number;
  keepAliveIntervalMs: number;
  /**
   * Reconnection delays: the first retry waits about `reconnectBaseMs`, each next one twice as long (with
   * jitter) up to `reconnectMaxMs`. A "conflict" (another session took over) starts at `conflictBaseMs`.
   */
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  conflictBaseMs: number;
  /** Sends per second per connection from the outbox (WhatsApp bans numbers that blast messages). */
  sendsPerSecond: number;
  /** How long a session lease lives without renewal: a dead process's sessions move after this. */
  leaseTtlMs: number;
  /** How often a process looks for sessions nobody runs (plus at once when a process lets one go). */
  claimIntervalMs: number;
  /** How long a session keeps the connection's allowGroup and the company's download limit before reading them again. */
  settingsCacheMs: number;
}

const DEFAULTS: WhatsAppTransport = {
  // Baileys' default (not read from it: loading Baileys waits until a session runs)
  waWebSocketUrl: 'wss://web.whatsapp.com/ws/chat',
  version: null,
  connectTimeoutMs: 20_000,
  keepAliveIntervalMs: 30_000,
  reconnectBaseMs: 2_000,
  reconnectMaxMs: 5 * 60_000,
  conflictBaseMs: 60_000,
  sendsPerSecond: 10,
  leaseTtlMs: 30_000,
  claimIntervalMs: 10_000,
  settingsCacheMs: 10_000,
};

const transports = new WeakMap<object, Partial<WhatsAppTransport>>();
let processDefaults: Partial<WhatsAppTransport> = {};

/**
 * Points every app of this process at another WhatsApp (tests and benchmarks: the loopback peer), before
 * the apps start — a process's first claim of sessions happens as it starts.
 */
export function setWhatsAppTransportDefaults(overrides: Partial<WhatsAppTransport>): void {
  processDefaults = { ...overrides };
}

/** The app a context belongs to (one inbox service per app: two test apps never share settings). */
function appKey(ctx: PluginContext): object {
  return ctx.services.use('inbox');
}

/**
 * What the channels' configuration sets (README "Configuration", validated at start): `WHATSAPP_WS_URL`,
 * `WHATSAPP_SENDS_PER_SECOND`, `WHATSAPP_LEASE_TTL_MS`, `WHATSAPP_CLAIM_INTERVAL_MS`, and `WHATSAPP_VERSION`
 * — the WhatsApp Web version to announce, never fetched (`2,3000,1043857760`; the benchmark sets it: its
 * peer needs no current version).
 */
function fromConfig(ctx: PluginContext): Partial<WhatsAppTransport> {
  // the areas of the channels share the feature's one context, which holds this area's variables
  const config = (ctx as PluginContext<WhatsAppConfig>).config;
  return {
    ...(config.WHATSAPP_WS_URL ? { waWebSocketUrl: config.WHATSAPP_WS_URL } : {}),
    ...(config.WHATSAPP_VERSION ? { version: config.WHATSAPP_VERSION.split(/[.,]/).map(Number) as WAVersion } : {}),
    sendsPerSecond: config.WHATSAPP_SENDS_PER_SECOND,
    leaseTtlMs: config.WHATSAPP_LEASE_TTL_MS,
    claimIntervalMs: config.WHATSAPP_CLAIM_INTERVAL_MS,
  };
}

/** The transport of an app: the defaults, then the configuration's, then `setWhatsAppTransport`'s. */
export function whatsappTransport(ctx: PluginContext): WhatsAppTransport {
  return { ...DEFAULTS, ...fromConfig(ctx), ...processDefaults, ...transports.get(appKey(ctx)) };
}

/** Points an app's WhatsApp sessions elsewhere (tests, benchmarks: the loopback peer). */
export function setWhatsAppTransport(ctx: PluginContext, overrides: Partial<WhatsAppTransport>): void {
  transports.set(appKey(ctx), { ...transports.get(appKey(ctx)), ...overrides });
}

const VERSION_FETCH_TIMEOUT_MS = 5_000;
const VERSION_TTL_MS = 12 * 3_600_000;
/** After a failed fetch, the shipped version is used this long before asking again. */
const VERSION_RETRY_MS = 10 * 60_000;
let fetchedVersion: { version: WAVersion; at: number; ttl: number } | null = null;
let pendingVersion: Promise<WAVersion> | null = null;

/**
 * The WhatsApp Web version to connect with: the transport's, else WhatsApp's current one (fetched at most
 * every 12 hours, shared by every session of the process), else — unreachable, slow or unreadable — the
 * version Baileys ships with. A wrong version makes WhatsApp refuse the login, so the fetch matters, but
 * it must never keep a session from starting.
 */
export async function resolveWaVersion(transport: WhatsAppTransport): Promise<WAVersion> {
  if (transport.version) return transport.version;
  if (fetchedVersion && Date.now() - fetchedVersion.at < fetchedVersion.ttl) return fetchedVersion.version;
  pendingVersion ??= (async () => {
    const { DEFAULT_CONNECTION_CONFIG, fetchLatestWaWebVersion } = await import('@whiskeysockets/baileys');
    let version = DEFAULT_CONNECTION_CONFIG.version;
    let ttl = VERSION_RETRY_MS;
    try {
      const answer = await fetchLatestWaWebVersion({ signal: AbortSignal.timeout(VERSION_FETCH_TIMEOUT_MS) });
      if (answer.isLatest) {
        version = answer.version as WAVersion;
        ttl = VERSION_TTL_MS;
      }
    } catch {
      // unreachable: the shipped version, and a pause before asking again (every session waits on this)
    }
    fetchedVersion = { version, at: Date.now(), ttl };
    try {
      return version;
    } finally {
      pendingVersion = null;
    }
  })();
  return pendingVersion;
}
