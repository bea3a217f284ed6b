import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allowListProblems, type Static, type TSchema, Type } from '@balcao/plugin-sdk/server';
import { Ajv, type ValidateFunction } from 'ajv';

/**
 * The repository root (where `host/`, `modules/` and `plugins/` live): BALCAO_ROOT, else the nearest
 * folder above this file whose package.json is the `balcao` workspace root (the same from source and
 * from the bundle in `.build/`).
 */
export const REPO_ROOT = findRepoRoot();

function findRepoRoot(): string {
  if (process.env.BALCAO_ROOT) return path.resolve(process.env.BALCAO_ROOT);
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'balcao') return dir;
      } catch {
        // not ours; keep climbing
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the Balcão repository root: set BALCAO_ROOT');
    dir = parent;
  }
}

const ConfigSchema = Type.Object({
  env: Type.Union([Type.Literal('development'), Type.Literal('test'), Type.Literal('production')]),
  role: Type.Union([Type.Literal('web'), Type.Literal('worker'), Type.Literal('all')]),
  host: Type.String({ minLength: 1 }),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  publicUrl: Type.String({ pattern: '^https?://' }),
  apiPrefix: Type.String({ pattern: '^/[a-z0-9/_-]*$' }),
  databaseUrl: Type.String({ pattern: '^postgres(ql)?://' }),
  redisUrl: Type.String({ pattern: '^rediss?://' }),
  /** Prefix of every Redis key, queue and channel: lets test apps share one Redis. */
  redisPrefix: Type.String({ pattern: '^[a-z0-9:_-]+$' }),
  jwtSecret: Type.String({ minLength: 32 }),
  accessTokenTtlSeconds: Type.Integer({ minimum: 10, maximum: 86_400 }),
  refreshTokenTtlDays: Type.Integer({ minimum: 1, maximum: 365 }),
  storageDir: Type.String({ minLength: 1 }),
  /** Where uploaded files live: `local` (STORAGE_DIR) or `s3` (an S3-compatible bucket, the S3_* variables). */
  storageDriver: Type.Union([Type.Literal('local'), Type.Literal('s3')]),
  /** Endpoint of an S3-compatible service other than AWS (MinIO, Ceph …); null for AWS itself. */
  s3Endpoint: Type.Union([Type.String({ pattern: '^https?://[^/\\s]+(/.*)?$' }), Type.Null()]),
  s3Bucket: Type.Union([Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$' }), Type.Null()]),
  s3Region: Type.String({ pattern: '^[a-z0-9-]{2,40}$' }),
  s3AccessKeyId: Type.Union([Type.String({ minLength: 3, maxLength: 128 }), Type.Null()]),
  s3SecretAccessKey: Type.Union([Type.String({ minLength: 8, maxLength: 256 }), Type.Null()]),
  s3ForcePathStyle: Type.Boolean(),
  /** Extra plugin folders or package names, besides `modules/*` and `plugins/*`. */
  extraPlugins: Type.Array(Type.String({ minLength: 1 })),
  /** Folder of the built host shell (served at `/`). */
  hostDist: Type.String(),
  logLevel: Type.Union([
    Type.Literal('fatal'),
    Type.Literal('error'),
    Type.Literal('warn'),
    Type.Literal('info'),
    Type.Literal('debug'),
    Type.Literal('trace'),
    Type.Literal('silent'),
  ]),
  trustProxy: Type.Boolean(),
  trialDays: Type.Integer({ minimum: 0, maximum: 365 }),
  /** Login throttling: attempts per IP and failures per account in the window. */
  loginMaxPerIp: Type.Integer({ minimum: 1 }),
  loginMaxFailuresPerAccount: Type.Integer({ minimum: 1 }),
  loginWindowSeconds: Type.Integer({ minimum: 1 }),
  /** scrypt cost (N). Tests lower it; production keeps the default. */
  passwordHashCost: Type.Integer({ minimum: 1024 }),
  /** Apply pending migrations when the process starts (a release step may do it instead). */
  migrateOnStart: Type.Boolean(),
  /** SMTP server for outgoing mail (`smtp://user:pass@host:587`); without it mail goes to the outbox folder. */
  smtpUrl: Type.Union([Type.String({ pattern: '^smtps?://' }), Type.Null()]),
  mailFrom: Type.String({ minLength: 3 }),
  /** Where mail is written when no SMTP server is configured. */
  mailOutboxDir: Type.String({ minLength: 1 }),
  /**
   * Addresses or CIDR ranges a tenant-configured URL may reach although they are loopback, private or
   * otherwise special (the SDK's guarded outbound client; empty: none).
   */
  outboundHttpAllow: Type.Array(Type.String({ minLength: 1 })),
  /** Bearer token of `GET /metrics`; null: no metrics are kept and `/metrics` answers 404. */
  metricsToken: Type.Union([Type.String({ minLength: 16, pattern: '^[\\x21-\\x7e]+$' }), Type.Null()]),
  /** Port where a `worker` process answers `/healthz`, `/readyz` and `/metrics` (null: it listens nowhere). */
  workerPort: Type.Union([Type.Integer({ minimum: 1, maximum: 65535 }), Type.Null()]),
  /**
   * How long a `web` process stopping (SIGTERM) keeps serving while `/readyz` answers 503, so that its load
   * balancer stops sending to it before it closes (0: it closes at once).
   */
  shutdownDrainMs: Type.Integer({ minimum: 0, maximum: 60_000 }),
});

/** The validated configuration of a Balcão process. */
export type AppConfig = Static<typeof ConfigSchema>;

/** Thrown with every problem of the environment at once, each naming the variable to fix. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const ENV_NAMES: Record<keyof AppConfig, string> = {
  env: 'NODE_ENV',
  role: 'ROLE',
  host: 'HOST',
  port: 'PORT',
  publicUrl: 'PUBLIC_URL',
  apiPrefix: 'API_PREFIX',
  databaseUrl: 'DATABASE_URL',
  redisUrl: 'REDIS_URL',
  redisPrefix: 'REDIS_PREFIX',
  jwtSecret: 'JWT_SECRET',
  accessTokenTtlSeconds: 'ACCESS_TOKEN_TTL_SECONDS',
  refreshTokenTtlDays: 'REFRESH_TOKEN_TTL_DAYS',
  storageDir: 'STORAGE_DIR',
  storageDriver: 'STORAGE_DRIVER',
  s3Endpoint: 'S3_ENDPOINT',
  s3Bucket: 'S3_BUCKET',
  s3Region: 'S3_REGION',
  s3AccessKeyId: 'S3_ACCESS_KEY_ID',
  s3SecretAccessKey: 'S3_SECRET_ACCESS_KEY',
  s3ForcePathStyle: 'S3_FORCE_PATH_STYLE',
  extraPlugins: 'BALCAO_PLUGINS',
  hostDist: 'HOST_DIST',
  logLevel: 'LOG_LEVEL',
  trustProxy: 'TRUST_PROXY',
  trialDays: 'TRIAL_DAYS',
  loginMaxPerIp: 'LOGIN_MAX_PER_IP',
  loginMaxFailuresPerAccount: 'LOGIN_MAX_FAILURES_PER_ACCOUNT',
  loginWindowSeconds: 'LOGIN_WINDOW_SECONDS',
  passwordHashCost: 'PASSWORD_HASH_COST',
  migrateOnStart: 'MIGRATE_ON_START',
  smtpUrl: 'SMTP_URL',
  mailFrom: 'MAIL_FROM',
  mailOutboxDir: 'MAIL_OUTBOX_DIR',
  outboundHttpAllow: 'OUTBOUND_HTTP_ALLOW',
  metricsToken: 'METRICS_TOKEN',
  workerPort: 'WORKER_PORT',
  shutdownDrainMs: 'SHUTDOWN_DRAIN_MS',
};

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/balcao';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** A value as a problem message shows it: never the JWT secret, never the password of a URL. */
function shownValue(key: keyof AppConfig, value: unknown): string {
  if (key === 'jwtSecret' || key === 's3SecretAccessKey' || key === 'metricsToken')
    return `${String(value ?? '').length} characters`;
  return (JSON.stringify(value) ?? '').replace(/\/\/([^:@/]+):[^@/]*@/g, '//$1:***@');
}

function boolean(name: string, raw: string | undefined, fallback: boolean, problems: string[]): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  problems.push(`${name} must be true or false (got '${raw}')`);
  return fallback;
}

type AjvIssue = NonNullable<ValidateFunction['errors']>[number];

/**
 * One line per failing variable, in words an operator can act on: ajv reports a failed choice as one
 * "must be equal to constant" per option plus "must match a schema in anyOf", naming none of them.
 */
function describeIssues(issues: AjvIssue[]): string[] {
  const choice = issues.find((issue) => issue.keyword === 'anyOf');
  if (!choice) return issues.map((issue) => issue.message ?? 'is invalid');
  const options = choice.schema as Array<{ const?: unknown }>;
  if (options.every((option) => 'const' in option)) {
    return [`must be one of ${options.map((option) => String(option.const)).join(', ')}`];
  }
  // a value or nothing (SMTP_URL): what is wrong with the value is what matters
  const reasons = issues.filter(
    (issue) => issue.keyword !== 'anyOf' && !(issue.keyword === 'type' && issue.params.type === 'null'),
  );
  return reasons.length > 0 ? reasons.map((issue) => issue.message ?? 'is invalid') : ['is invalid'];
}

function integer(name: string, raw: string | undefined, fallback: number, problems: string[]): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) {
    problems.push(`${name} must be an integer (got '${raw}')`);
    return fallback;
  }
  return Number(raw);
}

