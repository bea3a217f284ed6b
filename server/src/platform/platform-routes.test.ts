import { PLAN_FLAGS } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, TEST_PASSWORD } from '../../test/realtime/helpers';

/** Version, plans, a company's plan, public settings, the plugin list and the plan gate (docs/product/tickets-and-inbox.md#calls-and-realtime-events, #constants-and-limits). */
let t: TestApp;
let acme: TestSession;
let lite: TestSession;
let superUser: TestSession;
beforeAll(async () => {
  t = await createTestApp({ plugins: ['server/test/fixtures/hello-plugin'] });
  acme = await t.login('admin@acme.test');
  lite = await t.login('admin@lite.test');
  superUser = await t.login('super@balcao.test');
});
afterAll(async () => {
  await t.close();
});

describe('GET /version', () => {
  it('answers 4.2.0 without a session', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/version' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ version: '4.2.0' });
  });
});

describe('GET /plans/list', () => {
  it('lists only public plans, with their limits and use* flags, without a session', async () => {
    await t.balcao.core.knex('plans').insert({ name: 'Secret Enterprise', isPublic: false, amount: 999 });
    const res = await t.inject({ method: 'GET', url: '/api/plans/list' });
    expect(res.statusCode).toBe(200);
    const plans = res.json() as Array<Record<string, unknown>>;
    expect(plans.map((p) => p.name)).toEqual(['Lite', 'Completo']);
    expect(plans.every((p) => p.isPublic === true)).toBe(true);
    const completo = plans.find((p) => p.name === 'Completo');
    expect(completo).toMatchObject({ users: 20, connections: 10, queues: 20, amount: '199.90' });
    for (const flag of PLAN_FLAGS) expect(completo?.[flag]).toBe(true);
  });
});

describe('GET /companies/listPlan/:companyId', () => {
  it("answers the session's own company with its plan and flags", async () => {
    const res = await t.inject({ method: 'GET', url: `/api/companies/listPlan/${t.demo.companies.lite}`, token: lite.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: t.demo.companies.lite, name: 'Lite', plan: { name: 'Lite', isPublic: true } });
    for (const flag of PLAN_FLAGS) expect(body.plan[flag]).toBe(false);
  });

  it("refuses another company's plan with 403 ERR_NO_PERMISSION", async () => {
    const res = await t.inject({ method: 'GET', url: `/api/companies/listPlan/${t.demo.companies.acme}`, token: lite.token });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(res.body).not.toContain('Completo');
  });

  it('lets the super user read any company, and answers 404 for one that does not exist', async () => {
    const res = await t.inject({
      method: 'GET',
      url: `/api/companies/listPlan/${t.demo.companies.acme}`,
      token: superUser.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: t.demo.companies.acme, plan: { name: 'Completo' } });
    const missing = await t.inject({ method: 'GET', url: '/api/companies/listPlan/999999', token: superUser.token });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'ERR_NO_COMPANY_FOUND' });
  });

  it('needs a session, and a numeric id', async () => {
    const anonymous = await t.inject({ method: 'GET', url: `/api/companies/listPlan/${t.demo.companies.acme}` });
    expect(anonymous.statusCode).toBe(401);
    const bad = await t.inject({ method: 'GET', url: '/api/companies/listPlan/abc', token: acme.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('ERR_VALIDATION');
  });
});

