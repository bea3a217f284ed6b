import type { Server as HttpServer } from 'node:http';
import {
  CLIENT_EVENTS,
  companyEvent,
  type EmitOptions,
  type RealtimeService,
  type RequestSession,
  ROOMS,
  runInTenant,
  TICKET_ROOM_STATUSES,
} from '@balcao/plugin-sdk/server';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import { type Namespace, Server, type Socket } from 'socket.io';
import type { Authenticator } from '../auth/authenticator';
import type { RedisClient } from '../infra/redis';
import type { InvalidationBus } from '../tenancy/invalidation';

const COMPANY_NAMESPACE = /^\/(\d{1,10})$/;
const USER_STATUS_MIN_INTERVAL_MS = 10_000;
/** Ids are Postgres integers. */
const MAX_ID = 2_147_483_647;

interface SocketData {
  session: RequestSession;
  familyId: string;
  lastStatusAt: number;
}

/**
 * How long a socket of an ended session lives on: long enough for the `company-{id}-auth` event of a
 * takeover (sent over the adapter, a different Redis channel than the revocation) to reach it first.
 */
const ENDED_SESSION_GRACE_MS = 2_000;

/** How often live sockets are checked again for what no event announces (a due date passing). */
const SOCKET_RECHECK_INTERVAL_MS = 60 * 60 * 1000;

type RoomCheck = (session: RequestSession, id: string) => boolean | Promise<boolean>;

/**
 * socket.io with one namespace per company (`/<companyId>`), shared across processes by the Redis
 * adapter. Every company namespace, however it gets created, is guarded by the same handshake check:
 * a valid access token of that very company.
 */
export class RealtimeServer implements RealtimeService {
  readonly io: Server;
  private readonly roomChecks = new Map<string, RoomCheck>();
  /** Status updates still running: close() lets them finish while Postgres and Redis are still open. */
  private readonly inFlight = new Set<Promise<void>>();
  /** This process's sockets by session family: a logout, takeover or theft ends them too. */
  private readonly socketsByFamily = new Map<string, Set<Socket>>();
  /** This process's sockets by user: a change to the user re-checks only theirs (it comes with every refresh). */
  private readonly socketsByUser = new Map<number, Set<Socket>>();
  private readonly periodicRecheck: NodeJS.Timeout;
  /**
   * Set by close(): an emit after it is dropped. A feature's work still finishing during shutdown (a channel
   * session ending, a job) may emit once Redis is gone, and the adapter's publish would reject unhandled.
   */
  private closed = false;

  constructor(
    private readonly authenticator: Authenticator,
    private readonly knex: Knex,
    private readonly log: FastifyBaseLogger,
    pub: RedisClient,
    sub: RedisClient,
    prefix: string,
    invalidation: InvalidationBus,
  ) {
    invalidation.onInvalidate((message) => {
      if (message.kind === 'user' || message.kind === 'company') {
        // after the caches have dropped the old copy (their listeners run in this same dispatch)
        setImmediate(() => this.recheckSockets(message.kind, message.id));
        return;
      }
      if (message.kind !== 'family') return;
      const sockets = this.socketsByFamily.get(message.id);
      if (!sockets) return;
      const timer = setTimeout(() => {
        for (const socket of sockets) socket.disconnect(true);
      }, ENDED_SESSION_GRACE_MS);
      timer.unref();
    });
    // nothing announces a due date passing: every hour, live sockets are checked again
    this.periodicRecheck = setInterval(() => this.recheckSockets('all'), SOCKET_RECHECK_INTERVAL_MS);
    this.periodicRecheck.unref();
    // the adapter adds an 'error' listener to both clients per company namespace: past ten companies
    // Node would warn of a leak that isn't one
    pub.setMaxListeners(0);
    sub.setMaxListeners(0);
    this.io = new Server({
      serveClient: false,
      cors: { origin: false },
      adapter: createAdapter(pub, sub, { key: `${prefix}:socket.io` }),
      // No cleanup of empty company namespaces: closing one's adapter while a fetchSockets of it awaits
      // other processes' answers (the presence check of a disconnect) loses them and waits out the 5 s
      // timeout, leaving the user online. Namespaces are bounded by the number of companies anyway, and
      // emits re-create them at once.
      cleanupEmptyChildNamespaces: false,
    });
    // Attach the guard to every company namespace the moment it exists (created by a client through
    // the parent namespace or by the server when it emits), so no namespace ever lacks it.
    this.io.sockets.on('new_namespace', (namespace: Namespace) => {
      if (COMPANY_NAMESPACE.test(namespace.name)) this.guard(namespace);
    });
    // A namespace lives for good (see above) and costs Redis subscriptions: create one only for a company
    // that exists, or anyone could create them without limit just by knocking on /<any number>.
    this.io.of((name, _auth, next) => {
      const companyId = Number(COMPANY_NAMESPACE.exec(name)?.[1] ?? 0);
      if (companyId < 1 || companyId > MAX_ID) return next(null, false);
      this.knex('companies')
        .where({ id: companyId })
        .first('id')
        .then(
          (row) => next(null, row !== undefined),
          (error: unknown) => {
            this.log.error({ err: error }, 'socket namespace check failed');
            next(null, false);
          },
        );
    });
    this.io.on('connection', (socket) => socket.disconnect(true)); // the main namespace serves nothing
  }

