import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { PluginContext } from '@balcao/plugin-sdk/server';
import { OUTBOX_TOPIC } from './outbox';
import type { SessionEnd, StartOptions, WhatsAppSession } from './session';
import { createSessionLeases, type SessionLeases } from './session-store/leases';
import { whatsappTransport } from './transport';

/** Topic of the commands to whichever process runs (or may take) a connection's session. */
export const COMMAND_TOPIC = 'whatsapp-session';
/** Topic telling every process that sessions were let go (a process stopping): claim them now. */
export const RELEASED_TOPIC = 'whatsapp-released';
/**
 * Topic telling every process that a session was taken (an expired lease, its owner stalled): an older
 * holder stops its socket at once instead of at its next renewal, so WhatsApp never sees two of them.
 */
export const TAKEN_TOPIC = 'whatsapp-taken';

/** A session action, published to every process (the owner acts; with no owner, one process takes it). */
export interface SessionCommand {
  action: 'start' | 'restart' | 'stop' | 'pair';
  companyId: number;
  whatsappId: number;
  /** `pair`: the company's phone number, digits. */
  number?: string;
}

/** Statuses of a connection whose session should be running somewhere (else it was stopped or gave up). */
export const RUNNING_STATUSES = ['OPENING', 'qrcode', 'PAIRING', 'CONNECTED'] as const;

const hosts = new WeakMap<object, WhatsAppHost>();

/** The WhatsApp host of an app (one per app, keyed like the channel registry). */
export function whatsappHost(ctx: PluginContext): WhatsAppHost {
  const key = ctx.services.use('inbox');
  let host = hosts.get(key);
  if (!host) {
    host = new WhatsAppHost(ctx);
    hosts.set(key, host);
  }
  return host;
}

/** Forgets an app's host (its area closed). */
export function dropWhatsappHost(ctx: PluginContext): void {
  hosts.delete(ctx.services.use('inbox'));
}

/**
 * The WhatsApp sessions of one process (docs/channels/whatsapp.md "Sessions"). A session runs only in the
 * process that holds its lease (session-store/: a renewable lease with an increasing epoch, every auth write
 * fenced by it), so two processes never run one session. Processes whose role is `web` run none; the others
 * - take free sessions that should run (status OPENING, qrcode, PAIRING, CONNECTED with no live lease):
 *   every `claimIntervalMs`, at once when a process says it let sessions go, and when a command names one;
 * - act on the commands of the session routes (any process publishes them; the owner acts);
 * - wake a session's outbox sender when any process queued something for it;
 * - on stop, end their sockets without logging out, release the leases and say so, so the others take
 *   over at once; a process that dies loses its leases when they expire.
 */
export class WhatsAppHost {
  readonly ownerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  readonly leases: SessionLeases;
  private readonly sessions = new Map<number, WhatsAppSession>();
  private readonly starting = new Map<number, Promise<WhatsAppSession | null>>();
  private readonly unsubscribers: Array<() => Promise<void>> = [];
  private claimTimer: NodeJS.Timeout | null = null;
  private claiming: Promise<void> | null = null;
  /** When each other process was last seen writing its row (see `balance`). */
  private hostsSeen = new Map<string, number>();
  private closed = false;

  constructor(private readonly ctx: PluginContext) {
    const transport = whatsappTransport(ctx);
    this.leases = createSessionLeases(ctx.db.knex, { ownerId: this.ownerId, ttlMs: transport.leaseTtlMs, log: ctx.log });
  }

  /** Whether this process runs sessions (its role isn't `web`). */
  get runsSessions(): boolean {
    return this.ctx.config.role !== 'web';
  }

  /** The session of a connection, when it runs in this process. */
  session(connectionId: number): WhatsAppSession | undefined {
    return this.sessions.get(connectionId);
  }

  /** Sessions running here (for tests and measurements). */
  get running(): WhatsAppSession[] {
    return [...this.sessions.values()];
  }

