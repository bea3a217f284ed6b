import type { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Knex } from 'knex';
import type { Permission, Profile } from '../shared/permissions';
import type { AnyPlanFlag, PlanFlags, PluginPlanFlag } from '../shared/plan-flags';
import type { SessionUser } from '../shared/session';
import type { BalcaoServices, EventBus } from './events';
import type { MailService } from './mail';

/** The Fastify instance a feature registers its routes on (TypeBox-typed schemas). */
export type PluginApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What the core knows about the caller of an authenticated request (`request.session`). */
export interface RequestSession {
  userId: number;
  companyId: number;
  profile: Profile;
  super: boolean;
  /**
   * Set when the caller is a machine client authenticated by an API key (docs/api.md "API keys"): the key's
   * id. The session's user is the admin who created the key; the key's scopes were checked by the core.
   */
  apiKeyId?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's session; null on public routes called without a token. */
    session: RequestSession | null;
  }
}

/** Database access. Prefer tenant-scoped models; raw knex is for migrations, reports and bulk work. */
export interface PluginDb {
  knex: Knex;
  /** Runs `fn` in one transaction; the tenant scope carries through. */
  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
}

/** Plan flags of a company, resolved in one place and cached (invalidated when a plan or company changes). */
export interface PlanService {
  flags(companyId: number): Promise<PlanFlags>;
  has(companyId: number, flag: AnyPlanFlag): Promise<boolean>;
  /** Throws 403 ERR_PLAN_FEATURE_DISABLED when the company lacks the flag. */
  require(companyId: number, flag: AnyPlanFlag): Promise<void>;
  /** The flags the loaded plugins declare for themselves (beside the ten), in load order. */
  pluginFlags(): PluginPlanFlag[];
}

/** Access checks for use inside handlers and services (routes declare theirs in `config`). */
export interface AccessService {
  /** Whether the user holds the permission (static table, features' permissions, profile-user exceptions). */
  can(user: SessionUser, permission: Permission): boolean;
  /** The full session user of a request (cached), for rules that read permission fields. */
  sessionUser(request: FastifyRequest): Promise<SessionUser>;
  /** Throws 403 ERR_NO_PERMISSION unless the request's user holds the permission. */
  require(request: FastifyRequest, permission: Permission): Promise<void>;
}

/** Options of a realtime emit. */
export interface EmitOptions {
  /** Only sockets in these rooms of the company's namespace (for example `user:7`, `notification`, `open`). */
  rooms?: string | string[];
}

/** Realtime: socket.io, one namespace per company, shared across processes through Redis. */
export interface RealtimeService {
  /** Emits `event` to the company's namespace (optionally only to some rooms). */
  emit(companyId: number, event: string, payload: unknown, options?: EmitOptions): void;
  /** Emits to every company (for example `company-announcement`). */
  emitAll(event: string, payload: unknown): void;
  /**
   * Decides who may join a parametrised room (`joinChatBox` with a ticket id …). The handler runs in the
   * socket user's tenant scope and returns whether to let them in.
   */
  authorizeRoom(kind: string, check: (session: RequestSession, id: string) => boolean | Promise<boolean>): void;
}

/** Options of a job enqueue. */
export interface EnqueueOptions {
  /** The company the job works for; its handler runs in this tenant scope. Defaults to the current scope. */
  companyId?: number;
  /** Run no sooner than this many milliseconds from now. */
  delayMs?: number;
  /** A deterministic id: enqueueing twice with the same id while the first is pending makes one job. */
  jobId?: string;
  /** Retries on failure (with exponential backoff); default 0. */
  retries?: number;
  /** Milliseconds after which a running job counts as failed. */
  timeoutMs?: number;
}

/** Background jobs on bee-queue, namespaced per feature. */
export interface JobService {
  /** Enqueues one of this feature's jobs (`name`) or another feature's (`feature:name`). */
  enqueue(name: string, data: Record<string, unknown>, options?: EnqueueOptions): Promise<{ id: string } | null>;
}

/** Company settings (key/value pairs, docs/product/administration.md#entities Setting). */
export interface SettingsService {
  get(companyId: number, key: string): Promise<string | null>;
  all(companyId: number): Promise<Record<string, string>>;
  set(companyId: number, key: string, value: string): Promise<void>;
}

