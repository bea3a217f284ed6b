import { randomBytes } from 'node:crypto';
import { companySocket, createTestApp, nextEvent, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTeamDemo } from './seed';

let t: TestApp;
let admin: TestSession;
let agent: TestSession;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@acme.test');
  agent = await t.login('agent@acme.test');
});
afterAll(async () => {
  await t?.close();
});

const knex = () => t.balcao.core.knex;
const unique = () => randomBytes(4).toString('hex');

async function call(session: { token: string } | null, method: string, url: string, payload?: unknown) {
  const response = await t.inject({
    method: method as 'GET',
    url: `/api${url}`,
    ...(session ? { token: session.token } : {}),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.body ? response.json() : null };
}

async function makeQueue(companyId: number, name: string): Promise<number> {
  const [row] = await knex()('queues').insert({ companyId, name, color: '#123456' }).returning('id');
  return row.id as number;
}

/** A user created through the API by `session` (Acme's admin by default). */
async function createUser(fields: Record<string, unknown> = {}, session: TestSession = admin) {
  const email = `user-${unique()}@acme.test`;
  const res = await call(session, 'POST', '/users', { name: 'Nova Pessoa', email, password: 'secret1', ...fields });
  return { ...res, email };
}

function multipart(file: { name: string; type: string; data: Buffer }, field = 'profileImage') {
  const boundary = `----test${unique()}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="typeArch"\r\n\r\nuser\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A 1×1 transparent PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe('who may manage users', () => {
  it('refuses a profile user the list, creation and deletion (admin only)', async () => {
    expect((await call(agent, 'GET', '/users')).body).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await createUser({}, agent)).status).toBe(403);
    expect((await call(agent, 'DELETE', `/users/${t.demo.users.acmeAdmin}`)).status).toBe(403);
    expect((await call(agent, 'GET', `/users/${t.demo.users.acmeAdmin}`)).status).toBe(403);
  });

  it("lets the super user manage their own company's users", async () => {
    const superUser = await t.login('super@balcao.test');
    const list = await call(superUser, 'GET', '/users');
    expect(list.status).toBe(200);
    expect(list.body.users.map((user: { email: string }) => user.email)).toContain('super@balcao.test');
    expect(list.body.users.every((user: { companyId: number }) => user.companyId === t.demo.companies.platform)).toBe(true);
  });

  it('lets a user read and edit themselves, but not the admin-only fields', async () => {
    const me = await call(agent, 'GET', `/users/${t.demo.users.acmeAgent}`);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'agent@acme.test', profile: 'user' });
    expect(me.body).not.toHaveProperty('passwordHash');

    const renamed = await call(agent, 'PUT', `/users/${t.demo.users.acmeAgent}`, {
      name: 'Alex Atendente',
      defaultTheme: 'dark',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Alex Atendente', defaultTheme: 'dark' });
    // the dialog sends the whole form back: unchanged admin-only values pass, changed ones don't
    const same = await call(agent, 'PUT', `/users/${t.demo.users.acmeAgent}`, { profile: 'user', showDashboard: 'disabled' });
    expect(same.status).toBe(200);
    for (const change of [
      { profile: 'admin' },
      { showDashboard: 'enabled' },
      { queueIds: [await makeQueue(t.demo.companies.acme, 'Mine')] },
    ]) {
      expect((await call(agent, 'PUT', `/users/${t.demo.users.acmeAgent}`, change)).body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await call(agent, 'PUT', `/users/${t.demo.users.acmeAdmin}`, { name: 'Hacked' })).status).toBe(403);
    await call(agent, 'PUT', `/users/${t.demo.users.acmeAgent}`, { name: 'Alex Agente', defaultTheme: 'light' });
  });

  it("refuses another company's users as if they didn't exist", async () => {
    const liteAgent = t.demo.users.liteAgent;
    expect((await call(admin, 'GET', `/users/${liteAgent}`)).body).toEqual({ error: 'ERR_NO_USER_FOUND' });
    expect((await call(admin, 'PUT', `/users/${liteAgent}`, { name: 'Taken' })).status).toBe(404);
    expect((await call(admin, 'DELETE', `/users/${liteAgent}`)).status).toBe(404);
    expect(await knex()('users').where({ id: liteAgent }).first('name')).toEqual({ name: 'Leo Agente' });
  });

  it('keeps a super user out of reach of a plain admin of the platform company', async () => {
    const superUser = await t.login('super@balcao.test');
    const created = await createUser({ profile: 'admin' }, superUser);
    expect(created.status).toBe(201);
    const platformAdmin = await t.login(created.email, 'secret1');
    const superId = t.demo.users.super;
    expect((await call(platformAdmin, 'PUT', `/users/${superId}`, { name: 'Not super' })).status).toBe(403);
    expect((await call(platformAdmin, 'DELETE', `/users/${superId}`)).status).toBe(403);
  });
});

describe('POST /users', () => {
  it('creates a user with the defaults of docs/product/tickets-and-inbox.md#constants-and-limits and its queues, who can then log in', async () => {
    const queueId = await makeQueue(t.demo.companies.acme, `Suporte ${unique()}`);
    const created = await createUser({ name: '  Nova Pessoa  ', queueIds: [queueId] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Nova Pessoa',
      email: created.email,
      profile: 'user',
      super: false,
      companyId: t.demo.companies.acme,
      startWork: '00:00',
      endWork: '23:59',
      defaultTheme: 'light',
      defaultMenu: 'open',
      allTicket: 'disable',
      allowGroup: false,
      userClosePendingTicket: 'enabled',
      showDashboard: 'disabled',
      allowRealTime: 'disabled',
      allowConnections: 'disabled',
      allHistoric: 'disabled',
      allUserChat: 'disabled',
      profileImage: null,
      online: false,
      queues: [expect.objectContaining({ id: queueId })],
    });
    const session = await t.login(created.email, 'secret1');
    expect(session.user.queues.map((queue) => queue.id)).toEqual([queueId]);
  });

  it('stores the e-mail lowercased and refuses it again in any case (ERR_EMAIL_ALREADY_EXISTS)', async () => {
    const email = `Mixed-${unique()}@Acme.test`;
    const first = await call(admin, 'POST', '/users', { name: 'Primeira', email, password: 'secret1' });
    expect(first.body.email).toBe(email.toLowerCase());
    const again = await call(admin, 'POST', '/users', { name: 'Segunda', email: email.toUpperCase(), password: 'secret1' });
    expect(again).toEqual({ status: 409, body: { error: 'ERR_EMAIL_ALREADY_EXISTS' } });
    // and on update, even an e-mail of another company
    const other = await createUser();
    const clash = await call(admin, 'PUT', `/users/${other.body.id}`, { email: 'ADMIN@lite.test' });
    expect(clash).toEqual({ status: 409, body: { error: 'ERR_EMAIL_ALREADY_EXISTS' } });
  });

  it('refuses the bad input of docs/product/administration.md#validation with ERR_VALIDATION', async () => {
    const cases = [
      { name: 'A' },
      { name: '   ' },
      { name: 'x'.repeat(51) },
      { password: '1234' },
      { password: 'x'.repeat(51) },
      { email: 'not-an-email' },
      { profile: 'owner' },
      { startWork: '25:00' },
      { allowConnections: 'yes' },
      { whatsappId: 12345 },
    ];
    for (const fields of cases) {
      const res = await createUser(fields);
      expect([res.status, res.body.error], JSON.stringify(fields)).toEqual([400, 'ERR_VALIDATION']);
    }
  });

  it("refuses another company's queue and creates nothing", async () => {
    const liteQueue = await makeQueue(t.demo.companies.lite, 'Lite only');
    // the core refuses another company's id in any id-named field before the route runs
    const res = await createUser({ queueIds: [liteQueue] });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ERR_NO_QUEUE_FOUND' });
    expect(await knex()('users').where({ email: res.email }).first()).toBeUndefined();
  });

  it("stops at the plan's number of users (ERR_USER_LIMIT_REACHED)", async () => {
    // Lite's plan allows 3 users and it has 2; two creations at once still make only one
    const liteAdmin = await t.login('admin@lite.test');
    const attempts = await Promise.all([createUser({}, liteAdmin), createUser({}, liteAdmin)]);
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual([201, 403]);
    expect(attempts.find((attempt) => attempt.status === 403)?.body).toEqual({ error: 'ERR_USER_LIMIT_REACHED' });
    const [row] = await knex()('users').where({ companyId: t.demo.companies.lite }).count('id as count');
    expect(Number(row?.count)).toBe(3);
  });

  it('honours userCreation: the platform switch and the company own, except for the super user', async () => {
    const superUser = await t.login('super@balcao.test');
    const off = await call(superUser, 'PUT', '/settings/userCreation', { value: 'disabled' });
    expect(off.status).toBe(200);
    expect((await createUser()).body).toEqual({ error: 'ERR_USER_CREATION_DISABLED' });
    expect((await createUser({}, superUser)).status).toBe(201);
    await call(superUser, 'PUT', '/settings/userCreation', { value: 'enabled' });
    expect((await createUser()).status).toBe(201);

    await t.balcao.core.settings.set(t.demo.companies.acme, 'userCreation', 'disabled');
    expect((await createUser()).body).toEqual({ error: 'ERR_USER_CREATION_DISABLED' });
    await t.balcao.core.settings.set(t.demo.companies.acme, 'userCreation', 'enabled');
  });
});

describe('PUT /users/:userId', () => {
  it("replaces the queues, changes permissions, and the user's session carries them at once", async () => {
    const created = await createUser();
    const session = await t.login(created.email, 'secret1');
    const queueA = await makeQueue(t.demo.companies.acme, `A ${unique()}`);
    const queueB = await makeQueue(t.demo.companies.acme, `B ${unique()}`);
    const res = await call(admin, 'PUT', `/users/${created.body.id}`, {
      queueIds: [queueA, queueB],
      showDashboard: 'enabled',
      startWork: '08:00',
      endWork: '18:00',
      companyId: t.demo.companies.acme, // the documented client sends its own; another company's is a 404
    });
    expect(res.status).toBe(200);
    expect(res.body.queues.map((queue: { id: number }) => queue.id).sort()).toEqual([queueA, queueB].sort());
    expect(res.body.companyId).toBe(t.demo.companies.acme);
    const me = await call(session, 'GET', '/auth/me');
    expect(me.body.showDashboard).toBe('enabled');
    expect(me.body.queues.map((queue: { id: number }) => queue.id).sort()).toEqual([queueA, queueB].sort());

    const fewer = await call(admin, 'PUT', `/users/${created.body.id}`, { queueIds: [queueB] });
    expect(fewer.body.queues.map((queue: { id: number }) => queue.id)).toEqual([queueB]);
  });

  it("changes the password to one that logs in, and ends the user's open sessions", async () => {
    const created = await createUser();
    const open = await t.login(created.email, 'secret1');
    expect((await call(open, 'GET', '/auth/me')).status).toBe(200);
    expect((await call(admin, 'PUT', `/users/${created.body.id}`, { password: 'another9' })).status).toBe(200);
    expect((await call(open, 'GET', '/auth/me')).status).toBe(401);
    await expect(t.login(created.email, 'secret1')).rejects.toThrow();
    expect((await t.login(created.email, 'another9')).user.id).toBe(created.body.id);
  });

  it('refuses to demote the last admin (ERR_LAST_ADMIN)', async () => {
    const liteAdmin = await t.login('admin@lite.test');
    const res = await call(liteAdmin, 'PUT', `/users/${t.demo.users.liteAdmin}`, { profile: 'user' });
    expect(res).toEqual({ status: 400, body: { error: 'ERR_LAST_ADMIN' } });
  });

  it('emits company-{id}-user with action update to the company', async () => {
    const created = await createUser();
    const url = await t.listen();
    const socket = companySocket(url, t.demo.companies.acme, admin.token);
    try {
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const event = nextEvent(
        socket,
        `company-${t.demo.companies.acme}-user`,
        (payload) => (payload as { user?: { id: number; name?: string } }).user?.name === 'Renomeada',
      );
      await call(admin, 'PUT', `/users/${created.body.id}`, { name: 'Renomeada' });
      expect(await event).toMatchObject({ action: 'update', user: { id: created.body.id, name: 'Renomeada' } });
      const removed = nextEvent(
        socket,
        `company-${t.demo.companies.acme}-user`,
        (payload) => (payload as { action: string }).action === 'delete',
      );
      await call(admin, 'DELETE', `/users/${created.body.id}`);
      expect(await removed).toEqual({ action: 'delete', userId: created.body.id });
    } finally {
      socket.close();
    }
  });
});

describe('DELETE /users/:userId', () => {
  it('refuses to delete yourself, and lets one admin delete another', async () => {
    expect((await call(admin, 'DELETE', `/users/${t.demo.users.acmeAdmin}`)).body).toEqual({ error: 'ERR_CANNOT_DELETE_SELF' });
    const second = await createUser({ profile: 'admin' });
    const third = await createUser({ profile: 'admin' });
    const secondSession = await t.login(second.email, 'secret1');
    expect((await call(secondSession, 'DELETE', `/users/${third.body.id}`)).status).toBe(204);
    expect((await call(secondSession, 'DELETE', `/users/${second.body.id}`)).body).toEqual({ error: 'ERR_CANNOT_DELETE_SELF' });
  });

  it("ends the user's session and puts their open tickets back to pending", async () => {
    const created = await createUser();
    const session = await t.login(created.email, 'secret1');
    const companyId = t.demo.companies.acme;
    const [contact] = await knex()('contacts')
      .insert({ companyId, name: 'Cliente', number: `55119${Date.now() % 1e8}` })
      .returning('id');
    const [ticket] = await knex()('tickets')
      .insert({ companyId, contactId: contact.id, userId: created.body.id, status: 'open' })
      .returning('id');
    const res = await call(admin, 'DELETE', `/users/${created.body.id}`);
    expect(res.status).toBe(204);
    expect(await knex()('tickets').where({ id: ticket.id }).first('status', 'userId')).toEqual({
      status: 'pending',
      userId: null,
    });
    expect((await call(session, 'GET', '/auth/me')).status).toBe(401);
    expect((await call(admin, 'GET', `/users/${created.body.id}`)).status).toBe(404);
  });
});

describe('GET /users', () => {
  it('pages by 40 with count and hasMore, and searches name and e-mail', async () => {
    const tag = unique();
    for (let index = 0; index < 3; index += 1) await createUser({ name: `Busca ${tag} ${index}` });
    const found = await call(admin, 'GET', `/users?searchParam=${tag}`);
    expect(found.body).toMatchObject({ count: 3, hasMore: false });
    expect(found.body.users.map((user: { name: string }) => user.name)).toEqual(
      [0, 1, 2].map((index) => `Busca ${tag} ${index}`),
    );
    const byEmail = await call(admin, 'GET', '/users?searchParam=agent@acme');
    expect(byEmail.body.users.map((user: { email: string }) => user.email)).toEqual(['agent@acme.test']);
    const none = await call(admin, 'GET', '/users?searchParam=%25_nothing');
    expect(none.body).toEqual({ users: [], count: 0, hasMore: false });

    const [row] = await knex()('users').where({ companyId: t.demo.companies.acme }).count('id as count');
    const count = Number(row?.count);
    const page1 = await call(admin, 'GET', '/users?pageNumber=1');
    expect(page1.body.count).toBe(Number(count));
    expect(page1.body.users.length).toBe(Math.min(40, Number(count)));
    expect(page1.body.hasMore).toBe(Number(count) > 40);
  });
});

describe('POST /users/:userId/media-upload', () => {
  it('stores an image checked by content and answers a signed address, also in the session', async () => {
    const res = await t.inject({
      method: 'POST',
      url: `/api/users/${t.demo.users.acmeAgent}/media-upload`,
      token: agent.token,
      ...multipart({ name: 'me.png', type: 'image/png', data: PNG }),
    });
    expect(res.statusCode).toBe(200);
    const { profileImage } = res.json();
    expect(profileImage).toMatch(/^\/api\/media\//);
    const image = await t.inject({ method: 'GET', url: profileImage });
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.equals(PNG)).toBe(true);
    const me = await call(agent, 'GET', '/auth/me');
    expect(me.body.profileImage).toMatch(/^\/api\/media\//);
  });

  it('refuses what is no image whatever its declared type, and other users of a profile user', async () => {
    const fake = await t.inject({
      method: 'POST',
      url: `/api/users/${t.demo.users.acmeAgent}/media-upload`,
      token: agent.token,
      ...multipart({ name: 'evil.png', type: 'image/png', data: Buffer.from('<svg onload="alert(1)"></svg>') }),
    });
    expect(fake.statusCode).toBe(415);
    const other = await t.inject({
      method: 'POST',
      url: `/api/users/${t.demo.users.acmeAdmin}/media-upload`,
      token: agent.token,
      ...multipart({ name: 'me.png', type: 'image/png', data: PNG }),
    });
    expect(other.statusCode).toBe(403);
    const wrongField = await t.inject({
      method: 'POST',
      url: `/api/users/${t.demo.users.acmeAgent}/media-upload`,
      token: agent.token,
      ...multipart({ name: 'me.png', type: 'image/png', data: PNG }, 'file'),
    });
    expect(wrongField.json().error).toBe('ERR_VALIDATION');
  });
});

describe('the demo rows', () => {
  it("adds Acme's two extra agents with their queues once, however often it runs", async () => {
    const admin = t.balcao.plugins.find((plugin) => plugin.definition.id === 'admin');
    if (!admin) throw new Error('the admin module is not loaded');
    const queueId = await makeQueue(t.demo.companies.acme, 'Demo queue');
    await seedTeamDemo(admin.ctx, t.demo);
    await seedTeamDemo(admin.ctx, t.demo);
    const rows = await knex()('users')
      .whereIn('email', ['bruna@acme.test', 'caio@acme.test'])
      .select('id', 'companyId', 'showDashboard');
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.companyId === t.demo.companies.acme)).toBe(true);
    const bruna = await t.login('bruna@acme.test', 'demo1234');
    expect(bruna.user.showDashboard).toBe('enabled');
    expect(bruna.user.queues.length).toBeGreaterThan(0);
    expect(queueId).toBeGreaterThan(0);
  });
});
