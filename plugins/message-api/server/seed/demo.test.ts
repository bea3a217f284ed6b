import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMessageApiDemo } from './demo';

/** The demo's `/messages-api` page lists Acme's keys: one active, one revoked. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoData: true });
});
afterAll(async () => {
  await t?.close();
});

describe('the message API demo', () => {
  it('gives Acme an active and a revoked key, once', async () => {
    const admin = await t.login('admin@acme.test');
    const keys = async () =>
      (await t.inject({ method: 'GET', url: '/api/api-keys', token: admin.token })).json().apiKeys as Array<{
        name: string;
        revokedAt: string | null;
        hint: string;
      }>;
    const listed = await keys();
    expect(listed.map((key) => [key.name, key.revokedAt === null]).sort()).toEqual([
      ['ERP da loja (demo)', true],
      ['Integração antiga (demo)', false],
    ]);
    expect(listed.every((key) => key.hint.startsWith('blc_'))).toBe(true);
    const plugin = t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'message-api');
    await seedMessageApiDemo(plugin?.ctx as never, { companies: t.demo.companies });
    expect(await keys()).toHaveLength(2);
  });
});
