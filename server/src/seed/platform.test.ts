import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { createSuperUser, SuperUserRefused } from '@balcao/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  // an installation without the demo: no company, no user
  t = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t.close();
});

const PASSWORD = 'a long enough secret';
const create = (input: Partial<{ email: string; name: string; password: string }>) =>
  createSuperUser(t.balcao.core.knex, {
    email: 'Ops@Example.com',
    name: 'Operações',
    password: PASSWORD,
    passwordHashCost: t.config.passwordHashCost,
    ...input,
  });

describe('createSuperUser (npm run create-super-user)', () => {
  it('refuses a malformed e-mail, a short name and a short password, and writes nothing', async () => {
    await expect(create({ email: 'not-an-email' })).rejects.toThrow(SuperUserRefused);
    await expect(create({ name: 'O' })).rejects.toThrow(/2 to 50 characters/);
    await expect(create({ password: 'short' })).rejects.toThrow(/12 to 50 characters/);
    expect(await t.balcao.core.knex('users').count({ n: '*' }).first()).toMatchObject({ n: 0 });
    expect(await t.balcao.core.knex('companies').count({ n: '*' }).first()).toMatchObject({ n: 0 });
  });

  it('makes the platform company and a super user who logs in and sees the companies', async () => {
    const { userId, companyId } = await create({});
    expect(companyId).toBe(1);
    const company = await t.balcao.core.knex('companies').where({ id: 1 }).first('dueDate', 'status');
    expect(company.status).toBe(true);

    const session = await t.login('ops@example.com', PASSWORD);
    expect(session.user).toMatchObject({ id: userId, email: 'ops@example.com', super: true, profile: 'admin' });
    const companies = await t.inject({ method: 'GET', url: '/api/companies/list', token: session.token });
    expect(companies.statusCode).toBe(200);

    // the next company made through the API gets its own id, not the platform's
    const plan = await t.balcao.core.knex('plans').where({ name: 'Plataforma' }).first('id');
    const next = await t.balcao.core
      .knex('companies')
      .insert({ name: 'Next', planId: plan.id, dueDate: '2030-01-01' })
      .returning('id');
    expect(next[0].id).toBeGreaterThan(1);
  });

  it('never changes an existing user: the same e-mail again is refused', async () => {
    await expect(create({ email: ' OPS@example.com', password: 'another long secret' })).rejects.toThrow(/already exists/);
    // the first password still works
    expect((await t.login('ops@example.com', PASSWORD)).user.super).toBe(true);
  });
});