/** Stored files, always under a company (local disk by default; the interface allows object storage). */
export interface StorageService {
  put(
    companyId: number,
    key: string,
    data: Readable | Buffer,
    options?: { maxBytes?: number },
  ): Promise<{ key: string; size: number }>;
  get(companyId: number, key: string): Promise<Readable | null>;
  stat(companyId: number, key: string): Promise<{ size: number; modifiedAt: Date } | null>;
  delete(companyId: number, key: string): Promise<void>;
  /** Totals for a company's folder (docs/product/administration.md#companies-plans-and-helps: folder size, number of files, last update). */
  usage(companyId: number): Promise<{ bytes: number; files: number; updatedAt: Date | null }>;
  /** Removes every file of a company (its folder): for a deleted company, whose files must not outlive it. */
  deleteAll(companyId: number): Promise<void>;
  /**
   * A signed address of a file (`/api/media/<token>`) that a browser can load without the bearer token
   * (`<img src>`, downloads). Hand it only to users of `companyId`; it expires after `ttlMs` (default a day).
   */
  signedUrl(companyId: number, key: string, options?: { ttlMs?: number; fileName?: string }): string;
}

/** Key/value cache on Redis with a per-feature namespace. */
export interface CacheService {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  del(key: string): Promise<void>;
  /**
   * Adds one to a counter that lives `windowMs` from its first hit (a fixed window), atomically across
   * processes; answers the count so far and the milliseconds left in the window. For rate limits.
   */
  increment(key: string, windowMs: number): Promise<{ count: number; remainingMs: number }>;
}

/** Services features publish to each other (`provide` in one, `use` in another). */
export interface ServiceRegistry {
  provide<K extends keyof BalcaoServices>(name: K, implementation: BalcaoServices[K]): void;
  use<K extends keyof BalcaoServices>(name: K): BalcaoServices[K];
  /**
   * Whether a service is provided: for a feature that works with or without another (the chatbot reads a
   * connection's greeting when the channels plugin is installed, the company's otherwise).
   */
  has(name: keyof BalcaoServices): boolean;
}

/**
 * Messages between the processes of a deployment on this feature's own topics (Redis pub/sub): for live
 * connections a feature holds itself (a widget's event streams), where `realtime` (the shell's sockets)
 * doesn't reach. At most once, only to processes listening at that moment; payloads are JSON.
 */
export interface BroadcastService {
  publish(topic: string, payload: unknown): Promise<void>;
  /** Listens in this process; resolves once subscribed, to the function that stops listening. */
  subscribe(topic: string, listener: (payload: unknown) => void): Promise<() => Promise<void>>;
}

/** A company's standing as every request reads it: active or not, and the last day its subscription covers. */
export interface CompanyStanding {
  status: boolean;
  /** A calendar day, `YYYY-MM-DD`. */
  dueDate: string;
}

/** Hooks the core calls so that caches of session data stay true after writes. */
export interface SessionService {
  /**
   * The company's standing from the core's cached company state (the one sessions and plan flags read,
   * dropped on every process by `invalidateCompany`), or null when the company doesn't exist. For routes
   * that authenticate their own callers and check the company per call without a read of their own.
   */
  company(companyId: number): Promise<CompanyStanding | null>;
  /** Drop cached session data of a user (after changing their profile or permission fields). */
  invalidateUser(userId: number): Promise<void>;
  /** Drop cached data of a company (its plan, due date, settings). */
  invalidateCompany(companyId: number): Promise<void>;
  /** Ends every session of a user at once, on every process (their password was changed by someone else). */
  endUserSessions(userId: number): Promise<void>;
}

/** The core's password hashing (scrypt at the configured cost), for features that set users' passwords. */
export interface PasswordService {
  /** A hash to store in `users.passwordHash`; the core's login verifies it. */
  hash(password: string): Promise<string>;
}

/** A company to create with its first admin (docs/product/administration.md#calls-and-realtime-events Companies: `POST /companies`). */
export interface NewCompany {
  name: string;
  email: string;
  phone?: string | null;
  document?: string | null;
  addressStreet?: string | null;
  addressState?: string | null;
  addressCity?: string | null;
  planId: number;
  status: boolean;
  /** A calendar day, `YYYY-MM-DD`. */
  dueDate: string;
  recurrence: string;
  paymentMethod?: string | null;
  numberAttendants?: number;
  numberConections?: number;
  value?: string | number | null;
  /** The company's first user: profile admin, the password hashed the way every login checks it. */
  admin: { name: string; email: string; password: string };
}