describe('GET /public-settings/:key', () => {
  it('answers whitelisted platform settings of company 1 as JSON strings, without a session', async () => {
    const allow = await t.inject({ method: 'GET', url: '/api/public-settings/allowSignup' });
    expect(allow.statusCode).toBe(200);
    expect(allow.headers['content-type']).toMatch(/^application\/json/);
    expect(allow.json()).toBe('enabled');
    const color = await t.inject({ method: 'GET', url: '/api/public-settings/primaryColorLight' });
    expect(color.json()).toBe('#0000FF');
  });

  it('follows a change of the platform setting at once', async () => {
    await t.balcao.core.settings.set(1, 'appName', 'Balcão Demo');
    const res = await t.inject({ method: 'GET', url: '/api/public-settings/appName' });
    expect(res.json()).toBe('Balcão Demo');
  });

  it('answers 404 ERR_NO_SETTING_FOUND for any other key, even one company 1 has', async () => {
    expect(await t.balcao.core.settings.get(1, 'userCreation')).toBe('enabled');
    for (const key of ['userCreation', 'lgpdMessage', 'jwtSecret', 'nope']) {
      const res = await t.inject({ method: 'GET', url: `/api/public-settings/${key}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_SETTING_FOUND' });
    }
  });
});

describe('GET /plugins', () => {
  it('lists the fixture plugin for a company whose plan has its flag, with its version and flag', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/plugins', token: acme.token });
    expect(res.statusCode).toBe(200);
    const hello = res.json().plugins.find((p: { id: string }) => p.id === 'hello');
    expect(hello).toMatchObject({ id: 'hello', version: '1.2.3', planFlag: 'useHello' });
  });

  it('leaves it out for a company whose plan lacks the flag', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/plugins', token: lite.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().plugins.map((p: { id: string }) => p.id)).not.toContain('hello');
  });

  it('needs a session', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/plugins' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'ERR_UNAUTHENTICATED' });
  });
});

describe('plan gate', () => {
  it("refuses a plugin's routes with 403 ERR_PLAN_FEATURE_DISABLED without the flag, serves them with it", async () => {
    const refused = await t.inject({ method: 'GET', url: '/api/hello-notes', token: lite.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED' });
    const refusedPost = await t.inject({ method: 'POST', url: '/api/hello-notes', token: lite.token, payload: { text: 'x' } });
    expect(refusedPost.statusCode).toBe(403);
    expect(await t.balcao.core.knex('helloNotes').where({ companyId: t.demo.companies.lite }).count({ n: '*' })).toEqual([
      { n: 0 },
    ]);
    const served = await t.inject({ method: 'GET', url: '/api/hello-notes', token: acme.token });
    expect(served.statusCode).toBe(200);
    expect(served.json()).toEqual({ notes: expect.any(Array) });
  });

  it('checks authentication before the plan: no token is 401, not 403', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/hello-notes' });
    expect(res.statusCode).toBe(401);
  });

  it('follows a plan flag flipped at runtime once the core invalidates the plan (and every process drops it)', async () => {
    const company = await createCompany(t, { flags: { useHello: false } });
    const admin = await t.login(company.adminEmail, TEST_PASSWORD);
    const { knex, sessions } = t.balcao.core;
    const notes = () => t.inject({ method: 'GET', url: '/api/hello-notes', token: admin.token });
    const plugins = async () =>
      (await t.inject({ method: 'GET', url: '/api/plugins', token: admin.token }))
        .json()
        .plugins.map((p: { id: string }) => p.id);
    expect((await notes()).statusCode).toBe(403);
    expect(await plugins()).not.toContain('hello');

    await knex('plans')
      .where({ id: company.planId })
      .update({ pluginFlags: JSON.stringify({ useHello: true }) });
    // plan flags are cached per company: the write alone is not seen …
    expect((await notes()).statusCode).toBe(403);
    // … the invalidation is what makes it take effect
    await sessions.invalidatePlan(company.planId);
    expect((await notes()).statusCode).toBe(200);
    expect(await plugins()).toContain('hello');
    expect(await t.balcao.core.plans.has(company.companyId, 'useHello')).toBe(true);

    // moving the company to a plan without the flag takes effect with invalidateCompany
    const liteOnly = await knex('plans').where({ name: 'Lite' }).first('id');
    await knex('companies').where({ id: company.companyId }).update({ planId: liteOnly.id });
    await sessions.invalidateCompany(company.companyId);
    const off = await notes();
    expect(off.statusCode).toBe(403);
    expect(off.json()).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED' });
    expect(await plugins()).not.toContain('hello');
  });
});
