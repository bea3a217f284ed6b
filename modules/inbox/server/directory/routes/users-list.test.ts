import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeQueue } from '../testing/directory-rows';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /users/list', () => {
  it("answers the company's users by name with profile, online and queues, and nobody else's", async () => {
    const acme = t.demo.companies.acme;
    const queue = await makeQueue(t, acme, 'Sales', [t.demo.users.acmeAgent]);
    const agent = await t.login('agent@acme.test');
    const res = await t.inject({ method: 'GET', url: '/api/users/list', token: agent.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        id: t.demo.users.acmeAgent,
        name: 'Alex Agente',
        email: 'agent@acme.test',
        profile: 'user',
        online: expect.any(Boolean),
        queues: [{ id: queue.id, name: 'Sales', color: '#112233' }],
      },
      {
        id: t.demo.users.acmeAdmin,
        name: 'Ana Admin',
        email: 'admin@acme.test',
        profile: 'admin',
        online: expect.any(Boolean),
        queues: [],
      },
    ]);
    expect(res.body).not.toContain('passwordHash');
    const lite = await t.login('admin@lite.test');
    const liteList = await t.inject({ method: 'GET', url: '/api/users/list', token: lite.token });
    expect(liteList.json().map((user: { email: string }) => user.email)).toEqual(['agent@lite.test', 'admin@lite.test']); // Leo Agente, Lia Admin
  });
});

describe('PUT /users/toggleChangeWidht/:userId (the Tickets list panel width)', () => {
  const url = (userId: number) => `/api/users/toggleChangeWidht/${userId}`;

  it("saves the user's own width, and the session carries it", async () => {
    const agent = await t.login('agent@acme.test');
    const res = await t.inject({
      method: 'PUT',
      url: url(t.demo.users.acmeAgent),
      token: agent.token,
      payload: { defaultTicketsManagerWidth: 612 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ defaultTicketsManagerWidth: 612 });
    const me = await t.inject({ method: 'GET', url: '/api/auth/me', token: agent.token });
    expect(me.json().defaultTicketsManagerWidth).toBe(612);
  });

  it('keeps the width between 404 and 700 px', async () => {
    const agent = await t.login('agent@acme.test');
    for (const width of [403, 701]) {
      const res = await t.inject({
        method: 'PUT',
        url: url(t.demo.users.acmeAgent),
        token: agent.token,
        payload: { defaultTicketsManagerWidth: width },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
  });

  it("refuses a profile user changing someone else's, and anyone reaching another company's user", async () => {
    const agent = await t.login('agent@acme.test');
    const other = await t.inject({
      method: 'PUT',
      url: url(t.demo.users.acmeAdmin),
      token: agent.token,
      payload: { defaultTicketsManagerWidth: 500 },
    });
    expect(other.statusCode).toBe(403);
    const liteAdmin = await t.login('admin@lite.test');
    const foreign = await t.inject({
      method: 'PUT',
      url: url(t.demo.users.acmeAgent),
      token: liteAdmin.token,
      payload: { defaultTicketsManagerWidth: 500 },
    });
    expect(foreign.statusCode).toBe(404);
    const row = await t.balcao.core.knex('users').where({ id: t.demo.users.acmeAgent }).first('defaultTicketsManagerWidth');
    expect(row.defaultTicketsManagerWidth).not.toBe(500);
  });
});
