import { spawn } from 'node:child_process';
import path from 'node:path';
import { Type } from '@balcao/plugin-sdk/server';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadFeatureConfigs, REPO_ROOT } from './config';
import { discoverPlugins } from './plugins/discover';
import { importDefinitions } from './plugins/loader';

/** loadFeatureConfigs' problems for an environment (the features declare what they read). */
function problemsOf(features: Parameters<typeof loadFeatureConfigs>[0], env: NodeJS.ProcessEnv): string[] {
  try {
    loadFeatureConfigs(features, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('loadFeatureConfigs accepted the environment');
}

const demo = {
  id: 'demo',
  config: {
    DEMO_BATCH: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
    DEMO_MODE: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on' }),
    DEMO_FLAG: Type.Boolean({ default: false }),
    DEMO_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
    DEMO_TOKEN: Type.String({ minLength: 8 }),
  },
};

describe('loadFeatureConfigs', () => {
  it('fills defaults and converts what is set to the declared types', () => {
    const values = loadFeatureConfigs([demo], { DEMO_TOKEN: 'abcdefgh', DEMO_BATCH: '42', DEMO_FLAG: 'true', DEMO_URL: '' });
    expect(values.get('demo')).toEqual({ DEMO_TOKEN: 'abcdefgh', DEMO_BATCH: 42, DEMO_MODE: 'on', DEMO_FLAG: true });
  });

  it('reports every bad variable at once, each by name', () => {
    const problems = problemsOf([demo], { DEMO_BATCH: 'abc', DEMO_MODE: 'maybe', DEMO_FLAG: 'yes', DEMO_URL: 'ftp://x' });
    expect(problems).toEqual([
      "DEMO_BATCH must be integer (got 'abc')",
      "DEMO_MODE must be one of on, off (got 'maybe')",
      "DEMO_FLAG must be boolean (got 'yes')",
      `DEMO_URL must match pattern "^https?://" (got 'ftp://x')`,
      'DEMO_TOKEN is required (demo)',
    ]);
    expect(problemsOf([demo], { DEMO_TOKEN: 'abcdefgh', DEMO_BATCH: '0' })).toEqual(["DEMO_BATCH must be >= 1 (got '0')"]);
    expect(problemsOf([demo], { DEMO_TOKEN: 'abcdefgh', DEMO_BATCH: '2.5' })).toEqual(["DEMO_BATCH must be integer (got '2.5')"]);
  });

  it("refuses a feature variable that is the core's, another feature's or not upper case", () => {
    const problems = problemsOf(
      [
        { id: 'a', config: { PORT: Type.Integer({ default: 1 }), A_SIZE: Type.Integer({ default: 1 }) } },
        { id: 'b', config: { A_SIZE: Type.Integer({ default: 1 }), lower: Type.Integer({ default: 1 }) } },
      ],
      {},
    );
    expect(problems).toEqual([
      "a: variable PORT is the core's",
      'b: variable A_SIZE is already declared by a',
      "b: variable 'lower' must be upper case (A-Z, 0-9, _)",
    ]);
  });

  it("validates the repository's features as declared: their defaults pass, a bad value is named", async () => {
    const definitions = (await importDefinitions(discoverPlugins([]))).map(({ definition }) => definition);
    const values = loadFeatureConfigs(definitions, {});
    expect(values.get('campaigns')).toEqual({
      CAMPAIGN_LANES: 2,
      CAMPAIGN_BATCH: 200,
      CAMPAIGN_LEASE_MS: 30_000,
      CAMPAIGN_DISPATCHER: 'on',
    });
    expect(values.get('channels')).toMatchObject({ WHATSAPP_SENDS_PER_SECOND: 10, WHATSAPP_LEASE_TTL_MS: 30_000 });
    expect(values.get('admin')).toEqual({ ADMIN_ROTATION_MINUTE_MS: 60_000 });
    expect(values.get('kanban')).toEqual({ KANBAN_DEMO_PORT: 8090 });
    expect(values.get('channels')).toMatchObject({ WEBCHAT_DEMO_PORT: 8091 });
    expect(problemsOf(definitions, { CAMPAIGN_BATCH: 'abc', WHATSAPP_VERSION: 'latest' }).sort()).toEqual([
      "CAMPAIGN_BATCH must be integer (got 'abc')",
      `WHATSAPP_VERSION must match pattern "^\\d+[.,]\\d+[.,]\\d+$" (got 'latest')`,
    ]);
  });
});

describe("a feature's own checks (definePlugin({ checkConfig }))", () => {
  const paired = {
    id: 'paired',
    config: { PAIRED_MODE: Type.Optional(Type.String()), PAIRED_KEY: Type.Optional(Type.String()) },
    checkConfig: (config: { PAIRED_MODE?: string; PAIRED_KEY?: string }) =>
      config.PAIRED_MODE === 'remote' && !config.PAIRED_KEY ? ['PAIRED_KEY is required when PAIRED_MODE=remote'] : [],
  };

  it('reports its problems beside the schema checks, and runs only on values the schema accepts', () => {
    expect(problemsOf([paired], { PAIRED_MODE: 'remote' })).toEqual(['PAIRED_KEY is required when PAIRED_MODE=remote (paired)']);
    expect(loadFeatureConfigs([paired], { PAIRED_MODE: 'remote', PAIRED_KEY: 'k' }).get('paired')).toEqual({
      PAIRED_MODE: 'remote',
      PAIRED_KEY: 'k',
    });
    expect(problemsOf([paired, demo], { PAIRED_MODE: 'remote' })).toEqual([
      'PAIRED_KEY is required when PAIRED_MODE=remote (paired)',
      'DEMO_TOKEN is required (demo)',
    ]);
  });

  it('hands each check the NODE_ENV of the environment it loads, not of this process', async () => {
    const seen: string[] = [];
    const watcher = {
      id: 'watcher',
      config: {},
      checkConfig: (_config: object, platform: { env: string }) => {
        seen.push(platform.env);
        return [];
      },
    };
    loadFeatureConfigs([watcher], { NODE_ENV: 'production' });
    loadFeatureConfigs([watcher], {});
    expect(seen).toEqual(['production', 'development']);
    // billing's stand-in gateway is refused by the environment being loaded (this process runs as test)
    const billing = (await importDefinitions(discoverPlugins([])))
      .map(({ definition }) => definition)
      .filter((d) => d.id === 'billing');
    expect(problemsOf(billing, { NODE_ENV: 'production', BILLING_GATEWAY: 'efi-standin' })).toEqual([
      'BILLING_GATEWAY=efi-standin is for the demo and tests, not production (billing)',
    ]);
    expect(loadFeatureConfigs(billing, { NODE_ENV: 'test', BILLING_GATEWAY: 'efi-standin' }).get('billing')).toMatchObject({
      BILLING_GATEWAY: 'efi-standin',
    });
  });

  it('stops the start when a configured Meta app has no valid META_SECRETS_KEY in production', async () => {
    const meta = (await importDefinitions(discoverPlugins([])))
      .map(({ definition }) => definition)
      .filter((d) => d.id === 'meta');
    const app = { META_APP_ID: '100200300', META_APP_SECRET: 'app-secret-1', META_VERIFY_TOKEN: 'verify-token' };
    const load = (env: Record<string, string>) => () => loadFeatureConfigs(meta, env);
    expect(load({ ...app, NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(problemsOf(meta, { ...app, NODE_ENV: 'production' }).join('\n')).toMatch(/META_SECRETS_KEY is required in production/);
    expect(problemsOf(meta, { ...app, NODE_ENV: 'production', META_SECRETS_KEY: 'short' }).join('\n')).toMatch(
      /META_SECRETS_KEY must match pattern/,
    );
    expect(load({ ...app, NODE_ENV: 'production', META_SECRETS_KEY: 'ab'.repeat(32) })).not.toThrow();
    // without the app the channels are off: no key needed; outside production the development key serves
    expect(load({ NODE_ENV: 'production' })).not.toThrow();
    expect(load({ ...app, NODE_ENV: 'development' })).not.toThrow();
  });
});

describe('the start', () => {
  it("stops with exit code 78 naming the core's and the features' bad variables together", async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'server', 'src', 'main.ts')], {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_ENV: 'development', PORT: 'eighty', CAMPAIGN_BATCH: 'abc', WHATSAPP_LEASE_TTL_MS: '5' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).toContain('Invalid configuration:');
    expect(stderr).toContain("PORT must be an integer (got 'eighty')");
    expect(stderr).toContain("CAMPAIGN_BATCH must be integer (got 'abc')");
    expect(stderr).toContain("WHATSAPP_LEASE_TTL_MS must be >= 1000 (got '5')");
    expect(code).toBe(78);
  }, 60_000);

  it('stops with exit code 78 for BILLING_GATEWAY=efi without its settings, naming each', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'server', 'src', 'main.ts')], {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_ENV: 'development', BILLING_GATEWAY: 'efi', EFI_PIX_KEY: 'pix@balcao.test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    for (const name of ['EFI_CLIENT_ID', 'EFI_CLIENT_SECRET', 'EFI_CERTIFICATE', 'EFI_WEBHOOK_SECRET']) {
      expect(stderr).toContain(`${name} is required when BILLING_GATEWAY=efi (billing)`);
    }
    expect(stderr).not.toContain('EFI_PIX_KEY is required');
    expect(code).toBe(78);
  }, 60_000);
});