/** Tenants as the core makes them (the same steps as signup), for the super user's administration. */
export interface TenancyService {
  /**
   * Inserts the company, its admin and the default company settings in one transaction. Refuses a
   * taken e-mail with 409 ERR_EMAIL_ALREADY_EXISTS and an unknown plan with 404 ERR_NO_PLAN_FOUND.
   */
  createCompany(input: NewCompany): Promise<{ companyId: number; userId: number }>;
}

/** Label values of one metric sample (`{ channel: 'whatsapp' }`). */
export type MetricLabels = Readonly<Record<string, string | number>>;

/** A metric's name (without the `balcao_` the core puts before it), help text and label names. */
export interface MetricOptions {
  /** Lower case, digits and `_` (`messages_inbound_total`); exposed as `balcao_<name>`. */
  name: string;
  help: string;
  labelNames?: readonly string[];
}

/** A counter that only goes up. */
export interface MetricCounter {
  inc(labels?: MetricLabels, value?: number): void;
}

/** One value of a gauge at a scrape. */
export interface MetricSample {
  labels?: MetricLabels;
  value: number;
}

/** A gauge whose values are read when Prometheus scrapes (`collect`), so nothing is kept up to date meanwhile. */
export interface MetricGaugeOptions extends MetricOptions {
  collect(): MetricSample[] | Promise<MetricSample[]>;
}

/**
 * The process's Prometheus metrics (`GET /metrics`, docs/operations.md "Metrics"). Counting is cheap (a
 * map lookup); while `METRICS_TOKEN` is unset (`enabled` false) counters count nothing and gauges are
 * never read. Keep label values few (a channel, a state), never ids.
 */
export interface MetricsService {
  readonly enabled: boolean;
  /** Declares (or finds, same name and labels) a counter of this process. */
  counter(options: MetricOptions): MetricCounter;
  /** Declares a gauge read at each scrape; declaring the same name again replaces the earlier one. */
  gauge(options: MetricGaugeOptions): void;
}

/** The core's configuration a feature may read (`ctx.config`, beside the feature's own variables). */
export interface CoreConfigView {
  apiPrefix: string;
  publicUrl: string;
  env: 'development' | 'test' | 'production';
  /**
   * What this process does (`ROLE`): `web` serves HTTP only; `worker` runs jobs, schedules and long-lived
   * work such as channel sessions; `all` both. Work that must run in one process per deployment (a
   * WhatsApp session) runs only where the role isn't `web`.
   */
  role: 'web' | 'worker' | 'all';
  /**
   * Addresses and CIDR ranges a tenant's URL may reach although they are special (`OUTBOUND_HTTP_ALLOW`):
   * give it to `createOutboundHttp({ allow })`.
   */
  outboundHttpAllow: readonly string[];
}

/**
 * Everything a feature receives from the core. `C` is the feature's validated configuration: the
 * variables its `definePlugin({ config })` declares, keyed by their names (`ctx.config.CAMPAIGN_BATCH`).
 */
export interface PluginContext<C extends object = object> {
  /** This feature's id. */
  id: string;
  /**
   * The feature's logger: the core's pino logger with `plugin: <id>` on every line
   * (`ctx.log.info({ ticketId }, 'lane timed out')`); its level is `LOG_LEVEL`.
   */
  log: FastifyBaseLogger;
  /** The core's settings a feature may read, and the feature's own variables, validated at start. */
  config: Readonly<CoreConfigView & C>;
  db: PluginDb;
  plans: PlanService;
  access: AccessService;
  realtime: RealtimeService;
  jobs: JobService;
  events: EventBus;
  settings: SettingsService;
  storage: StorageService;
  cache: CacheService;
  broadcast: BroadcastService;
  services: ServiceRegistry;
  session: SessionService;
  passwords: PasswordService;
  tenancy: TenancyService;
  /** The core's outgoing mail (SMTP, or the outbox folder without `SMTP_URL`): `ctx.mail.send({ to, subject, text })`. */
  mail: MailService;
  /** This process's metrics (Prometheus), shared by the core and every feature. */
  metrics: MetricsService;
}

/** A route handler's request and reply, for helpers that take them. */
export type { FastifyReply, FastifyRequest };