  async start(): Promise<void> {
    const { broadcast } = this.ctx;
    this.unsubscribers.push(
      await broadcast.subscribe(OUTBOX_TOPIC, (payload) => {
        const { whatsappId: connectionId } = payload as { whatsappId: number };
        this.sessions.get(connectionId)?.sender.wake();
      }),
    );
    if (!this.runsSessions) return;
    this.ctx.metrics.gauge({
      name: 'whatsapp_sessions',
      help: 'WhatsApp sessions this process runs, by the status each last wrote (OPENING, qrcode, PAIRING, CONNECTED…)',
      labelNames: ['state'],
      collect: () => {
        const byState = new Map<string, number>();
        for (const session of this.sessions.values()) byState.set(session.state, (byState.get(session.state) ?? 0) + 1);
        return [...byState].map(([state, value]) => ({ labels: { state }, value }));
      },
    });
    this.unsubscribers.push(
      await broadcast.subscribe(COMMAND_TOPIC, (payload) => {
        void this.onCommand(payload as SessionCommand).catch((error) =>
          this.ctx.log.warn({ err: error, command: payload }, 'whatsapp session command failed'),
        );
      }),
      await broadcast.subscribe(RELEASED_TOPIC, () => void this.claimFree()),
      await broadcast.subscribe(TAKEN_TOPIC, (payload) => {
        const { whatsappId: connectionId, epoch, ownerId } = payload as { whatsappId: number; epoch: number; ownerId: string };
        const session = this.sessions.get(connectionId);
        if (session && ownerId !== this.ownerId && session.epoch < epoch) void session.stop();
      }),
    );
    const { claimIntervalMs } = whatsappTransport(this.ctx);
    // jitter: processes started together don't all race for the same sessions every time
    this.claimTimer = setInterval(() => void this.claimFree(), Math.round(claimIntervalMs * (0.8 + Math.random() * 0.4)));
    this.claimTimer.unref();
    void this.claimFree();
  }

  /** Tells the processes to act on a session (the owner, or any that may take it). */
  async command(command: SessionCommand): Promise<void> {
    await this.ctx.broadcast.publish(COMMAND_TOPIC, command);
  }

  /** Takes the free sessions that should run (one claim round at a time). */
  claimFree(): Promise<void> {
    if (!this.runsSessions || this.closed) return Promise.resolve();
    this.claiming ??= this.claimRound()
      .catch((error) => this.ctx.log.warn({ err: error }, 'whatsapp session claim failed'))
      .finally(() => {
        this.claiming = null;
      });
    return this.claiming;
  }

  private async claimRound(): Promise<void> {
    const balance = await this.balance();
    if (balance.handOver) await this.handOverOne();
    const rows = (await this.ctx.db
      .knex('whatsapps as w')
      .leftJoin('whatsappSessionLeases as l', 'l.whatsappId', 'w.id')
      .where('w.channel', 'whatsapp')
      .whereIn('w.status', [...RUNNING_STATUSES])
      .where((query) => query.whereNull('l.whatsappId').orWhereRaw('l.expires_at < now()'))
      .orderBy('w.id')
      .limit(100)
      .select('w.id', 'w.companyId')) as Array<{ id: number; companyId: number }>;
    for (const row of rows) {
      if (this.closed) return;
      if (this.sessions.has(row.id)) continue;
      // its fair share reached while another process has room: that one takes the rest at its next round
      if (balance.roomElsewhere && this.sessions.size + this.starting.size >= balance.share) return;
      // a company that lost WhatsApp from its plan keeps its pairing but no session
      if (!(await this.ctx.plans.has(row.companyId, 'useWhatsapp'))) continue;
      await this.run(row.companyId, row.id);
    }
  }

  /** Runs a connection's session here if its lease can be had (it was free); answers it, or null. */
  async run(companyId: number, connectionId: number, options: StartOptions = {}): Promise<WhatsAppSession | null> {
    const existing = this.sessions.get(connectionId);
    if (existing) return existing;
    const pending = this.starting.get(connectionId);
    if (pending) return pending;
    const { ctx } = this;
    const attempt = (async () => {
      if (this.closed) return null;
      const lease = await this.leases.acquire(companyId, connectionId);
      if (!lease) return null;
      if (lease.epoch > 1) {
        await this.ctx.broadcast.publish(TAKEN_TOPIC, { whatsappId: connectionId, epoch: lease.epoch, ownerId: this.ownerId });
      }
      if (this.closed) {
        await lease.release();
        return null;
      }
      // Baileys (~60 MB, most of a second to load) is loaded by the first session a process runs, not at start
      const { WhatsAppSession } = await import('./session');
      const session = new WhatsAppSession(
        {
          ctx: this.ctx,
          // read at each use: where sessions connect may be set after the app started (tests, benchmarks)
          get transport() {
            return whatsappTransport(ctx);
          },
          ended: (ended, why) => this.ended(ended, why, lease),
        },
        lease,
        options,
      );
      this.sessions.set(connectionId, session);
      try {
        await session.start();
      } catch (error) {
        this.ctx.log.warn({ err: error, whatsappId: connectionId }, 'whatsapp session failed to start');
        await session.stop();
      }
      return this.sessions.get(connectionId) ?? null;
    })();
    this.starting.set(connectionId, attempt);
    try {
      return await attempt;
    } finally {
      this.starting.delete(connectionId);
    }
  }