  attach(server: HttpServer): void {
    this.io.attach(server);
  }

  emit(companyId: number, event: string, payload: unknown, options: EmitOptions = {}): void {
    if (this.closed) return;
    const namespace = this.io.of(`/${companyId}`);
    if (options.rooms && (!Array.isArray(options.rooms) || options.rooms.length > 0)) {
      namespace.to(options.rooms).emit(event, payload);
    } else if (!options.rooms) {
      namespace.emit(event, payload);
    }
  }

  emitAll(event: string, payload: unknown): void {
    if (this.closed) return;
    // Company namespaces exist only where someone connected or emitted; a global event reaches every
    // process through the main namespace's adapter and is re-emitted to local company namespaces.
    this.io.serverSideEmit('balcao:all', event, payload);
    this.emitAllLocal(event, payload);
  }

  private emitAllLocal(event: string, payload: unknown): void {
    for (const [name, namespace] of this.io._nsps) {
      if (COMPANY_NAMESPACE.test(name)) namespace.local.emit(event, payload);
    }
  }

  authorizeRoom(kind: string, check: RoomCheck): void {
    this.roomChecks.set(kind, check);
  }

  /** Listens for cross-process broadcasts (call once). */
  listenForBroadcasts(): void {
    this.io.on('balcao:all' as never, ((event: string, payload: unknown) => this.emitAllLocal(event, payload)) as never);
  }

  private guard(namespace: Namespace): void {
    const companyId = Number(COMPANY_NAMESPACE.exec(namespace.name)?.[1]);
    namespace.use(async (socket, next) => {
      const token = (socket.handshake.auth as { token?: unknown }).token ?? socket.handshake.query.token;
      const result = await this.authenticator.authenticate(typeof token === 'string' ? token : undefined);
      if (!result.ok) return next(Object.assign(new Error(result.error), { data: { error: result.error } }));
      if (result.session.companyId !== companyId) {
        return next(Object.assign(new Error('ERR_NO_PERMISSION'), { data: { error: 'ERR_NO_PERMISSION' } }));
      }
      if (result.expired) {
        return next(Object.assign(new Error('ERR_SUBSCRIPTION_EXPIRED'), { data: { error: 'ERR_SUBSCRIPTION_EXPIRED' } }));
      }
      (socket.data as SocketData).session = result.session;
      (socket.data as SocketData).familyId = result.familyId;
      (socket.data as SocketData).lastStatusAt = 0;
      next();
    });
    namespace.on('connection', (socket) => this.onConnection(companyId, socket));
  }

