import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

/** loadConfig: every problem of the environment at once, each naming the variable to fix. */
function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('loadConfig', () => {
  it('has working defaults for development', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      role: 'all',
      port: 8080,
      apiPrefix: '/api',
      accessTokenTtlSeconds: 900,
      refreshTokenTtlDays: 30,
      trialDays: 7,
      logLevel: 'info',
    });
    expect(config.databaseUrl).toMatch(/^postgres:\/\//);
    expect(config.redisUrl).toMatch(/^redis:\/\//);
    // a throwaway secret outside production, long enough for HS256
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({}).jwtSecret).not.toBe(config.jwtSecret);
  });

  it('reads the outbound allow-list and names an entry that is no address or range', () => {
    expect(loadConfig({}).outboundHttpAllow).toEqual([]);
    expect(loadConfig({ OUTBOUND_HTTP_ALLOW: ' 127.0.0.1/32, 10.0.0.0/8 ,fd00::/8' }).outboundHttpAllow).toEqual([
      '127.0.0.1/32',
      '10.0.0.0/8',
      'fd00::/8',
    ]);
    expect(problemsOf({ OUTBOUND_HTTP_ALLOW: '127.0.0.1,intranet' })).toEqual([
      "OUTBOUND_HTTP_ALLOW: 'intranet' is no IP address or CIDR range",
    ]);
  });

  it('reads the environment', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 's'.repeat(40),
      PORT: '3000',
      ROLE: 'worker',
      DATABASE_URL: 'postgresql://db.internal:5432/balcao',
      REDIS_URL: 'rediss://cache.internal:6380',
      BALCAO_PLUGINS: ' ./a, @acme/b ,,',
      TRUST_PROXY: 'true',
      ACCESS_TOKEN_TTL_SECONDS: '60',
    });
    expect(config).toMatchObject({
      env: 'production',
      port: 3000,
      role: 'worker',
      databaseUrl: 'postgresql://db.internal:5432/balcao',
      redisUrl: 'rediss://cache.internal:6380',
      extraPlugins: ['./a', '@acme/b'],
      trustProxy: true,
      accessTokenTtlSeconds: 60,
      jwtSecret: 's'.repeat(40),
      publicUrl: 'http://localhost:3000',
    });
  });

  it('reports every problem at once, each naming its environment variable', () => {
    const problems = problemsOf({
      PORT: 'abc',
      DATABASE_URL: 'mysql://db/balcao',
      REDIS_URL: 'http://cache',
      ROLE: 'boss',
      LOG_LEVEL: 'loud',
      ACCESS_TOKEN_TTL_SECONDS: '5',
      TRIAL_DAYS: '-1',
      API_PREFIX: 'api',
      PUBLIC_URL: 'ftp://x',
      LOGIN_MAX_PER_IP: 'ten',
    });
    const text = problems.join('\n');
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'REDIS_URL',
      'ROLE',
      'LOG_LEVEL',
      'ACCESS_TOKEN_TTL_SECONDS',
      'TRIAL_DAYS',
      'API_PREFIX',
      'PUBLIC_URL',
      'LOGIN_MAX_PER_IP',
    ]) {
      expect(text).toMatch(new RegExp(`^${name} `, 'm'));
    }
    expect(text).toContain("PORT must be an integer (got 'abc')");
    expect(text).toContain('mysql://db/balcao');
    // the message of the thrown error lists them too, for the log of a process that won't start
    expect(() => loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x' })).toThrow(/PORT[\s\S]*DATABASE_URL/);
  });

  it('names the allowed values of a choice, once, instead of ajv’s "must be equal to constant"', () => {
    const problems = problemsOf({ ROLE: 'boss', LOG_LEVEL: 'loud', SMTP_URL: 'http://mail' });
    expect(problems).toEqual([
      'ROLE must be one of web, worker, all (got "boss")',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
      'SMTP_URL must match pattern "^smtps?://" (got "http://mail")',
    ]);
  });

  it('refuses a switch that is neither true nor false, and an unknown NODE_ENV, instead of guessing', () => {
    const problems = problemsOf({ TRUST_PROXY: 'yes', MIGRATE_ON_START: 'no', NODE_ENV: 'staging' });
    expect(problems).toEqual([
      "NODE_ENV must be one of development, test, production (got 'staging')",
      "TRUST_PROXY must be true or false (got 'yes')",
      "MIGRATE_ON_START must be true or false (got 'no')",
    ]);
    expect(loadConfig({ TRUST_PROXY: '1', MIGRATE_ON_START: 'false' })).toMatchObject({
      trustProxy: true,
      migrateOnStart: false,
    });
    expect(loadConfig({ TRUST_PROXY: 'false', MIGRATE_ON_START: '' })).toMatchObject({ trustProxy: false, migrateOnStart: true });
  });

  it('refuses a port out of range', () => {
    expect(problemsOf({ PORT: '70000' }).join('\n')).toMatch(/^PORT must be <= 65535/m);
  });

  it('requires JWT_SECRET in production, and a long one', () => {
    expect(problemsOf({ NODE_ENV: 'production' }).join('\n')).toContain('JWT_SECRET is required in production');
    expect(problemsOf({ NODE_ENV: 'production', JWT_SECRET: 'short' }).join('\n')).toMatch(
      /^JWT_SECRET must NOT have fewer than 32/m,
    );
    expect(problemsOf({ JWT_SECRET: 'short' }).join('\n')).toMatch(/^JWT_SECRET /m);
    expect(loadConfig({ NODE_ENV: 'production' }, { jwtSecret: 'x'.repeat(32) }).jwtSecret).toBe('x'.repeat(32));
  });

  it('never echoes a secret in a problem: not the JWT secret, not the password of a URL', () => {
    const secret = 'tooshort-but-secret';
    const text = problemsOf({
      JWT_SECRET: secret,
      DATABASE_URL: 'mysql://balcao:db-pa55word@db/balcao',
      REDIS_URL: 'http://default:redis-pa55word@cache:6379',
    }).join('\n');
    expect(text).toMatch(/^JWT_SECRET .*19 characters/m);
    expect(text).toContain('mysql://balcao:***@db/balcao');
    for (const leaked of [secret, 'db-pa55word', 'redis-pa55word']) expect(text).not.toContain(leaked);
  });

  it('stores files on disk by default, and in a bucket with STORAGE_DRIVER=s3 and its credentials', () => {
    expect(loadConfig({})).toMatchObject({
      storageDriver: 'local',
      s3Bucket: null,
      s3Region: 'us-east-1',
      s3ForcePathStyle: false,
    });
    expect(
      loadConfig({
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: 'http://minio.internal:9000',
        S3_BUCKET: 'balcao-media',
        S3_REGION: 'sa-east-1',
        S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
        S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG',
        S3_FORCE_PATH_STYLE: 'true',
      }),
    ).toMatchObject({
      storageDriver: 's3',
      s3Endpoint: 'http://minio.internal:9000',
      s3Bucket: 'balcao-media',
      s3Region: 'sa-east-1',
      s3AccessKeyId: 'AKIDEXAMPLE',
      s3ForcePathStyle: true,
    });
  });

  it('names each missing or wrong S3 variable at start, never echoing the secret key', () => {
    expect(problemsOf({ STORAGE_DRIVER: 's3' })).toEqual([
      'S3_BUCKET is required when STORAGE_DRIVER is s3',
      'S3_ACCESS_KEY_ID is required when STORAGE_DRIVER is s3',
      'S3_SECRET_ACCESS_KEY is required when STORAGE_DRIVER is s3',
    ]);
    const problems = problemsOf({
      STORAGE_DRIVER: 'gcs',
      S3_ENDPOINT: 'minio:9000',
      S3_BUCKET: 'Bad_Bucket',
      S3_SECRET_ACCESS_KEY: 'short',
      S3_FORCE_PATH_STYLE: 'yes',
    }).join('\n');
    for (const name of [
      'STORAGE_DRIVER must be one of local, s3',
      'S3_ENDPOINT',
      'S3_BUCKET',
      'S3_SECRET_ACCESS_KEY',
      'S3_FORCE_PATH_STYLE',
    ]) {
      expect(problems).toContain(name);
    }
    expect(problems).toMatch(/^S3_SECRET_ACCESS_KEY .*5 characters/m);
    expect(problems).not.toContain('short');
  });

  it('lets overrides win over the environment (tests use them)', () => {
    const config = loadConfig({ PORT: '1234', NODE_ENV: 'test' }, { port: 0, redisPrefix: 'bt123' });
    expect(config).toMatchObject({ port: 0, redisPrefix: 'bt123', env: 'test', logLevel: 'silent' });
  });
});
