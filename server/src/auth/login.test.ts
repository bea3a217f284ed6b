import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { DEFAULT_COMPANY_SETTINGS, hashPassword } from '@balcao/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, dayFromToday, expiredAccessToken, familyOf, TEST_PASSWORD } from '../../test/realtime/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const login = (payload: Record<string, unknown>, remoteAddress?: string) =>
  t.inject({ method: 'POST', url: '/api/auth/login', payload, ...(remoteAddress ? { remoteAddress } : {}) });

function setCookieOf(res: { headers: Record<string, unknown> }): string {
  const header = res.headers['set-cookie'];
  return Array.isArray(header) ? header.join('\n') : String(header ?? '');
}

describe('POST /auth/login', () => {
  it('trims and lowercases the e-mail and answers a token, the session user and an httpOnly refresh cookie', async () => {
    const res = await login({ email: '\tAgent@ACME.test  ', password: 'demo1234' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ id: t.demo.users.acmeAgent, email: 'agent@acme.test', profile: 'user' });
    expect(t.balcao.core.tokens.readAccessToken(body.token)).toMatchObject({
      userId: t.demo.users.acmeAgent,
      companyId: t.demo.companies.acme,
    });
    expect(setCookieOf(res)).toMatch(/^jrt=[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}; Path=\/api\/auth; HttpOnly; SameSite=Strict/);
  });

  it('refuses a wrong password and an unknown e-mail with the same 401 ERR_INVALID_CREDENTIALS', async () => {
    const wrong = await login({ email: 'admin@lite.test', password: 'not-the-password' });
    const unknown = await login({ email: 'nobody@nowhere.test', password: 'demo1234' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS' });
    expect(unknown.json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS' });
    expect(setCookieOf(wrong)).toBe('');
  });

  it('gives a persistent cookie (Max-Age) with remember, a browser-session cookie without', async () => {
    const remembered = await login({ email: 'admin@lite.test', password: 'demo1234', remember: true });
    expect(remembered.statusCode).toBe(200);
    const days = t.config.refreshTokenTtlDays;
    expect(setCookieOf(remembered)).toContain(`Max-Age=${days * 86_400}`);
    const persistentRow = await t.balcao.core
      .knex('refreshTokens')
      .where({ familyId: familyOf(t, remembered.json().token) })
      .first('persistent', 'expiresAt');
    expect(persistentRow.persistent).toBe(true);
    expect(new Date(persistentRow.expiresAt).getTime() - Date.now()).toBeGreaterThan((days - 1) * 86_400_000);

    const session = await login({ email: 'admin@lite.test', password: 'demo1234' });
    expect(session.statusCode).toBe(200);
    expect(setCookieOf(session)).not.toMatch(/Max-Age|Expires/i);
    const sessionRow = await t.balcao.core
      .knex('refreshTokens')
      .where({ familyId: familyOf(t, session.json().token) })
      .first('persistent', 'expiresAt');
    expect(sessionRow.persistent).toBe(false);
    // a browser-session cookie still ends server-side within a day
    expect(new Date(sessionRow.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
  });

  it('refuses the users of an inactive company with 403 ERR_COMPANY_INACTIVE', async () => {
    const company = await createCompany(t, { status: false });
    const res = await login({ email: company.adminEmail, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_COMPANY_INACTIVE' });
  });

  it('refuses a wrong password of an inactive company as bad credentials (no hint the account exists)', async () => {
    const company = await createCompany(t, { status: false });
    const res = await login({ email: company.adminEmail, password: 'wrong-password' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS' });
  });

  it('logs a company past its due date in on a session that answers 402 and the due date outside the pay screen', async () => {
    const yesterday = dayFromToday(-1);
    const company = await createCompany(t, { dueDate: yesterday });
    const res = await login({ email: company.userEmail, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ companyId: company.companyId, company: { dueDate: yesterday } });
    const me = await t.inject({ method: 'GET', url: '/api/auth/me', token: res.json().token });
    expect(me.statusCode).toBe(200);
    const queues = await t.inject({ method: 'GET', url: '/api/queue', token: res.json().token });
    expect(queues.statusCode).toBe(402);
    expect(queues.json()).toEqual({ error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: yesterday });
  });

  it('lets a company due today in (the subscription runs through its due date)', async () => {
    const company = await createCompany(t, { dueDate: dayFromToday(0) });
    const res = await login({ email: company.userEmail, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
  });

  it('refuses the access token of a company that expired after login with 402 and the due date', async () => {
    const company = await createCompany(t);
    const session = await t.login(company.adminEmail, TEST_PASSWORD);
    const yesterday = dayFromToday(-1);
    await t.balcao.core.knex('companies').where({ id: company.companyId }).update({ dueDate: yesterday });
    await t.balcao.core.sessions.invalidateCompany(company.companyId);
    const queues = await t.inject({ method: 'GET', url: '/api/queue', token: session.token });
    expect(queues.statusCode).toBe(402);
    expect(queues.json()).toEqual({ error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: yesterday });
  });

  it('lets the super user of company 1 (due 2999-12-31) in, even were the platform company past due', async () => {
    const ok = await login({ email: 'super@balcao.test', password: 'demo1234' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ super: true, companyId: 1, company: { id: 1, dueDate: '2999-12-31' } });

    const { knex, sessions } = t.balcao.core;
    await knex('companies')
      .where({ id: 1 })
      .update({ dueDate: dayFromToday(-3) });
    await sessions.invalidateCompany(1);
    try {
      const stillOk = await login({ email: 'super@balcao.test', password: 'demo1234' });
      expect(stillOk.statusCode).toBe(200);
      const me = await t.inject({ method: 'GET', url: '/api/auth/me', token: stillOk.json().token });
      expect(me.statusCode).toBe(200);
    } finally {
      await knex('companies').where({ id: 1 }).update({ dueDate: '2999-12-31' });
      await sessions.invalidateCompany(1);
    }
  });

  it('gives company 1 the due date 2999-12-31 whatever its row says, for its users who are not super too', async () => {
    const { knex, sessions } = t.balcao.core;
    const [staff] = await knex('users')
      .insert({
        companyId: 1,
        name: 'Platform Staff',
        email: 'staff@balcao.test',
        passwordHash: await hashPassword(TEST_PASSWORD, 1024),
      })
      .returning('id');
    const past = dayFromToday(-3);
    await knex('companies').where({ id: 1 }).update({ dueDate: past });
    await sessions.invalidateCompany(1);
    try {
      const res = await login({ email: 'staff@balcao.test', password: TEST_PASSWORD });
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toMatchObject({ super: false, companyId: 1, company: { id: 1, dueDate: '2999-12-31' } });
      const me = await t.inject({ method: 'GET', url: '/api/auth/me', token: res.json().token });
      expect(me.statusCode).toBe(200);
      expect(me.json().company.dueDate).toBe('2999-12-31');
    } finally {
      await knex('companies').where({ id: 1 }).update({ dueDate: '2999-12-31' });
      await knex('users').where({ id: staff.id }).delete();
      await sessions.invalidateCompany(1);
    }
  });

  it('answers 400 ERR_VALIDATION naming every failing field', async () => {
    const res = await login({ email: 'a', remember: 'yes', extra: 1 });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('ERR_VALIDATION');
    const fields = body.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['body.email', 'body.password', 'body.remember', 'body.extra']));
  });

  it('stamps the company last login', async () => {
    const before = await t.balcao.core.knex('companies').where({ id: t.demo.companies.lite }).first('lastLogin');
    await t.login('agent@lite.test');
    const after = await t.balcao.core.knex('companies').where({ id: t.demo.companies.lite }).first('lastLogin');
    expect(after.lastLogin).toBeInstanceOf(Date);
    if (before.lastLogin) expect(after.lastLogin.getTime()).toBeGreaterThanOrEqual(before.lastLogin.getTime());
  });
});

describe('GET /auth/me', () => {
  it('answers the session user of docs/product/tickets-and-inbox.md#entities: permission fields, company with dueDate and companieSettings, queues', async () => {
    const admin = await t.login('admin@acme.test');
    const res = await t.inject({ method: 'GET', url: '/api/auth/me', token: admin.token });
    expect(res.statusCode).toBe(200);
    const me = res.json();
    expect(me).toMatchObject({
      id: t.demo.users.acmeAdmin,
      name: 'Ana Admin',
      email: 'admin@acme.test',
      companyId: t.demo.companies.acme,
      profile: 'admin',
      super: false,
      showDashboard: 'enabled',
      allowRealTime: 'disabled',
      allowConnections: 'disabled',
      allTicket: 'disable',
      allowGroup: false,
      allHistoric: 'disabled',
      allUserChat: 'disabled',
      userClosePendingTicket: 'enabled',
      defaultTheme: 'light',
      defaultMenu: 'open',
      defaultTicketsManagerWidth: 550,
      profileImage: null,
      online: expect.any(Boolean),
      queues: [],
      company: { id: t.demo.companies.acme, name: 'Acme', dueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
    });
    expect(me.passwordHash).toBeUndefined();
    const settings = Object.fromEntries(me.company.companieSettings.map((s: { key: string; value: string }) => [s.key, s.value]));
    expect(settings).toEqual(DEFAULT_COMPANY_SETTINGS);
    const dueDate = await t.balcao.core
      .knex('companies')
      .where({ id: t.demo.companies.acme })
      .first(t.balcao.core.knex.raw("to_char(due_date, 'YYYY-MM-DD') as due"));
    expect(me.company.dueDate).toBe(dueDate.due);
  });

  it('refuses a missing token with 401 ERR_UNAUTHENTICATED (the client ends the session)', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/auth/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'ERR_UNAUTHENTICATED' });
  });

  it('refuses an expired access token with 403 ERR_TOKEN_EXPIRED (the client refreshes)', async () => {
    const agent = await t.login('agent@acme.test');
    const expired = expiredAccessToken(t, {
      userId: t.demo.users.acmeAgent,
      companyId: t.demo.companies.acme,
      familyId: familyOf(t, agent.token),
    });
    const res = await t.inject({ method: 'GET', url: '/api/auth/me', token: expired });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_TOKEN_EXPIRED' });
    // the same session's live token still works: only the expired one is refused
    expect((await t.inject({ method: 'GET', url: '/api/auth/me', token: agent.token })).statusCode).toBe(200);
  });

  it('refuses a forged, wrongly signed or mangled token with 401 ERR_TOKEN_INVALID (no refresh: not a session)', async () => {
    const agent = await t.login('agent@acme.test');
    const [header, payload] = agent.token.split('.');
    const forged = `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    for (const token of [forged, 'garbage', `${agent.token}x`]) {
      const res = await t.inject({ method: 'GET', url: '/api/auth/me', token });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'ERR_TOKEN_INVALID' });
    }
  });

  it('refuses the token of a user who no longer exists with 401 ERR_SESSION_EXPIRED', async () => {
    const company = await createCompany(t);
    const session = await t.login(company.userEmail, TEST_PASSWORD);
    await t.balcao.core.knex('users').where({ id: company.userId }).delete();
    await t.balcao.core.sessions.invalidateUser(company.userId);
    const res = await t.inject({ method: 'GET', url: '/api/auth/me', token: session.token });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
  });

  it('refuses the token of a company deactivated after login with 403 ERR_COMPANY_INACTIVE', async () => {
    const company = await createCompany(t);
    const session = await t.login(company.adminEmail, TEST_PASSWORD);
    await t.balcao.core.knex('companies').where({ id: company.companyId }).update({ status: false });
    await t.balcao.core.sessions.invalidateCompany(company.companyId);
    const res = await t.inject({ method: 'GET', url: '/api/auth/me', token: session.token });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_COMPANY_INACTIVE' });
  });
});

describe('access token lifetime', () => {
  it('issues tokens that expire after accessTokenTtlSeconds', async () => {
    const agent = await t.login('agent@acme.test');
    const [, payload] = agent.token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
    expect(claims.exp - claims.iat).toBe(t.config.accessTokenTtlSeconds);
    expect(claims).not.toHaveProperty('email');
  });
});

describe('the refresh cookie behind a TLS proxy', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    // PUBLIC_URL left at its http default: what a deployment that forgot it looks like
    proxied = await createTestApp({ config: { trustProxy: true } });
  });
  afterAll(async () => {
    await proxied.close();
  });

  it('is Secure when the request came over https, even though PUBLIC_URL says http; httpOnly, strict and scoped always', async () => {
    const payload = { email: 'agent@acme.test', password: 'demo1234' };
    const overTls = await proxied.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload,
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(overTls.statusCode).toBe(200);
    const cookie = setCookieOf(overTls);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\/api\/auth/);
    const plain = await proxied.inject({ method: 'POST', url: '/api/auth/login', payload });
    expect(setCookieOf(plain)).not.toMatch(/; Secure/);
  });
});