  private onConnection(companyId: number, socket: Socket): void {
    const data = socket.data as SocketData;
    const { session } = data;
    void socket.join(ROOMS.user(session.userId));
    addTo(this.socketsByFamily, data.familyId, socket);
    addTo(this.socketsByUser, session.userId, socket);
    const inScope = <T>(fn: () => T) => runInTenant({ companyId, userId: session.userId }, fn);

    socket.on(CLIENT_EVENTS.joinNotification, () => void socket.join(ROOMS.notification));
    socket.on(CLIENT_EVENTS.leaveNotification, () => void socket.leave(ROOMS.notification));
    socket.on(CLIENT_EVENTS.joinTickets, (status: unknown) => {
      if (typeof status === 'string' && (TICKET_ROOM_STATUSES as readonly string[]).includes(status)) {
        void socket.join(ROOMS.tickets(status));
      }
    });
    socket.on(CLIENT_EVENTS.leaveTickets, (status: unknown) => {
      if (typeof status === 'string') void socket.leave(ROOMS.tickets(status));
    });
    socket.on(CLIENT_EVENTS.joinChatBox, async (ticketId: unknown) => {
      const id = String(ticketId ?? '');
      if (!/^\d{1,10}$/.test(id)) return;
      const check = this.roomChecks.get('chatBox');
      // Without a feature that knows tickets, nobody may join a ticket room: fail closed.
      if (!check) return;
      try {
        if (await inScope(() => check(session, id))) await socket.join(ROOMS.chatBox(id));
      } catch (error) {
        this.log.error({ err: error }, 'chatBox room check failed');
      }
    });
    socket.on(CLIENT_EVENTS.joinChatBoxLeave, (ticketId: unknown) => {
      void socket.leave(ROOMS.chatBox(String(ticketId ?? '')));
    });
    socket.on(CLIENT_EVENTS.userStatus, () => {
      const now = Date.now();
      if (now - data.lastStatusAt < USER_STATUS_MIN_INTERVAL_MS) return;
      data.lastStatusAt = now;
      this.track(this.setOnline(companyId, session.userId, true));
    });
    socket.on('disconnect', () => {
      removeFrom(this.socketsByFamily, data.familyId, socket);
      removeFrom(this.socketsByUser, session.userId, socket);
      this.track(
        (async () => {
          try {
            const remaining = await this.io.of(`/${companyId}`).in(ROOMS.user(session.userId)).fetchSockets();
            if (remaining.length === 0) await this.setOnline(companyId, session.userId, false);
          } catch {
            // another process didn't answer in time: the user stays as last seen until the next status
          }
        })(),
      );
    });
    this.track(this.setOnline(companyId, session.userId, true));
  }

  /**
   * A socket carries the session it opened with. When its user or company changes (profile, deletion,
   * deactivation, due date), this process's sockets of them are checked again: a session still good takes
   * the new state, any other is disconnected, and its reconnection meets the handshake's refusal.
   */
  private recheckSockets(kind: 'user' | 'company' | 'all', id?: number): void {
    let sockets: Iterable<Socket>;
    if (kind === 'user') sockets = this.socketsByUser.get(id ?? 0) ?? [];
    else if (kind === 'company') sockets = this.io._nsps.get(`/${id}`)?.sockets.values() ?? [];
    else sockets = [...this.socketsByFamily.values()].flatMap((family) => [...family]);
    for (const socket of sockets) {
      const data = socket.data as SocketData;
      this.track(
        this.authenticator
          .check({ userId: data.session.userId, companyId: data.session.companyId, familyId: data.familyId })
          .then(
            (result) => {
              if (result.ok && !result.expired) data.session = result.session;
              else socket.disconnect(true);
            },
            (error: unknown) => this.log.error({ err: error }, 'socket session check failed'),
          ),
      );
    }
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    const done = () => this.inFlight.delete(work);
    work.then(done, done);
  }

  private async setOnline(companyId: number, userId: number, online: boolean): Promise<void> {
    try {
      const updated = await this.knex('users')
        .where({ id: userId, companyId })
        .update({ online, lastSeenAt: this.knex.fn.now() }, ['id', 'online']);
      if (updated.length > 0)
        this.emit(companyId, companyEvent(companyId, 'user'), { action: 'update', user: { id: userId, online } });
    } catch (error) {
      this.log.error({ err: error }, 'user status update failed');
    }
  }

  async close(): Promise<void> {
    clearInterval(this.periodicRecheck);
    await new Promise<void>((resolve) => this.io.close(() => resolve()));
    // the sockets the shutdown closed update their user's status now; an emit after Redis closed would
    // be an unhandled rejection (the adapter doesn't catch its publish)
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    // no socket is left to reach: whatever still emits (features closing after this) is dropped
    this.closed = true;
  }
}

function addTo<K>(index: Map<K, Set<Socket>>, key: K, socket: Socket): void {
  const sockets = index.get(key);
  if (sockets) sockets.add(socket);
  else index.set(key, new Set([socket]));
}

function removeFrom<K>(index: Map<K, Set<Socket>>, key: K, socket: Socket): void {
  const sockets = index.get(key);
  sockets?.delete(socket);
  if (sockets?.size === 0) index.delete(key);
}
