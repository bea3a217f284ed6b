import type { InboundResult, PluginContext } from '@balcao/plugin-sdk/server';
import { isJidGroup, proto, type WAMessage } from '@whiskeysockets/baileys';
import { emitImportProgress } from '../connections/realtime';
import { updateConnectionStatus } from '../connections/session.service';
import { closeImportedTickets } from './imported-tickets';
import type { InboundPipeline } from './inbound';

/** What Baileys hands over with `messaging-history.set`. */
export interface HistorySet {
  messages: WAMessage[];
  isLatest?: boolean;
  progress?: number | null;
  syncType?: proto.HistorySync.HistorySyncType | null;
}

/** How long the phone may stay quiet before an import counts as over (WhatsApp Web waits 2 minutes too). */
const IMPORT_IDLE_MS = 120_000;

/** `statusImportMessages` once an import ends with its tickets open: the list offers closing them (docs/product/administration.md#screens-and-routes). */
const CLOSE_BUTTON = 'renderButtonCloseTickets';

interface ImportSettings {
  importOldMessages: string | null;
  importRecentMessages: string | null;
  importOldMessagesGroups: boolean;
  closedTicketsPostImported: boolean;
  queueIdImportMessages: number | null;
}

function timestampOf(message: WAMessage): number {
  const value = message.messageTimestamp;
  const seconds = typeof value === 'number' ? value : value ? Number(value.toString()) : 0;
  return seconds * 1_000;
}

/** The day's first and last instant of a `YYYY-MM-DD` window, in the server's time zone. */
function windowOf(settings: ImportSettings): { from: number; to: number } | null {
  if (!settings.importOldMessages) return null;
  const from = new Date(`${settings.importOldMessages}T00:00:00`).getTime();
  const to = settings.importRecentMessages ? new Date(`${settings.importRecentMessages}T23:59:59.999`).getTime() : Date.now();
  return Number.isFinite(from) && Number.isFinite(to) ? { from, to } : null;
}

/**
 * What WhatsApp's history sync brings a connection (docs/channels/whatsapp.md "History"):
 * - **the gap**: after a downtime, history newer than the moment the session last heard everything
 *   (`whatsappSessionMarks.heardUntil`) is received like any new message (stored once: what the offline
 *   queue delivered already is a no-op);
 * - **the import** (docs/product/administration.md#entities, #states-and-transitions): on a new pairing of a connection with an import window, the
 *   messages of that window (groups only with `importOldMessagesGroups`) are stored as history — read, no
 *   automation — on tickets in `queueIdImportMessages`, with progress on `importMessages-{companyId}`. At
 *   the end the tickets it opened are closed (`closedTicketsPostImported`), or the list offers to
 *   (`statusImportMessages` = renderButtonCloseTickets, `POST /closedimported/:id`).
 * Older history without an import is not brought in: a new pairing doesn't flood the inbox.
 */
