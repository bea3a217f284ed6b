import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { DEFAULT_COMPANY_SETTINGS } from '@balcao/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayFromToday } from '../../test/realtime/helpers';

/** POST /auth/signup (docs/product/administration.md#validation Signup): a company and its admin on a public plan, with a trial. */
let t: TestApp;
let publicPlanId: number;
let privatePlanId: number;
beforeAll(async () => {
  t = await createTestApp();
  publicPlanId = (await t.balcao.core.knex('plans').where({ name: 'Lite' }).first('id')).id;
  privatePlanId = (await t.balcao.core.knex('plans').where({ name: 'Plataforma' }).first('id')).id;
});
afterAll(async () => {
  await t.close();
});

let n = 0;
function form(overrides: Record<string, unknown> = {}) {
  n++;
  return {
    name: 'Nina Nova',
    email: `nina${n}@nova.test`,
    password: 'secret1',
    phone: '5511988887777',
    companyName: `Nova ${n}`,
    planId: publicPlanId,
    ...overrides,
  };
}

const signup = (payload: Record<string, unknown>) => t.inject({ method: 'POST', url: '/api/auth/signup', payload });

describe('POST /auth/signup', () => {
  it('creates the company on the public plan with a trial due date and the default settings, and its admin', async () => {
    const res = await signup(form({ email: 'Nina.Owner@Nova.TEST', companyName: '  Nova Ltda ', companyId: null }));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    const due = dayFromToday(t.config.trialDays);
    expect(body).toEqual({ companyId: expect.any(Number), userId: expect.any(Number), dueDate: due });

    const { knex } = t.balcao.core;
    const company = await knex('companies')
      .where({ id: body.companyId })
      .first('name', 'planId', 'status', knex.raw("to_char(due_date, 'YYYY-MM-DD') as due"), 'recurrence', 'email');
    expect(company).toMatchObject({
      name: 'Nova Ltda',
      planId: publicPlanId,
      status: true,
      due,
      recurrence: 'MENSAL',
      email: 'nina.owner@nova.test',
    });
    const user = await knex('users').where({ id: body.userId }).first('companyId', 'profile', 'super', 'name', 'email');
    expect(user).toEqual({
      companyId: body.companyId,
      profile: 'admin',
      super: false,
      name: 'Nina Nova',
      email: 'nina.owner@nova.test',
    });
    const settings = await knex('settings').where({ companyId: body.companyId }).select('key', 'value');
    expect(Object.fromEntries(settings.map((s) => [s.key, s.value]))).toEqual(DEFAULT_COMPANY_SETTINGS);

    // the new admin can log in (e-mail in any case) and sees the trial date in the session
    const session = await t.login('NINA.OWNER@nova.test', 'secret1');
    expect(session.user).toMatchObject({
      companyId: body.companyId,
      profile: 'admin',
      company: { name: 'Nova Ltda', dueDate: due },
    });
  });

  it('counts the trial in calendar days of the server time zone, like the expiry check does', async () => {
    // a zone where today's date differs from UTC's right now: a due date computed in UTC is a day off
    const zone = new Date().getUTCHours() < 10 ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati';
    const saved = process.env.TZ;
    process.env.TZ = zone;
    try {
      const localToday = dayFromToday(0);
      expect(localToday).not.toBe(new Date().toISOString().slice(0, 10));
      const res = await signup(form());
      expect(res.statusCode).toBe(201);
      expect(res.json().dueDate).toBe(dayFromToday(t.config.trialDays));
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('ignores a companyId in the body: a signup always makes a new company', async () => {
    const res = await signup(form({ companyId: t.demo.companies.acme }));
    expect(res.statusCode).toBe(201);
    expect(res.json().companyId).not.toBe(t.demo.companies.acme);
    const acmeUsers = await t.balcao.core.knex('users').where({ companyId: t.demo.companies.acme }).count({ n: '*' });
    expect(acmeUsers[0]?.n).toBe(2);
  });

  it('refuses a plan that is not public with ERR_PLAN_NOT_PUBLIC and an unknown plan with ERR_NO_PLAN_FOUND', async () => {
    const before = await t.balcao.core.knex('companies').count({ n: '*' });
    const hidden = await signup(form({ planId: privatePlanId }));
    expect(hidden.statusCode).toBe(400);
    expect(hidden.json()).toEqual({ error: 'ERR_PLAN_NOT_PUBLIC' });
    const missing = await signup(form({ planId: 987_654 }));
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'ERR_NO_PLAN_FOUND' });
    const after = await t.balcao.core.knex('companies').count({ n: '*' });
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('refuses an e-mail already in use, whatever its case, with 409 ERR_EMAIL_ALREADY_EXISTS', async () => {
    const res = await signup(form({ email: 'ADMIN@acme.test' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS' });
    const companies = await t.balcao.core.knex('companies').where({ email: 'admin@acme.test' }).count({ n: '*' });
    expect(companies[0]?.n).toBe(1);
  });

  it('makes one company of two signups with one e-mail at once; the other gets ERR_EMAIL_ALREADY_EXISTS', async () => {
    const email = `twice-${Date.now()}@race.test`;
    const both = await Promise.all([signup(form({ email })), signup(form({ email: email.toUpperCase() }))]);
    expect(both.map((res) => res.statusCode).sort()).toEqual([201, 409]);
    expect(both.find((res) => res.statusCode === 409)?.json()).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS' });
    const companies = await t.balcao.core.knex('companies').where({ email }).count({ n: '*' });
    expect(companies[0]?.n).toBe(1);
  });

  it('answers 400 ERR_VALIDATION listing every failing field', async () => {
    const res = await signup({
      name: 'N',
      email: 'not-an-email',
      password: '1234',
      companyName: 'x'.repeat(51),
      planId: 'one',
      surprise: true,
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('ERR_VALIDATION');
    const fields = new Set(body.details.map((d: { field: string }) => d.field));
    for (const field of [
      'body.name',
      'body.email',
      'body.password',
      'body.phone',
      'body.companyName',
      'body.planId',
      'body.surprise',
    ]) {
      expect(fields).toContain(field);
    }
  });

  it('refuses a password over 50 characters and a name over 50', async () => {
    const res = await signup(form({ password: 'p'.repeat(51), name: 'n'.repeat(51) }));
    expect(res.statusCode).toBe(400);
    const fields = res.json().details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['body.password', 'body.name']));
  });

  it('is refused with ERR_SIGNUP_DISABLED unless allowSignup of company 1 is enabled', async () => {
    const { settings } = t.balcao.core;
    expect(await settings.get(1, 'allowSignup')).toBe('enabled');
    await settings.set(1, 'allowSignup', 'disabled');
    try {
      const res = await signup(form());
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_SIGNUP_DISABLED' });
    } finally {
      await settings.set(1, 'allowSignup', 'enabled');
    }
    expect((await signup(form())).statusCode).toBe(201);
  });
});
