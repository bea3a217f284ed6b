import { PLAN_FLAGS } from '@balcao/plugin-sdk/server';
import { connectSocket, createTestApp, nextEvent, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { multipart, PNG } from './testing/multipart';

let t: TestApp;
let superUser: TestSession;
let admin: TestSession;
let agent: TestSession;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  superUser = await t.login('super@balcao.test');
  admin = await t.login('admin@acme.test');
  agent = await t.login('agent@acme.test');
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown) =>
  t.inject({ method, url: `/api${url}`, token, ...(payload === undefined ? {} : { payload: payload as object }) });

const knex = () => t.balcao.core.knex;

let planSeq = 0;
async function makePlan(fields: Record<string, unknown> = {}) {
  planSeq += 1;
  const response = await call('POST', '/plans', superUser.token, {
    name: `Plano ${planSeq} ${Date.now()}`,
    users: 5,
    connections: 2,
    queues: 3,
    amount: 99.9,
    ...fields,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; name: string } & Record<string, unknown>;
}

let companySeq = 0;
async function makeCompany(fields: Record<string, unknown> = {}) {
  companySeq += 1;
  const plan = fields.planId ? null : await makePlan();
  const response = await call('POST', '/companies', superUser.token, {
    name: `Empresa ${companySeq}`,
    email: `empresa${companySeq}-${Date.now()}@example.test`,
    password: 'senha123',
    planId: plan?.id,
    ...fields,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Record<string, unknown> & { id: number; email: string; dueDate: string; planId: number };
}

describe('super-only routes', () => {
  it('answer 403 to company admins and agents, on every platform write and super read', async () => {
    const routes: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?]> = [
      ['GET', '/companies'],
      ['GET', '/companies/list'],
      ['GET', '/companiesPlan'],
      ['GET', `/companies/${t.demo.companies.acme}`],
      ['POST', '/companies', { name: 'X Corp', email: 'x@example.test', password: 'senha123', planId: 1 }],
      ['PUT', `/companies/${t.demo.companies.acme}`, { name: 'X Corp', email: 'x@example.test', planId: 1 }],
      ['PUT', `/companies/${t.demo.companies.acme}/advance-due-date`],
      ['DELETE', `/companies/${t.demo.companies.lite}`],
      ['GET', '/plans/all'],
      ['POST', '/plans', { name: 'P', users: 1, connections: 1, queues: 1, amount: 1 }],
      ['PUT', '/plans/1', { name: 'P', users: 1, connections: 1, queues: 1, amount: 1 }],
      ['DELETE', '/plans/1'],
      ['POST', '/helps', { title: 'T' }],
      ['PUT', '/helps/1', { title: 'T' }],
      ['DELETE', '/helps/1'],
      ['POST', '/announcements', { title: 'T', text: 'x' }],
      ['PUT', '/announcements/1', { title: 'T', text: 'x' }],
      ['DELETE', '/announcements/1'],
      ['DELETE', '/announcements/1/media-upload'],
      ['GET', '/settings-whitelabel'],
      ['PUT', '/settings-whitelabel/appName', { value: 'Hacked' }],
    ];
    for (const session of [admin, agent]) {
      for (const [method, url, payload] of routes) {
        const response = await call(method, url, session.token, payload);
        expect(response.statusCode, `${method} ${url} as ${session.user.email}`).toBe(403);
        expect(response.json().error).toBe('ERR_NO_PERMISSION');
      }
    }
    const upload = await t.inject({
      method: 'POST',
      url: '/api/settings-whitelabel/logo',
      token: admin.token,
      ...multipart({ typeArch: 'logo', mode: 'Light' }, { field: 'file', name: 'logo.png', content: PNG, type: 'image/png' }),
    });
    expect(upload.statusCode).toBe(403);
  });
});

describe('companies', () => {
  it('creates a company whose admin logs in with the default password and gets the default settings', async () => {
    const company = await makeCompany({ phone: '11999990000', recurrence: 'TRIMESTRAL', value: 150 });
    expect(company).toMatchObject({
      status: false,
      numberAttendants: 1,
      numberConections: 1,
      recurrence: 'TRIMESTRAL',
      value: '150.00',
    });
    expect(company.folderSize).toBe(0);
    expect(company.numberFileFolder).toBe(0);
    const user = await knex()('users').where({ companyId: company.id }).first('email', 'profile', 'name');
    expect(user).toMatchObject({ email: company.email, profile: 'admin', name: company.name });
    const settings = await knex()('settings').where({ companyId: company.id }).count({ count: '*' });
    expect(Number(settings[0]?.count)).toBeGreaterThan(20);
    // status false (the form's default) keeps it out; active, its admin is in
    await call('PUT', `/companies/${company.id}`, superUser.token, {
      name: company.name,
      email: company.email,
      planId: company.planId,
      status: true,
      dueDate: '2999-01-01',
    });
    const session = await t.login(company.email, 'senha123');
    expect(session.user.companyId).toBe(company.id);
    expect(session.user.profile).toBe('admin');
  });

  it('validates the form (name 2 to 50, valid e-mail, numeric counts, known plan, free e-mail)', async () => {
    const plan = await makePlan();
    const base = { name: 'Boa Empresa', email: 'boa@example.test', password: 'senha123', planId: plan.id };
    for (const bad of [
      { ...base, name: 'A' },
      { ...base, name: 'A'.repeat(51) },
      { ...base, email: 'not-an-email' },
      { ...base, email: undefined },
      { ...base, numberAttendants: 'três' },
      { ...base, recurrence: 'SEMANAL' },
      { ...base, password: '123' },
    ]) {
      const response = await call('POST', '/companies', superUser.token, bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(response.json().error).toBe('ERR_VALIDATION');
    }
    const unknownPlan = await call('POST', '/companies', superUser.token, { ...base, planId: 999_999 });
    expect(unknownPlan.statusCode).toBe(404);
    expect(unknownPlan.json().error).toBe('ERR_NO_PLAN_FOUND');
    const taken = await call('POST', '/companies', superUser.token, { ...base, email: 'ADMIN@acme.test' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe('ERR_EMAIL_ALREADY_EXISTS');
  });

  it('lists every company, pages and searches them, and shows the storage folder', async () => {
    const company = await makeCompany({ name: 'Padaria Zeta' });
    await t.balcao.core.storage.put(company.id, 'media/a.txt', Buffer.from('12345'));
    const list = (await call('GET', '/companies/list', superUser.token)).json() as Array<{ id: number }>;
    expect(list.map((row) => row.id)).toEqual(expect.arrayContaining([1, t.demo.companies.acme, company.id]));
    const page = await call('GET', '/companies?searchParam=zeta&pageNumber=1', superUser.token);
    expect(page.json()).toMatchObject({
      count: 1,
      hasMore: false,
      companies: [{ id: company.id, folderSize: 5, numberFileFolder: 1 }],
    });
    expect(page.json().companies[0].updatedAtFolder).toEqual(expect.any(String));
    const plans = await call('GET', '/companiesPlan?searchParam=zeta', superUser.token);
    expect(plans.json()).toMatchObject({ hasMore: false, companies: [{ id: company.id, plan: { id: company.planId } }] });
    const one = await call('GET', `/companies/${company.id}`, superUser.token);
    expect(one.json()).toMatchObject({ id: company.id, name: 'Padaria Zeta' });
    expect((await call('GET', '/companies/999999', superUser.token)).statusCode).toBe(404);
  });

  it('changes a company plan with immediate effect on its flags', async () => {
    const none = await makePlan();
    const kanban = await makePlan({ useKanban: true });
    const company = await makeCompany({ planId: none.id });
    expect(await t.balcao.core.plans.has(company.id, 'useKanban')).toBe(false);
    const response = await call('PUT', `/companies/${company.id}`, superUser.token, {
      name: 'Renomeada',
      email: company.email,
      planId: kanban.id,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ name: 'Renomeada', plan: { id: kanban.id } });
    expect(await t.balcao.core.plans.has(company.id, 'useKanban')).toBe(true);
  });

  it('advances the due date by the recurrence of each company', async () => {
    const expected: Record<string, string> = {
      MENSAL: '2026-02-28',
      BIMESTRAL: '2026-03-31',
      TRIMESTRAL: '2026-04-30',
      SEMESTRAL: '2026-07-31',
      ANUAL: '2027-01-31',
    };
    const plan = await makePlan();
    for (const [recurrence, dueDate] of Object.entries(expected)) {
      const company = await makeCompany({ planId: plan.id, recurrence, dueDate: '2026-01-31' });
      const response = await call('PUT', `/companies/${company.id}/advance-due-date`, superUser.token);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().dueDate, recurrence).toBe(dueDate);
    }
  });

  it("deletes a company but never deletes nor deactivates the super user's own", async () => {
    const own = await call('DELETE', `/companies/${superUser.user.companyId}`, superUser.token);
    expect(own.statusCode).toBe(403);
    expect(own.json().error).toBe('ERR_CANNOT_DELETE_OWN_COMPANY');
    const deactivate = await call('PUT', `/companies/${superUser.user.companyId}`, superUser.token, {
      name: 'Plataforma',
      email: 'super@balcao.test',
      planId: (await knex()('companies').where({ id: superUser.user.companyId }).first('planId')).planId,
      status: false,
    });
    expect(deactivate.statusCode).toBe(403);
    expect(deactivate.json().error).toBe('ERR_CANNOT_DEACTIVATE_OWN_COMPANY');
    const company = await makeCompany();
    // its files go with it
    await t.balcao.core.storage.put(company.id, 'media/photo.jpg', Buffer.from('photo'));
    expect((await call('DELETE', `/companies/${company.id}`, superUser.token)).statusCode).toBe(204);
    expect((await t.balcao.core.storage.usage(company.id)).files).toBe(0);
    expect(await knex()('companies').where({ id: company.id }).first()).toBeUndefined();
    expect(await knex()('users').where({ companyId: company.id }).first()).toBeUndefined();
    expect((await call('DELETE', `/companies/${company.id}`, superUser.token)).statusCode).toBe(404);
  });
});

describe('plans', () => {
  it('creates, lists and updates plans with their ten flags and limits', async () => {
    const plan = await makePlan({ useWhatsapp: true, useOpenAi: true, isPublic: false });
    expect(plan).toMatchObject({
      users: 5,
      connections: 2,
      queues: 3,
      amount: '99.90',
      isPublic: false,
      useWhatsapp: true,
      useOpenAi: true,
      useKanban: false,
    });
    expect(PLAN_FLAGS.every((flag) => typeof plan[flag] === 'boolean')).toBe(true);
    const all = (await call('GET', '/plans/all', superUser.token)).json() as Array<{ id: number }>;
    expect(all.map((row) => row.id)).toContain(plan.id);
    const updated = await call('PUT', `/plans/${plan.id}`, superUser.token, {
      name: plan.name,
      users: 10,
      connections: 1,
      queues: 1,
      amount: 10,
      useKanban: true,
    });
    expect(updated.json()).toMatchObject({ users: 10, useKanban: true, useWhatsapp: false, isPublic: true });
  });

  it('refuses a duplicate name and bad limits', async () => {
    const plan = await makePlan();
    const duplicate = await call('POST', '/plans', superUser.token, {
      name: plan.name.toUpperCase(),
      users: 1,
      connections: 1,
      queues: 1,
      amount: 1,
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error).toBe('ERR_PLAN_NAME_ALREADY_EXISTS');
    for (const bad of [{ users: -1 }, { amount: -5 }, { name: '' }, { useKanban: 'yes' }]) {
      const response = await call('POST', '/plans', superUser.token, {
        name: 'Novo',
        users: 1,
        connections: 1,
        queues: 1,
        amount: 1,
        ...bad,
      });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it('refuses to delete a plan a company uses, and deletes an unused one', async () => {
    const plan = await makePlan();
    const company = await makeCompany({ planId: plan.id });
    const refused = await call('DELETE', `/plans/${plan.id}`, superUser.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('ERR_PLAN_IN_USE');
    await call('DELETE', `/companies/${company.id}`, superUser.token);
    expect((await call('DELETE', `/plans/${plan.id}`, superUser.token)).statusCode).toBe(204);
    expect((await call('DELETE', `/plans/${plan.id}`, superUser.token)).statusCode).toBe(404);
  });
});

describe('helps', () => {
  it('are written by the super user and read by everyone', async () => {
    const created = await call('POST', '/helps', superUser.token, {
      title: 'Como conectar',
      description: 'Passo a passo',
      video: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    });
    expect(created.statusCode).toBe(201);
    const help = created.json();
    expect(help).toMatchObject({ title: 'Como conectar', video: 'dQw4w9WgXcQ' });
    const list = (await call('GET', '/helps/list', agent.token)).json() as Array<{ id: number }>;
    expect(list.map((row) => row.id)).toContain(help.id);
    const page = await call('GET', '/helps?searchParam=conectar', agent.token);
    expect(page.json()).toMatchObject({ count: 1, hasMore: false, records: [{ id: help.id }] });
    const updated = await call('PUT', `/helps/${help.id}`, superUser.token, { title: 'Como conectar o WhatsApp' });
    expect(updated.json()).toMatchObject({ title: 'Como conectar o WhatsApp', description: '', video: '' });
    expect((await call('POST', '/helps', superUser.token, { title: '   ' })).statusCode).toBe(400);
    expect((await call('DELETE', `/helps/${help.id}`, superUser.token)).statusCode).toBe(204);
    expect((await call('GET', `/helps/${help.id}`, agent.token)).json().error).toBe('ERR_NO_HELP_FOUND');
  });
});

describe('announcements', () => {
  it("reach every company's sockets live, and only active ones are listed for users", async () => {
    const url = await t.listen();
    const liteAdmin = await t.login('admin@lite.test');
    const acmeSocket = await connectSocket(url, t.demo.companies.acme, agent.token);
    const liteSocket = await connectSocket(url, t.demo.companies.lite, liteAdmin.token);
    sockets.push(acmeSocket, liteSocket);
    const arrivals = [acmeSocket, liteSocket].map((socket) =>
      nextEvent<{ action: string; record: { title: string } }>(socket, 'company-announcement', (p) => p.action === 'create'),
    );
    const created = await call('POST', '/announcements', superUser.token, { title: 'Manutenção', text: 'Domingo às 23h' });
    expect(created.statusCode).toBe(201);
    const announcement = created.json();
    expect(announcement).toMatchObject({ priority: 3, status: true, mediaUrl: null });
    for (const arrival of arrivals) expect((await arrival).record.title).toBe('Manutenção');

    const inactive = (
      await call('POST', '/announcements', superUser.token, { title: 'Rascunho', text: 'x', status: false, priority: 1 })
    ).json();
    const urgent = (await call('POST', '/announcements', superUser.token, { title: 'Urgente', text: 'y', priority: 1 })).json();
    const forUsers = (await call('GET', '/announcements/list', agent.token)).json() as Array<{ id: number }>;
    const ids = forUsers.map((row) => row.id);
    expect(ids).not.toContain(inactive.id);
    expect(ids.indexOf(urgent.id)).toBeLessThan(ids.indexOf(announcement.id));
    const page = (await call('GET', '/announcements', agent.token)).json() as { records: Array<{ id: number }> };
    expect(page.records.map((row) => row.id)).not.toContain(inactive.id);
    expect((await call('GET', `/announcements/${inactive.id}`, agent.token)).statusCode).toBe(404);
    const superPage = (await call('GET', '/announcements?searchParam=rascunho', superUser.token)).json();
    expect(superPage.records.map((row: { id: number }) => row.id)).toEqual([inactive.id]);

    const deleted = nextEvent<{ action: string; id: number }>(liteSocket, 'company-announcement', (p) => p.action === 'delete');
    expect((await call('DELETE', `/announcements/${urgent.id}`, superUser.token)).statusCode).toBe(204);
    expect((await deleted).id).toBe(urgent.id);
  });

  it('validate title and text, and take png/jpg images only', async () => {
    expect((await call('POST', '/announcements', superUser.token, { title: 'Sem texto' })).statusCode).toBe(400);
    expect((await call('POST', '/announcements', superUser.token, { title: 'x', text: 'y', priority: 4 })).statusCode).toBe(400);
    const announcement = (await call('POST', '/announcements', superUser.token, { title: 'Com imagem', text: 'z' })).json();
    const upload = (content: Buffer, name: string, type: string) =>
      t.inject({
        method: 'POST',
        url: `/api/announcements/${announcement.id}/media-upload`,
        token: superUser.token,
        ...multipart({ typeArch: 'announcements' }, { field: 'file', name, content, type }),
      });
    const refused = await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'x.png', 'image/png');
    expect(refused.statusCode).toBe(415);
    const saved = await upload(PNG, 'banner.png', 'image/png');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ mediaName: 'banner.png', mediaUrl: expect.stringMatching(/^\/api\/media\//) });
    const image = await t.inject({ method: 'GET', url: saved.json().mediaUrl });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    const removed = await call('DELETE', `/announcements/${announcement.id}/media-upload`, superUser.token);
    expect(removed.json()).toMatchObject({ mediaPath: null, mediaName: null, mediaUrl: null });
  });
});

describe('whitelabel', () => {
  const uploadLogo = (fields: Record<string, string>, content: Buffer, name = 'logo.png', type = 'image/png') =>
    t.inject({
      method: 'POST',
      url: '/api/settings-whitelabel/logo',
      token: superUser.token,
      ...multipart(fields, { field: 'file', name, content, type }),
    });

  it('stores a logo, names it in the public settings and serves it without a session', async () => {
    const response = await uploadLogo({ typeArch: 'logo', mode: 'Dark' }, PNG);
    expect(response.statusCode, response.body).toBe(200);
    const name = response.json() as string;
    expect(name).toMatch(/^[a-f0-9]{24}\.png$/);
    const setting = await t.inject({ method: 'GET', url: '/api/public-settings/appLogoDark' });
    expect(setting.json()).toBe(name);
    const served = await t.inject({ method: 'GET', url: `/api/settings-whitelabel/logo/${name}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    // a new logo replaces (and removes) the old one
    const second = (await uploadLogo({ typeArch: 'logo', mode: 'Dark' }, PNG)).json() as string;
    expect((await t.inject({ method: 'GET', url: `/api/settings-whitelabel/logo/${name}` })).statusCode).toBe(404);
    const cleared = await call('PUT', '/settings-whitelabel/appLogoDark', superUser.token, { value: '' });
    expect(cleared.json().appLogoDark).toBe('');
    expect((await t.inject({ method: 'GET', url: `/api/settings-whitelabel/logo/${second}` })).statusCode).toBe(404);
  });

  it('refuses files that are not images, unknown modes and a wrong typeArch', async () => {
    const text = await uploadLogo({ typeArch: 'logo', mode: 'Light' }, Buffer.from('just text'), 'logo.png', 'image/png');
    expect(text.statusCode).toBe(415);
    expect(text.json().error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
    const svg = await uploadLogo(
      { typeArch: 'logo', mode: 'Light' },
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      'a.svg',
      'image/svg+xml',
    );
    expect(svg.statusCode).toBe(415);
    const mode = await uploadLogo({ typeArch: 'logo', mode: 'Sepia' }, PNG);
    expect(mode.statusCode).toBe(400);
    expect(mode.json().error).toBe('ERR_VALIDATION');
    const type = await uploadLogo({ typeArch: 'avatar', mode: 'Light' }, PNG);
    expect(type.statusCode).toBe(400);
    const json = await call('POST', '/settings-whitelabel/logo', superUser.token, { mode: 'Light' });
    expect(json.statusCode).toBe(400);
  });

  it('sets colours and the app name for the public settings, validated', async () => {
    const color = await call('PUT', '/settings-whitelabel/primaryColorLight', superUser.token, { value: '#12ab34' });
    expect(color.json().primaryColorLight).toBe('#12AB34');
    expect((await t.inject({ method: 'GET', url: '/api/public-settings/primaryColorLight' })).json()).toBe('#12AB34');
    expect((await call('PUT', '/settings-whitelabel/primaryColorLight', superUser.token, { value: 'blue' })).statusCode).toBe(
      400,
    );
    const reset = await call('PUT', '/settings-whitelabel/primaryColorLight', superUser.token, { value: '' });
    expect(reset.json().primaryColorLight).toBe('#0000FF');
    const name = await call('PUT', '/settings-whitelabel/appName', superUser.token, { value: 'Atende Já' });
    expect(name.json().appName).toBe('Atende Já');
    expect((await t.inject({ method: 'GET', url: '/api/public-settings/appName' })).json()).toBe('Atende Já');
    expect(
      (await call('PUT', '/settings-whitelabel/appLogoLight', superUser.token, { value: 'ffffffffffffffffffffffff.png' }))
        .statusCode,
    ).toBe(404);
    expect((await call('PUT', '/settings-whitelabel/allowSignup', superUser.token, { value: 'enabled' })).statusCode).toBe(400);
  });
});

describe('seeds', () => {
  it('give the demo two helps and one announcement, once however often they run', async () => {
    const admin = t.balcao.plugins.find((plugin) => plugin.definition.id === 'admin');
    if (!admin) throw new Error('the admin module is not loaded');
    const { seedPlatformDemo } = await import('./seed');
    await seedPlatformDemo(admin.ctx);
    await seedPlatformDemo(admin.ctx);
    const helps = await knex()('helps').whereIn('title', ['Primeiros passos no Balcão', 'Respostas rápidas e tags']);
    expect(helps).toHaveLength(2);
    const announcements = await knex()('announcements').where({ title: 'Bem-vindo ao Balcão!' });
    expect(announcements).toHaveLength(1);
    const menu = (await call('GET', '/helps/list', agent.token)).json() as unknown[];
    expect(menu.length).toBeGreaterThanOrEqual(2);
  });
});