/**
 * Reads the configuration from an environment (process.env by default) and validates it. Every problem
 * is reported at once, naming the variable. `overrides` win over the environment (tests use them).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const problems: string[] = [];
  const nodeEnv = nodeEnvOf(env);
  // anything else would silently run as development (a throwaway JWT secret per process, for one)
  if (env.NODE_ENV && env.NODE_ENV !== nodeEnv) {
    problems.push(`NODE_ENV must be one of development, test, production (got '${env.NODE_ENV}')`);
  }
  const port = integer('PORT', env.PORT, 8080, problems);
  const jwtSecret = env.JWT_SECRET ?? (nodeEnv === 'production' ? '' : randomBytes(32).toString('hex'));
  const candidate: AppConfig = {
    env: nodeEnv,
    role: (env.ROLE ?? 'all') as AppConfig['role'],
    host: env.HOST ?? '0.0.0.0',
    port,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    apiPrefix: env.API_PREFIX ?? '/api',
    databaseUrl: env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    redisUrl: env.REDIS_URL ?? DEFAULT_REDIS_URL,
    redisPrefix: env.REDIS_PREFIX ?? 'balcao',
    jwtSecret,
    accessTokenTtlSeconds: integer('ACCESS_TOKEN_TTL_SECONDS', env.ACCESS_TOKEN_TTL_SECONDS, 900, problems),
    refreshTokenTtlDays: integer('REFRESH_TOKEN_TTL_DAYS', env.REFRESH_TOKEN_TTL_DAYS, 30, problems),
    storageDir: path.resolve(env.STORAGE_DIR ?? path.join(REPO_ROOT, '.data', 'storage')),
    storageDriver: (env.STORAGE_DRIVER || 'local') as AppConfig['storageDriver'],
    s3Endpoint: env.S3_ENDPOINT || null,
    s3Bucket: env.S3_BUCKET || null,
    s3Region: env.S3_REGION || 'us-east-1',
    s3AccessKeyId: env.S3_ACCESS_KEY_ID || null,
    s3SecretAccessKey: env.S3_SECRET_ACCESS_KEY || null,
    s3ForcePathStyle: boolean('S3_FORCE_PATH_STYLE', env.S3_FORCE_PATH_STYLE, false, problems),
    extraPlugins: (env.BALCAO_PLUGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    hostDist: path.resolve(env.HOST_DIST ?? path.join(REPO_ROOT, 'host', 'dist')),
    logLevel: (env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info')) as AppConfig['logLevel'],
    trustProxy: boolean('TRUST_PROXY', env.TRUST_PROXY, false, problems),
    trialDays: integer('TRIAL_DAYS', env.TRIAL_DAYS, 7, problems),
    loginMaxPerIp: integer('LOGIN_MAX_PER_IP', env.LOGIN_MAX_PER_IP, 30, problems),
    loginMaxFailuresPerAccount: integer('LOGIN_MAX_FAILURES_PER_ACCOUNT', env.LOGIN_MAX_FAILURES_PER_ACCOUNT, 5, problems),
    loginWindowSeconds: integer('LOGIN_WINDOW_SECONDS', env.LOGIN_WINDOW_SECONDS, 900, problems),
    passwordHashCost: integer('PASSWORD_HASH_COST', env.PASSWORD_HASH_COST, 16_384, problems),
    migrateOnStart: boolean('MIGRATE_ON_START', env.MIGRATE_ON_START, true, problems),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Balcão <no-reply@balcao.local>',
    mailOutboxDir: path.resolve(env.MAIL_OUTBOX_DIR ?? path.join(REPO_ROOT, '.data', 'outbox')),
    outboundHttpAllow: (env.OUTBOUND_HTTP_ALLOW ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    metricsToken: env.METRICS_TOKEN || null,
    workerPort: env.WORKER_PORT ? integer('WORKER_PORT', env.WORKER_PORT, 1, problems) : null,
    shutdownDrainMs: integer('SHUTDOWN_DRAIN_MS', env.SHUTDOWN_DRAIN_MS, 6_000, problems),
    ...overrides,
  };
  for (const problem of allowListProblems(candidate.outboundHttpAllow)) problems.push(`OUTBOUND_HTTP_ALLOW: ${problem}`);
  if (candidate.storageDriver === 's3') {
    for (const [key, name] of [
      ['s3Bucket', 'S3_BUCKET'],
      ['s3AccessKeyId', 'S3_ACCESS_KEY_ID'],
      ['s3SecretAccessKey', 'S3_SECRET_ACCESS_KEY'],
    ] as const) {
      if (candidate[key] === null) problems.push(`${name} is required when STORAGE_DRIVER is s3`);
    }
  }
  if (nodeEnv === 'production' && !env.JWT_SECRET && !overrides.jwtSecret) {
    problems.push('JWT_SECRET is required in production (at least 32 characters)');
  }
  const validate = new Ajv({ allErrors: true, verbose: true }).compile(ConfigSchema);
  if (!validate(candidate)) {
    const byKey = new Map<string, AjvIssue[]>();
    for (const error of validate.errors ?? []) {
      const key = error.instancePath.split('/')[1] ?? '';
      byKey.set(key, [...(byKey.get(key) ?? []), error]);
    }
    for (const [key, issues] of byKey) {
      if (!key) {
        problems.push(...issues.map((issue) => `configuration ${issue.message ?? 'is invalid'}`));
        continue;
      }
      const name = ENV_NAMES[key as keyof AppConfig];
      const got = shownValue(key as keyof AppConfig, candidate[key as keyof AppConfig]);
      for (const message of describeIssues(issues)) problems.push(`${name} ${message} (got ${got})`);
    }
  }
  if (problems.length > 0) throw new ConfigError([...new Set(problems)]);
  return candidate;
}

/** A feature's declared configuration, as the loader hands it over. */
export interface FeatureConfigDeclaration {
  id: string;
  config?: Record<string, TSchema>;
  /** The feature's own checks of its valid values together (`definePlugin({ checkConfig })`). */
  checkConfig?(config: never, platform: { env: AppConfig['env'] }): string[];
}

