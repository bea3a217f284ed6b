/**
 * Helpers of the WhatsApp tests: an app whose WhatsApp sessions talk to the loopback protocol peer
 * (testing/peer), a company on a plan with WhatsApp and its connection, and waits on what the session
 * writes. The driver code under test is the real one; only where it connects differs.
 */
import type { PluginContext } from '@balcao/plugin-sdk/server';
import type { TestApp } from '@balcao/plugin-sdk/testing';
import { DEFAULT_CONNECTION_CONFIG } from '@whiskeysockets/baileys';
import { ChannelsKit, channelsCtx, type KitUser } from '../../testing/kit';
import { whatsappHost } from '../host';
import { setWhatsAppTransport, setWhatsAppTransportDefaults, type WhatsAppTransport } from '../transport';
import type { WhatsAppPeer } from './peer';

/** Where a test app's sessions connect: the peer, with quick retries and short QR codes. */
export function peerTransport(peer: WhatsAppPeer, overrides: Partial<WhatsAppTransport> = {}): Partial<WhatsAppTransport> {
  const { options } = peer.downloadOptions;
  return {
    waWebSocketUrl: peer.url,
    fetchAgent: peer.httpsAgent,
    options: options as Record<string, unknown>,
    downloadOptions: options as Record<string, unknown>,
    // no fetch of WhatsApp's current version: there is no internet here
    version: DEFAULT_CONNECTION_CONFIG.version,
    keepAliveIntervalMs: 10_000,
    reconnectBaseMs: 100,
    reconnectMaxMs: 1_000,
    conflictBaseMs: 300,
    sendsPerSecond: 1_000,
    // settings changed by a test apply at once
    settingsCacheMs: 0,
    ...overrides,
  };
}

/**
 * Points every app this test process makes at the peer, from their start (their first claim of sessions):
 * call it before `createTestApp`.
 */
export function usePeerEverywhere(peer: WhatsAppPeer, overrides: Partial<WhatsAppTransport> = {}): void {
  setWhatsAppTransportDefaults(peerTransport(peer, overrides));
}

/** Points one app at the peer (after it started). */
export function usePeer(t: TestApp, peer: WhatsAppPeer, overrides: Partial<WhatsAppTransport> = {}): PluginContext {
  const ctx = channelsCtx(t);
  setWhatsAppTransport(ctx, peerTransport(peer, overrides));
  return ctx;
}

export interface WhatsAppCompany {
  companyId: number;
  admin: KitUser;
  whatsappId: number;
}

/**
 * A maker of phone numbers no other test of this process uses: `prefix` (country and area code) then the
 * time and a counter — each peer account and contact needs its own.
 */
export function phoneNumbers(prefix: string): () => string {
  let sequence = 0;
  return () => {
    sequence += 1;
    return `${prefix}9${String(Date.now() % 1e5).padStart(5, '0')}${String(sequence).padStart(2, '0')}`;
  };
}

/** Polls `check` every 20 ms until it answers something truthy; rejects after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T> | T,
  timeoutMs = 10_000,
  what = 'a condition',
): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await check();
    if (last) return last as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The WhatsApp side of the channels kit. */
export class WhatsAppKit extends ChannelsKit {
  /** A company on a plan with WhatsApp, its admin and a WhatsApp connection (DISCONNECTED, never paired). */
  async company(fields: Record<string, unknown> = {}): Promise<WhatsAppCompany> {
    const { companyId, admin } = await this.companyWithPlan({ flags: { useWhatsapp: true }, connections: 5 });
    const connectionId = await this.connection(companyId, { channel: 'whatsapp', isDefault: true, ...fields });
    return { companyId, admin, whatsappId: connectionId };
  }

  /** The connection's row once `check` holds for it. */
  async connectionWhen(
    connectionId: number,
    check: (row: Record<string, unknown>) => boolean,
    timeoutMs = 10_000,
  ): Promise<Record<string, unknown>> {
    return eventually(
      async () => {
        const row = await this.row(connectionId);
        return row && check(row) ? row : null;
      },
      timeoutMs,
      `connection ${connectionId}`,
    );
  }

  /** Starts the session as the admin would and answers the QR code it shows. */
  async startForQr(company: WhatsAppCompany): Promise<string> {
    const started = await this.call(company.admin, 'POST', `/whatsappsession/${company.whatsappId}`);
    if (started.status !== 200) throw new Error(`start answered ${started.status}: ${JSON.stringify(started.body)}`);
    const row = await this.connectionWhen(company.whatsappId, (r) => r.status === 'qrcode' && String(r.qrcode).length > 0);
    return String(row.qrcode);
  }

  /** Pairs the connection with the account by QR and waits until it is CONNECTED. */
  async pair(peer: WhatsAppPeer, company: WhatsAppCompany, account: ReturnType<WhatsAppPeer['account']>): Promise<void> {
    const qr = await this.startForQr(company);
    await peer.scanQr(qr, account);
    await this.connectionWhen(company.whatsappId, (r) => r.status === 'CONNECTED');
  }

  /** The session of a connection in this app's process, if it runs here. */
  session(connectionId: number) {
    return whatsappHost(this.ctx).session(connectionId);
  }
}