  /**
   * Writes this process's row (how many sessions it runs) and reads the others': the fair share is the
   * sessions that should run divided by the live processes, rounded up (docs/channels/whatsapp.md
   * "Sessions"). Another process counts only once it is seen writing its row again since this one's last
   * round (a process that died stops doing so, and is never waited for nor given sessions). `roomElsewhere`:
   * such a process runs fewer than its share; `handOver`: this one runs more than its share and at least two
   * more than it (a process that just started), so it gives one away.
   */
  private async balance(): Promise<{ share: number; roomElsewhere: boolean; handOver: boolean }> {
    const { knex } = this.ctx.db;
    const running = this.sessions.size + this.starting.size;
    const liveWindowMs = Math.max(3 * whatsappTransport(this.ctx).claimIntervalMs, 5_000);
    await knex('whatsappSessionHosts')
      .insert({ ownerId: this.ownerId, sessions: running, seenAt: knex.fn.now() })
      .onConflict('ownerId')
      .merge(['sessions', 'seenAt']);
    // the rows of processes that died rather than stopped
    await knex('whatsappSessionHosts').whereRaw(`seen_at < now() - interval '1 day'`).delete();
    const [counts] = (
      await knex.raw(`SELECT count(*)::int AS runnable FROM whatsapps WHERE channel = 'whatsapp' AND status = ANY(?::text[])`, [
        [...RUNNING_STATUSES],
      ])
    ).rows as Array<{ runnable: number }>;
    const others = (await knex('whatsappSessionHosts')
      .whereNot('ownerId', this.ownerId)
      .whereRaw(`seen_at > now() - ? * interval '1 millisecond'`, [liveWindowMs])
      .select('ownerId', 'sessions', 'seenAt')) as Array<{ ownerId: string; sessions: number; seenAt: Date }>;
    const alive = others.filter((other) => {
      const before = this.hostsSeen.get(other.ownerId);
      return before !== undefined && other.seenAt.getTime() > before;
    });
    this.hostsSeen = new Map(others.map((other) => [other.ownerId, other.seenAt.getTime()]));
    const share = Math.max(1, Math.ceil((counts?.runnable ?? 0) / (alive.length + 1)));
    const fewest = alive.length > 0 ? Math.min(...alive.map((other) => other.sessions)) : null;
    return {
      share,
      roomElsewhere: fewest !== null && fewest < share,
      handOver: fewest !== null && running > share && running - fewest >= 2,
    };
  }

  /** Gives one connected session away (no logout): stopped here, its lease released, the others told. */
  private async handOverOne(): Promise<void> {
    const session = [...this.sessions.values()].find((candidate) => candidate.connected);
    if (!session) return;
    this.ctx.log.info({ whatsappId: session.whatsappId }, 'whatsapp session handed over to a process with room');
    const lease = this.leases.held(session.whatsappId);
    await session.stop();
    // the stop releases it too, without waiting: the others are told once it is free
    await lease?.release();
    await this.ctx.broadcast.publish(RELEASED_TOPIC, { ownerId: this.ownerId });
  }

  private ended(session: WhatsAppSession, why: SessionEnd, lease: { release(): Promise<void>; lost: boolean }): void {
    if (this.sessions.get(session.whatsappId) === session) this.sessions.delete(session.whatsappId);
    if (why !== 'lost' && !lease.lost) {
      void lease.release().catch((error) => this.ctx.log.warn({ err: error }, 'whatsapp lease release failed'));
    }
  }

  private async onCommand(command: SessionCommand): Promise<void> {
    if (this.closed) return;
    const local = this.sessions.get(command.whatsappId) ?? (await this.starting.get(command.whatsappId)) ?? undefined;
    switch (command.action) {
      case 'start':
        if (local) local.reconnectNow();
        else await this.run(command.companyId, command.whatsappId);
        return;
      case 'pair': {
        const number = command.number ?? '';
        if (local) await local.pairWith(number);
        else await this.run(command.companyId, command.whatsappId, { pairingNumber: number });
        return;
      }
      case 'restart':
        // a new pairing: the old one is logged out and forgotten, then a fresh session asks for a QR code
        if (local) await local.logout();
        await this.run(command.companyId, command.whatsappId);
        return;
      case 'stop':
        if (local) await local.logout();
        return;
    }
  }

  /** Stops every session here (no logout: the pairings stay), releases the leases and tells the others. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.claimTimer) clearInterval(this.claimTimer);
    this.claimTimer = null;
    await Promise.allSettled([...this.starting.values()]);
    const hadSessions = this.sessions.size > 0;
    await Promise.allSettled([...this.sessions.values()].map((session) => session.stop()));
    await this.leases.close();
    await this.ctx.db
      .knex('whatsappSessionHosts')
      .where({ ownerId: this.ownerId })
      .delete()
      .catch(() => {});
    for (const unsubscribe of this.unsubscribers.splice(0)) await unsubscribe().catch(() => {});
    if (hadSessions) await this.ctx.broadcast.publish(RELEASED_TOPIC, { ownerId: this.ownerId }).catch(() => {});
  }
}
