import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, dayFromToday, TEST_PASSWORD } from '../../test/realtime/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A route's URL with every parameter filled in: the access hook answers before params are validated. */
const sampleUrl = (url: string) => url.replace(/:[A-Za-z]+\??/g, '1').replace(/\*$/, 'x');

describe('the session of an expired company (docs/product/administration.md#expired-subscription)', () => {
  it('answers 402 and the due date on every route not marked allowExpired, and lets the marked ones through', async () => {
    const yesterday = dayFromToday(-1);
    const company = await createCompany(t, { dueDate: yesterday });
    const admin = await t.login(company.adminEmail, TEST_PASSWORD);
    const guarded = t.balcao.routes.routes.filter(
      (route) => route.config.access && route.config.access !== 'public' && !route.config.infra,
    );
    const allowed = guarded.filter((route) => route.config.allowExpired).map((route) => `${route.method} ${route.url}`);
    // what an expired company may use: its session, the plugin list, and billing's pay screen
    expect(allowed.sort()).toEqual([
      'GET /api/auth/me',
      'GET /api/invoices',
      'GET /api/invoices/:id',
      'GET /api/plugins',
      'GET /api/subscription',
      'GET /api/subscription/charges/:txid',
      // the demo's stand-in bank app pays from the same screen
      'POST /api/billing/demo/charges/:txid/pay',
      'POST /api/subscription',
    ]);
    const leaks: string[] = [];
    for (const route of guarded) {
      if (route.config.allowExpired) continue;
      const res = await t.inject({ method: route.method as 'GET', url: sampleUrl(route.url), token: admin.token });
      const body = res.json();
      if (res.statusCode !== 402 || body.error !== 'ERR_SUBSCRIPTION_EXPIRED' || body.dueDate !== yesterday) {
        leaks.push(`${route.method} ${route.url} → ${res.statusCode}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(guarded.length - allowed.length).toBeGreaterThan(100);

    for (const url of ['/api/auth/me', '/api/plugins', '/api/invoices', '/api/subscription']) {
      const res = await t.inject({ method: 'GET', url, token: admin.token });
      expect(res.statusCode, url).toBe(200);
    }
    const plugins = (await t.inject({ method: 'GET', url: '/api/plugins', token: admin.token })).json().plugins;
    expect(plugins.map((plugin: { id: string }) => plugin.id)).toContain('billing');
    const logout = await t.inject({
      method: 'DELETE',
      url: '/api/auth/logout',
      token: admin.token,
      headers: { cookie: admin.cookie },
    });
    expect(logout.statusCode).toBe(204);
  });

  it("keeps another company's invoices out of an expired session", async () => {
    const expired = await createCompany(t, { dueDate: dayFromToday(-3) });
    const other = await createCompany(t);
    const { knex } = t.balcao.core;
    const [invoice] = await knex('invoices')
      .insert({
        companyId: other.companyId,
        detail: 'Other',
        kind: 'oneoff',
        value: 10,
        users: 3,
        connections: 3,
        dueDate: dayFromToday(5),
      })
      .returning('id');
    const admin = await t.login(expired.adminEmail, TEST_PASSWORD);
    const res = await t.inject({ method: 'GET', url: `/api/invoices/${invoice.id}`, token: admin.token });
    expect(res.statusCode).toBe(404);
    const list = await t.inject({ method: 'GET', url: '/api/invoices', token: admin.token });
    expect(JSON.stringify(list.json())).not.toContain('"Other"');
  });

  it("gives an expired company's profile user the session, and billing's pay screen stays admin-only", async () => {
    const company = await createCompany(t, { dueDate: dayFromToday(-1) });
    const user = await t.login(company.userEmail, TEST_PASSWORD);
    expect((await t.inject({ method: 'GET', url: '/api/auth/me', token: user.token })).statusCode).toBe(200);
    const invoices = await t.inject({ method: 'GET', url: '/api/invoices', token: user.token });
    expect(invoices.statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: '/api/queue', token: user.token })).statusCode).toBe(402);
  });
});

describe("the server's verdict on expiry in the session answers", () => {
  it('login, refresh and /auth/me say expired by the server’s calendar: past due yes, due today no, super user never', async () => {
    const lapsed = await createCompany(t, { dueDate: dayFromToday(-1) });
    const dueToday = await createCompany(t, { dueDate: dayFromToday(0) });
    const cases: Array<[string, string, boolean]> = [
      [lapsed.adminEmail, TEST_PASSWORD, true],
      [dueToday.adminEmail, TEST_PASSWORD, false],
      ['super@balcao.test', 'demo1234', false],
    ];
    for (const [email, password, expired] of cases) {
      const session = await t.login(email, password);
      expect(session.user.expired, email).toBe(expired);
      const me = await t.inject({ method: 'GET', url: '/api/auth/me', token: session.token });
      expect(me.json().expired, email).toBe(expired);
      const refreshed = await t.inject({ method: 'POST', url: '/api/auth/refresh_token', headers: { cookie: session.cookie } });
      expect(refreshed.json().user.expired, email).toBe(expired);
    }
  });
});
