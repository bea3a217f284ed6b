import { currentTenant } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, TEST_PASSWORD } from '../../test/realtime/helpers';
import { ensureSettings } from './settings.service';

/** Company settings (docs/product/administration.md#entities Setting): read through the cached company state, kept true on write. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const settingsOf = (me: { company: { companieSettings: Array<{ key: string; value: string }> } }) =>
  Object.fromEntries(me.company.companieSettings.map((s) => [s.key, s.value]));

describe('settings service', () => {
  it('reads a company’s settings, and null for a key it lacks', async () => {
    const { settings } = t.balcao.core;
    const company = await createCompany(t);
    expect(await settings.get(company.companyId, 'userCreation')).toBe('enabled');
    expect(await settings.get(company.companyId, 'noSuchKey')).toBeNull();
    expect((await settings.all(company.companyId)).downloadLimit).toBe('64');
    expect(await settings.all(987_654)).toEqual({});
  });

  it('writes through at once: the session user and later reads see the new value, other companies keep theirs', async () => {
    const { settings } = t.balcao.core;
    const company = await createCompany(t);
    const other = await createCompany(t);
    const admin = await t.login(company.adminEmail, TEST_PASSWORD);
    // warm the caches first, so that a missing invalidation would show
    expect(await settings.get(company.companyId, 'userRating')).toBe('disabled');
    expect(await settings.get(other.companyId, 'userRating')).toBe('disabled');

    await settings.set(company.companyId, 'userRating', 'enabled');
    await settings.set(company.companyId, 'brandNewKey', 'x');
    expect(await settings.get(company.companyId, 'userRating')).toBe('enabled');
    expect(await settings.get(company.companyId, 'brandNewKey')).toBe('x');
    expect(await settings.get(other.companyId, 'userRating')).toBe('disabled');
    const me = await t.inject({ method: 'GET', url: '/api/auth/me', token: admin.token });
    expect(settingsOf(me.json())).toMatchObject({ userRating: 'enabled', brandNewKey: 'x' });
    const rows = await t.balcao.core.knex('settings').where({ companyId: company.companyId, key: 'userRating' });
    expect(rows).toHaveLength(1);
  });

  it('publishes settings.updated in the company’s tenant scope', async () => {
    const company = await createCompany(t);
    const seen: Array<{ payload: unknown; scope: number | undefined }> = [];
    const off = t.balcao.core.events.on('settings.updated', (payload) => {
      seen.push({ payload, scope: currentTenant()?.companyId });
    });
    try {
      await t.balcao.core.settings.set(company.companyId, 'chatBotType', 'button');
    } finally {
      off();
    }
    expect(seen).toEqual([
      { payload: { companyId: company.companyId, key: 'chatBotType', value: 'button' }, scope: company.companyId },
    ]);
  });

  it('ensureSettings adds what is missing and never overwrites', async () => {
    const company = await createCompany(t);
    const { knex, settings } = t.balcao.core;
    await settings.set(company.companyId, 'downloadLimit', '128');
    await ensureSettings(knex, company.companyId, { downloadLimit: '64', extraDefault: 'on' });
    await t.balcao.core.sessions.invalidateCompany(company.companyId);
    expect(await settings.get(company.companyId, 'downloadLimit')).toBe('128');
    expect(await settings.get(company.companyId, 'extraDefault')).toBe('on');
  });
});
