/**
 * A plugin's own plan flag (docs/plugin-authoring.md "The manifest"): the hello fixture declares `useHello`
 * with its labels. The plans API shows and edits it beside the ten, plans that never named it have it off,
 * a key no plugin declares is refused, and the core gates the plugin's routes and listing by it exactly as
 * by one of the ten.
 */
import { PLAN_FLAGS } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, TEST_PASSWORD } from '../realtime/helpers';
import { HELLO_FIXTURE } from '../walkers/lib/fixture-paths';

let t: TestApp;
let superUser: TestSession;
beforeAll(async () => {
  t = await createTestApp({ plugins: [HELLO_FIXTURE] });
  superUser = await t.login('super@balcao.test');
});
afterAll(async () => {
  await t.close();
});

const PLAN = { name: 'Hello only', users: 5, connections: 1, queues: 1, amount: 10 };

const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
  t.inject({ method, url: `/api${url}`, token, ...(payload ? { payload } : {}) });

describe("a plugin's own plan flag", () => {
  it('is listed with the plugin and its labels in four languages', async () => {
    const res = await call('GET', '/plans/flags', superUser.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      flags: [{ key: 'useHello', plugin: 'hello', label: { pt: 'Olá', en: 'Hello', es: 'Hola', tr: 'Merhaba' } }],
    });
  });

  it('is off on plans that never named it, and on for the demo plan with every feature', async () => {
    await t.balcao.core.knex('plans').insert({ name: 'Older plan', amount: 1, useKanban: true });
    const all = (await call('GET', '/plans/all', superUser.token)).json() as Array<{
      name: string;
      pluginFlags: Record<string, boolean>;
    }>;
    expect(all.find((plan) => plan.name === 'Older plan')?.pluginFlags).toEqual({ useHello: false });
    expect(all.find((plan) => plan.name === 'Lite')?.pluginFlags).toEqual({ useHello: false });
    expect(all.find((plan) => plan.name === 'Completo')?.pluginFlags).toEqual({ useHello: true });
  });

  it('is saved by POST and PUT, keeps the ten as they are, and gates the plugin for the plan’s companies', async () => {
    const created = await call('POST', '/plans', superUser.token, { ...PLAN, useKanban: true, pluginFlags: { useHello: true } });
    expect(created.statusCode).toBe(201);
    const plan = created.json() as Record<string, unknown> & { id: number };
    expect(plan.pluginFlags).toEqual({ useHello: true });
    for (const flag of PLAN_FLAGS) expect(plan[flag]).toBe(flag === 'useKanban');

    const company = await createCompany(t, { flags: { useHello: false } });
    await t.balcao.core.knex('companies').where({ id: company.companyId }).update({ planId: plan.id });
    await t.balcao.core.sessions.invalidateCompany(company.companyId);
    const admin = await t.login(company.adminEmail, TEST_PASSWORD);
    const notes = () => call('GET', '/hello-notes', admin.token);
    const listed = async () =>
      ((await call('GET', '/plugins', admin.token)).json().plugins as Array<{ id: string }>).map((p) => p.id);
    expect((await notes()).statusCode).toBe(200);
    expect(await listed()).toContain('hello');
    const companyPlan = await call('GET', `/companies/listPlan/${company.companyId}`, admin.token);
    expect(companyPlan.json().plan.pluginFlags).toEqual({ useHello: true });

    // a body that leaves the flag out turns it off, like the ten; the plan's companies see it at once
    const updated = await call('PUT', `/plans/${plan.id}`, superUser.token, { ...PLAN, useKanban: true });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().pluginFlags).toEqual({ useHello: false });
    const refused = await notes();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED' });
    expect(await listed()).not.toContain('hello');
    expect(await t.balcao.core.plans.has(company.companyId, 'useHello')).toBe(false);

    const back = await call('PUT', `/plans/${plan.id}`, superUser.token, { ...PLAN, pluginFlags: { useHello: true } });
    expect(back.json()).toMatchObject({ useKanban: false, pluginFlags: { useHello: true } });
    expect((await notes()).statusCode).toBe(200);
  });

  it('keeps the flags of plugins not loaded now when a plan is saved', async () => {
    const [row] = await t.balcao.core
      .knex('plans')
      .insert({ name: 'With a removed plugin', amount: 1, pluginFlags: JSON.stringify({ useGone: true }) })
      .returning('id');
    const res = await call('PUT', `/plans/${row.id}`, superUser.token, { ...PLAN, name: 'With a removed plugin' });
    expect(res.statusCode).toBe(200);
    expect(res.json().pluginFlags).toEqual({ useHello: false });
    const stored = await t.balcao.core.knex('plans').where({ id: row.id }).first('pluginFlags');
    expect(stored.pluginFlags).toEqual({ useGone: true, useHello: false });
  });

  it('refuses a flag no loaded plugin declares, and the ten under pluginFlags', async () => {
    for (const key of ['useNothing', 'useKanban']) {
      const res = await call('POST', '/plans', superUser.token, { ...PLAN, name: `Bad ${key}`, pluginFlags: { [key]: true } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_UNKNOWN_PLAN_FLAG' });
    }
    const wrongType = await call('POST', '/plans', superUser.token, {
      ...PLAN,
      name: 'Bad type',
      pluginFlags: { useHello: 'yes' },
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    expect(await t.balcao.core.knex('plans').where('name', 'like', 'Bad %').count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('is for super users only', async () => {
    const acme = await t.login('admin@acme.test');
    expect((await call('GET', '/plans/flags', acme.token)).statusCode).toBe(403);
  });
});