const CORE_VARIABLES = new Set<string>([...Object.values(ENV_NAMES), 'BALCAO_ROOT', 'SEED_DEMO']);

/** NODE_ENV as the core takes it: production or test when it says so, development otherwise. */
function nodeEnvOf(env: NodeJS.ProcessEnv): AppConfig['env'] {
  return env.NODE_ENV === 'production' || env.NODE_ENV === 'test' ? env.NODE_ENV : 'development';
}

/**
 * Reads and validates every feature's declared variables from an environment (process.env by default):
 * an unset or empty variable takes its schema's default, a set one is converted to the schema's type
 * (`'200'` to 200, `'true'` to true) and checked against its bounds. Returns each feature's values by id;
 * throws a ConfigError with every problem at once, each naming the variable, as `loadConfig` does.
 */
export function loadFeatureConfigs(
  features: FeatureConfigDeclaration[],
  env: NodeJS.ProcessEnv = process.env,
): Map<string, Record<string, unknown>> {
  const problems: string[] = [];
  const values = new Map<string, Record<string, unknown>>();
  const owners = new Map<string, string>();
  for (const feature of features) {
    const schema = feature.config ?? {};
    for (const name of Object.keys(schema)) {
      if (!/^[A-Z][A-Z0-9_]*$/.test(name)) problems.push(`${feature.id}: variable '${name}' must be upper case (A-Z, 0-9, _)`);
      if (CORE_VARIABLES.has(name)) problems.push(`${feature.id}: variable ${name} is the core's`);
      const owner = owners.get(name);
      if (owner) problems.push(`${feature.id}: variable ${name} is already declared by ${owner}`);
      owners.set(name, feature.id);
    }
    const candidate: Record<string, unknown> = {};
    for (const name of Object.keys(schema)) {
      const raw = env[name];
      if (raw !== undefined && raw !== '') candidate[name] = raw;
    }
    const validate = new Ajv({ allErrors: true, verbose: true, coerceTypes: true, useDefaults: true }).compile(
      Type.Object(schema, { additionalProperties: false }),
    );
    if (!validate(candidate)) {
      const byName = new Map<string, AjvIssue[]>();
      for (const error of validate.errors ?? []) {
        const name =
          error.keyword === 'required'
            ? String((error.params as { missingProperty: string }).missingProperty)
            : (error.instancePath.split('/')[1] ?? '');
        byName.set(name, [...(byName.get(name) ?? []), error]);
      }
      // in the order the feature declares its variables
      const names = [...Object.keys(schema), ...[...byName.keys()].filter((name) => !(name in schema))];
      for (const name of names) {
        const issues = byName.get(name);
        if (!issues) continue;
        if (issues.some((issue) => issue.keyword === 'required')) {
          problems.push(`${name} is required (${feature.id})`);
          continue;
        }
        for (const message of describeIssues(issues)) problems.push(`${name} ${message} (got '${env[name]}')`);
      }
    } else if (feature.checkConfig) {
      const check = feature.checkConfig as (config: Record<string, unknown>, platform: { env: AppConfig['env'] }) => string[];
      for (const problem of check(candidate, { env: nodeEnvOf(env) })) {
        problems.push(`${problem} (${feature.id})`);
      }
    }
    values.set(feature.id, candidate);
  }
  if (problems.length > 0) throw new ConfigError([...new Set(problems)]);
  return values;
}