export class HistoryImport {
  private heardTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: PluginContext,
    private readonly companyId: number,
    private readonly connectionId: number,
    private readonly inbound: InboundPipeline,
  ) {}

  private get knex() {
    return this.ctx.db.knex;
  }

  private async settings(): Promise<ImportSettings | null> {
    const row = (await this.knex('whatsapps')
      .where({ companyId: this.companyId, id: this.connectionId })
      .first(
        'importOldMessages',
        'importRecentMessages',
        'importOldMessagesGroups',
        'closedTicketsPostImported',
        'queueIdImportMessages',
      )) as (Omit<ImportSettings, 'importOldMessages' | 'importRecentMessages'> & Record<string, unknown>) | undefined;
    if (!row) return null;
    const day = (value: unknown) =>
      value instanceof Date ? value.toISOString().slice(0, 10) : typeof value === 'string' ? value.slice(0, 10) : null;
    return {
      importOldMessages: day(row.importOldMessages),
      importRecentMessages: day(row.importRecentMessages),
      importOldMessagesGroups: row.importOldMessagesGroups === true,
      closedTicketsPostImported: row.closedTicketsPostImported === true,
      queueIdImportMessages: (row.queueIdImportMessages as number | null) ?? null,
    };
  }

  private async running(): Promise<boolean> {
    const row = await this.knex('whatsappImports').where({ whatsappId: this.connectionId }).first('state');
    return row?.state === 'running';
  }

  /** Whether the next connection should ask the phone for its full history: an import is due. */
  async wanted(): Promise<boolean> {
    const settings = await this.settings();
    if (!settings?.importOldMessages) return false;
    const row = await this.knex('whatsappImports').where({ whatsappId: this.connectionId }).first('state');
    return !row || row.state === 'running';
  }

  /** A new pairing: from now on everything is heard; an import with a window begins. */
  async paired(): Promise<void> {
    await this.markHeard();
    const settings = await this.settings();
    if (!settings?.importOldMessages) return;
    await this.knex('whatsappImports')
      .insert({ whatsappId: this.connectionId, companyId: this.companyId, state: 'running', total: 0, done: 0 })
      .onConflict('whatsappId')
      .merge({ state: 'running', total: 0, done: 0, startedAt: this.knex.fn.now(), finishedAt: null });
    // the Connections list shows "preparing" for 35 s from this instant (docs/product/administration.md#constants-and-limits)
    await this.knex('whatsapps')
      .where({ companyId: this.companyId, id: this.connectionId })
      .update({ statusImportMessages: String(Date.now()) });
    await updateConnectionStatus(this.ctx, this.companyId, this.connectionId, {});
    await emitImportProgress(this.ctx, this.companyId, {
      action: 'refresh',
      status: { all: 0, this: 0, date: null },
      whatsappId: this.connectionId,
    });
  }

  /** While connected, "heard until" moves with the clock (a crash loses at most a minute of it). */
  connected(): void {
    void this.markHeard().catch(() => {});
    if (this.heardTimer) clearInterval(this.heardTimer);
    this.heardTimer = setInterval(() => void this.markHeard().catch(() => {}), 60_000);
    this.heardTimer.unref();
  }

  /** The socket closed: everything up to now was heard. */
  async disconnected(): Promise<void> {
    if (this.heardTimer) clearInterval(this.heardTimer);
    this.heardTimer = null;
    await this.markHeard().catch(() => {});
  }

  private async markHeard(): Promise<void> {
    await this.knex('whatsappSessionMarks')
      .insert({ whatsappId: this.connectionId, companyId: this.companyId, heardUntil: this.knex.fn.now() })
      .onConflict('whatsappId')
      .merge({ heardUntil: this.knex.fn.now() });
  }

  private async heardUntil(): Promise<number | null> {
    const row = await this.knex('whatsappSessionMarks').where({ whatsappId: this.connectionId }).first('heardUntil');
    return row ? new Date(row.heardUntil).getTime() : null;
  }

  /** A batch of history from the phone. */
  async accept(set: HistorySet): Promise<void> {
    const messages = [...set.messages].sort((a, b) => timestampOf(a) - timestampOf(b));
    const heard = await this.heardUntil();
    if (heard !== null) {
      const gap = messages.filter((message) => timestampOf(message) > heard);
      await Promise.all(this.inbound.accept(gap));
    }
    if (!(await this.running())) return;
    const settings = await this.settings();
    const window = settings ? windowOf(settings) : null;
    if (!settings || !window) return;
    const wanted = messages.filter((message) => {
      const at = timestampOf(message);
      if (at < window.from || at > window.to || (heard !== null && at > heard)) return false;
      return settings.importOldMessagesGroups || !isJidGroup(message.key?.remoteJid ?? '');
    });
    const [row] = await this.knex('whatsappImports')
      .where({ whatsappId: this.connectionId })
      .increment('total', wanted.length)
      .returning(['total', 'done']);
    let done = Number(row?.done ?? 0);
    const total = Number(row?.total ?? wanted.length);
    const tickets = new Set<number>();
    const onResult = (result: InboundResult) => {
      if (result.ticketCreated) tickets.add(result.ticketId);
    };
    // in chunks, so that progress moves while a big history goes in
    for (let start = 0; start < wanted.length; start += 100) {
      const chunk = wanted.slice(start, start + 100);
      await Promise.all(this.inbound.accept(chunk, { imported: true, queueId: settings.queueIdImportMessages, onResult }));
      done += chunk.length;
      await this.knex('whatsappImports').where({ whatsappId: this.connectionId }).increment('done', chunk.length);
      const last = chunk[chunk.length - 1];
      await emitImportProgress(this.ctx, this.companyId, {
        action: 'update',
        status: { all: total, this: done, date: last ? new Date(timestampOf(last)).toISOString() : null },
        whatsappId: this.connectionId,
      });
    }
    if (tickets.size > 0) {
      await this.knex('whatsappImportedTickets')
        .insert([...tickets].map((ticketId) => ({ companyId: this.companyId, whatsappId: this.connectionId, ticketId })))
        .onConflict(['whatsappId', 'ticketId'])
        .ignore();
    }
    // WhatsApp sends the history in chunks (bootstrap, recent, full), each with its progress: the import is
    // over when the full history reached 100 %, or when the phone has sent nothing for a while (a phone that
    // sends no full history, a chunk lost)
    const full = set.syncType === proto.HistorySync.HistorySyncType.FULL;
    if (full && typeof set.progress === 'number' && set.progress >= 100) await this.finish(settings);
    else this.armIdleFinish();
  }

  /** Ends the import once the phone has been quiet for `IMPORT_IDLE_MS` (each chunk restarts the wait). */
  private armIdleFinish(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      void (async () => {
        if (!(await this.running())) return;
        const settings = await this.settings();
        if (settings) await this.finish(settings);
      })().catch((error) => this.ctx.log.warn({ err: error, whatsappId: this.connectionId }, 'whatsapp import end failed'));
    }, IMPORT_IDLE_MS);
    this.idleTimer.unref();
  }

  /** The session ended: no timer outlives it (an import still running ends at the next session's history). */
  stop(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.heardTimer) clearInterval(this.heardTimer);
    this.heardTimer = null;
  }

  private async finish(settings: ImportSettings): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    await this.knex('whatsappImports')
      .where({ whatsappId: this.connectionId })
      .update({ state: 'done', finishedAt: this.knex.fn.now() });
    const open = await this.knex('whatsappImportedTickets').where({ whatsappId: this.connectionId }).count({ n: '*' }).first();
    let status: string | null = null;
    if (settings.closedTicketsPostImported) await closeImportedTickets(this.ctx, this.companyId, this.connectionId);
    else if (Number(open?.n ?? 0) > 0) status = CLOSE_BUTTON;
    await this.knex('whatsapps')
      .where({ companyId: this.companyId, id: this.connectionId })
      .update({ statusImportMessages: status });
    await updateConnectionStatus(this.ctx, this.companyId, this.connectionId, {});
    await emitImportProgress(this.ctx, this.companyId, {
      action: 'refresh',
      status: { all: 0, this: 0, date: null },
      whatsappId: this.connectionId,
    });
  }
}
