/**
 * API keys (docs/api.md "API keys") on the real core: Postgres and Redis, the repository's features.
 */
import { createHash } from 'node:crypto';
import { createTestApp, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let admin: TestSession;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@acme.test');
});
afterAll(() => t?.close());

async function call(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  const res = await t.inject({ method, url: `/api${url}`, token, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.body ? res.json() : null };
}

async function createKey(session: TestSession, scopes: string[], name = 'Integração'): Promise<{ key: string; id: number }> {
  const created = await call(session.token, 'POST', '/api-keys', { name, scopes });
  expect(created.status).toBe(201);
  return { key: created.body.key, id: created.body.apiKey.id };
}

describe('API keys', () => {
  it('shows the secret once, keeps only its hash, and lists keys without it', async () => {
    const created = await call(admin.token, 'POST', '/api-keys', { name: 'ERP', scopes: ['tickets:read', 'contacts:read'] });
    expect(created.status).toBe(201);
    const { key, apiKey } = created.body;
    expect(key).toMatch(/^blc_[0-9]+_[A-Za-z0-9_-]{32}$/);
    expect(apiKey).toMatchObject({ name: 'ERP', scopes: ['tickets:read', 'contacts:read'], revokedAt: null, lastUsedAt: null });
    expect(apiKey.createdBy).toEqual({ id: admin.user.id, name: admin.user.name });
    expect(key.startsWith(apiKey.hint.replace('…', ''))).toBe(true);

    const row = await t.balcao.core.knex('apiKeys').where({ id: apiKey.id }).first();
    // the secret's alphabet has `_` too: it is everything after the id
    const secret = key.split('_').slice(2).join('_');
    expect(row.secretHash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret);

    const listed = await call(admin.token, 'GET', '/api-keys');
    expect(listed.status).toBe(200);
    expect(listed.body.apiKeys[0]).toEqual(apiKey);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
  });

  it('is for admins only, and refuses a key without a name or with an unknown scope', async () => {
    const agent = await t.login('agent@acme.test');
    expect((await call(agent.token, 'POST', '/api-keys', { name: 'x', scopes: ['tickets:read'] })).status).toBe(403);
    expect((await call(agent.token, 'GET', '/api-keys')).status).toBe(403);
    expect((await call(admin.token, 'POST', '/api-keys', { name: ' ', scopes: ['tickets:read'] })).status).toBe(400);
    expect((await call(admin.token, 'POST', '/api-keys', { name: 'x', scopes: ['admin'] })).status).toBe(400);
    expect((await call(admin.token, 'POST', '/api-keys', { name: 'x', scopes: [] })).status).toBe(400);
  });

  it('authenticates the routes of its scopes and refuses every other with ERR_API_KEY_SCOPE', async () => {
    const { key } = await createKey(admin, ['tickets:read']);
    const tickets = await call(key, 'GET', '/tickets?pageNumber=1');
    expect(tickets.status).toBe(200);
    expect(tickets.body).toHaveProperty('tickets');

    expect(await call(key, 'GET', '/contacts')).toEqual({
      status: 403,
      body: { error: 'ERR_API_KEY_SCOPE', scope: 'contacts:read' },
    });
    expect(await call(key, 'GET', '/auth/me')).toEqual({ status: 403, body: { error: 'ERR_API_KEY_SCOPE' } });
    // a key never manages keys
    expect(await call(key, 'GET', '/api-keys')).toEqual({ status: 403, body: { error: 'ERR_API_KEY_SCOPE' } });
    expect((await call(key, 'POST', '/api-keys', { name: 'y', scopes: ['contacts:manage'] })).status).toBe(403);

    const { key: contactsKey } = await createKey(admin, ['contacts:read', 'contacts:manage']);
    const made = await call(contactsKey, 'POST', '/contacts', { name: 'Via API', number: '5511988880001' });
    expect(made.status).toBe(201);
    expect((await call(contactsKey, 'GET', `/contacts/${made.body.id}`)).body).toMatchObject({ name: 'Via API' });
  });

  it('answers a wrong secret, an unknown key and a revoked key with 401 and their own codes', async () => {
    const { key, id } = await createKey(admin, ['tickets:read']);
    const wrong = `${key.slice(0, -4)}AAAA`;
    expect(await call(wrong, 'GET', '/tickets')).toEqual({ status: 401, body: { error: 'ERR_API_KEY_INVALID' } });
    expect(await call('blc_999999_abcdefghijklmnopqrstuvwxyzABCDEF', 'GET', '/tickets')).toEqual({
      status: 401,
      body: { error: 'ERR_API_KEY_INVALID' },
    });
    expect((await call('blc_garbage', 'GET', '/tickets')).status).toBe(401);

    expect((await call(key, 'GET', '/tickets')).status).toBe(200);
    const revoked = await call(admin.token, 'DELETE', `/api-keys/${id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    // at once, though the key was cached by its last use
    expect(await call(key, 'GET', '/tickets')).toEqual({ status: 401, body: { error: 'ERR_API_KEY_REVOKED' } });
  });

  it('stops working when its creator is no longer an admin, and with an inactive company even a super user’s', async () => {
    const knex = t.balcao.core.knex;
    const { passwordHash } = await knex('users').where({ email: 'admin@acme.test' }).first('passwordHash');
    const person = async (email: string, companyId: number, isSuper: boolean) => {
      const [row] = await knex('users')
        .insert({ companyId, name: email, email, passwordHash, profile: 'admin', super: isSuper })
        .returning('id');
      return { id: row.id as number, session: await t.login(email) };
    };
    const stamp = Date.now();
    const demoted = await person(`demoted-${stamp}@acme.test`, t.demo.companies.acme as number, false);
    const { key } = await createKey(demoted.session, ['tickets:read']);
    expect((await call(key, 'GET', '/tickets')).status).toBe(200);
    await knex('users').where({ id: demoted.id }).update({ profile: 'user' });
    await t.balcao.core.sessions.invalidateUser(demoted.id);
    expect(await call(key, 'GET', '/tickets')).toEqual({ status: 401, body: { error: 'ERR_API_KEY_INVALID' } });

    const lite = t.demo.companies.lite as number;
    const superUser = await person(`super-${stamp}@lite.test`, lite, true);
    const { key: superKey } = await createKey(superUser.session, ['tickets:read']);
    expect((await call(superKey, 'GET', '/tickets')).status).toBe(200);
    await knex('companies').where({ id: lite }).update({ status: false });
    await t.balcao.core.sessions.invalidateCompany(lite);
    try {
      expect(await call(superKey, 'GET', '/tickets')).toEqual({ status: 403, body: { error: 'ERR_COMPANY_INACTIVE' } });
    } finally {
      await knex('companies').where({ id: lite }).update({ status: true });
      await t.balcao.core.sessions.invalidateCompany(lite);
    }
  });

  it('keeps companies apart: another company’s admin neither sees nor revokes the key', async () => {
    const { key, id } = await createKey(admin, ['tickets:read']);
    const other = await t.login('admin@lite.test');
    expect((await call(other.token, 'GET', '/api-keys')).body.apiKeys.map((k: { id: number }) => k.id)).not.toContain(id);
    expect(await call(other.token, 'DELETE', `/api-keys/${id}`)).toEqual({
      status: 404,
      body: { error: 'ERR_NO_API_KEY_FOUND' },
    });
    expect((await call(key, 'GET', '/tickets')).status).toBe(200);
    // the key reads its own company's tickets only
    const acmeTicket = await t.balcao.core.knex('tickets').where({ companyId: t.demo.companies.acme }).first('id');
    const liteTicket = await t.balcao.core.knex('tickets').where({ companyId: t.demo.companies.lite }).first('id');
    if (acmeTicket) expect((await call(key, 'GET', `/tickets/${acmeTicket.id}`)).status).toBe(200);
    if (liteTicket) expect((await call(key, 'GET', `/tickets/${liteTicket.id}`)).status).toBe(404);
  });

  it('never ends a person’s session: the admin who made it stays logged in while it works', async () => {
    const person = await t.login('admin@acme.test');
    const { key } = await createKey(person, ['tickets:read']);
    for (let i = 0; i < 3; i += 1) expect((await call(key, 'GET', '/tickets')).status).toBe(200);
    expect((await call(person.token, 'GET', '/auth/me')).status).toBe(200);
    const refreshed = await t.inject({ method: 'POST', url: '/api/auth/refresh_token', headers: { cookie: person.cookie } });
    expect(refreshed.statusCode).toBe(200);
    expect((await call(key, 'GET', '/tickets')).status).toBe(200);
  });
});
