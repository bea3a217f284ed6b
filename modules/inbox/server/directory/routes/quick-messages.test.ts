import { readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  connectSocket,
  createTestApp,
  nextEvent,
  recordEvents,
  type TestApp,
  type TestSession,
} from '@balcao/plugin-sdk/testing';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QuickMessage, QuickMessageEvent } from '../../../shared/types';
import { inboxCtx } from '../testing/directory-rows';

let t: TestApp;
let acme: number;
let admin: TestSession;
let agent: TestSession;
let agent2: TestSession;
let liteAdmin: TestSession;
const sockets: Socket[] = [];
let listening: Promise<string> | undefined;
const baseUrl = () => {
  listening ??= t.listen();
  return listening;
};

beforeAll(async () => {
  t = await createTestApp();
  acme = t.demo.companies.acme;
  admin = await t.login('admin@acme.test');
  agent = await t.login('agent@acme.test');
  liteAdmin = await t.login('admin@lite.test');
  // a second profile user of Acme, with the demo password
  const knex = t.balcao.core.knex;
  const { passwordHash } = await knex('users').where({ id: t.demo.users.acmeAgent }).first('passwordHash');
  await knex('users').insert({ companyId: acme, name: 'Second Agent', email: 'agent2@acme.test', passwordHash, profile: 'user' });
  agent2 = await t.login('agent2@acme.test');
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await t?.close();
});

let seq = 0;
/** A unique shortcode prefix per test, so lists can be narrowed to one test's rows. */
const code = (label: string) => {
  seq += 1;
  return `${label}${seq}x${Date.now().toString(36)}`;
};

async function createQm(token: string, payload: Record<string, unknown>): Promise<QuickMessage> {
  const res = await t.inject({ method: 'POST', url: '/api/quick-messages', token, payload: { message: 'Hello!', ...payload } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const list = async (token: string, searchParam: string) =>
  (await t.inject({ method: 'GET', url: `/api/quick-messages?searchParam=${searchParam}`, token })).json() as {
    records: QuickMessage[];
    hasMore: boolean;
  };

describe('quick message visibility', () => {
  it('shows a user their own and the general ones, and an admin every one', async () => {
    const p = code('vis');
    const mine = await createQm(agent.token, { shortcode: `${p}a-mine` });
    const general = await createQm(admin.token, { shortcode: `${p}b-general`, geral: true });
    const adminsOwn = await createQm(admin.token, { shortcode: `${p}c-admin` });
    const othersHidden = await createQm(agent2.token, { shortcode: `${p}d-other`, visao: false });
    expect(mine).toMatchObject({ userId: t.demo.users.acmeAgent, geral: false, visao: true, status: true, isMedia: false });

    const ids = (records: QuickMessage[]) => records.map((record) => record.id);
    expect(ids((await list(agent.token, p)).records)).toEqual([mine.id, general.id]);
    expect(ids((await list(admin.token, p)).records)).toEqual([mine.id, general.id, adminsOwn.id, othersHidden.id]);
    expect(ids((await list(agent2.token, p)).records)).toEqual([general.id, othersHidden.id]);
    // search matches the text too
    await createQm(agent.token, { shortcode: `${p}e-text`, message: `needle ${p}` });
    expect((await list(agent.token, `needle ${p}`)).records).toHaveLength(1);

    expect((await t.inject({ method: 'GET', url: `/api/quick-messages/${general.id}`, token: agent.token })).statusCode).toBe(
      200,
    );
    const hidden = await t.inject({ method: 'GET', url: `/api/quick-messages/${adminsOwn.id}`, token: agent.token });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: 'ERR_NO_QUICK_MESSAGE_FOUND' });
  });

  it('pages by 40', async () => {
    const p = code('page');
    for (let i = 0; i < 41; i += 1) await createQm(agent.token, { shortcode: `${p}${String(i).padStart(2, '0')}` });
    const first = await t.inject({ method: 'GET', url: `/api/quick-messages?searchParam=${p}&pageNumber=1`, token: agent.token });
    expect(first.json().records).toHaveLength(40);
    expect(first.json().hasMore).toBe(true);
    const second = await t.inject({
      method: 'GET',
      url: `/api/quick-messages?searchParam=${p}&pageNumber=2`,
      token: agent.token,
    });
    expect(second.json()).toMatchObject({ hasMore: false });
    expect(second.json().records).toHaveLength(1);
  });

  it("answers the composer's list: active ones the user may use, by shortcode prefix", async () => {
    const p = code('cmp');
    const mine = await createQm(agent.token, { shortcode: `${p}-hello` });
    await createQm(agent.token, { shortcode: `${p}-off`, status: false });
    const general = await createQm(admin.token, { shortcode: `${p}-general`, geral: true });
    await createQm(admin.token, { shortcode: `${p}-adminonly` });
    await createQm(agent.token, { shortcode: `zz${p}`, message: `${p} inside the text` });
    const composer = async (token: string, searchParam: string) =>
      (await t.inject({ method: 'GET', url: `/api/quick-messages/list?searchParam=${encodeURIComponent(searchParam)}`, token }))
        .json()
        .map((record: QuickMessage) => record.shortcode);
    expect(await composer(agent.token, p)).toEqual([general.shortcode, mine.shortcode]);
    expect(await composer(agent.token, `/${p.toUpperCase()}-h`)).toEqual([mine.shortcode]);
    // an admin's composer has their own and the general ones, not other users' private ones
    expect(await composer(admin.token, p)).toEqual([`${p}-adminonly`, general.shortcode]);
  });
});

describe('quick message edit rules', () => {
  it('lets only the owner edit a message with visibility on that is not general (403 for others)', async () => {
    const p = code('edit');
    const privateVisible = await createQm(agent.token, { shortcode: `${p}-pv` });
    const put = (token: string, id: number, payload: Record<string, unknown>) =>
      t.inject({ method: 'PUT', url: `/api/quick-messages/${id}`, token, payload: { message: 'changed', ...payload } });

    const byAdmin = await put(admin.token, privateVisible.id, { shortcode: `${p}-pv` });
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    // another user does not even see it
    expect((await put(agent2.token, privateVisible.id, { shortcode: `${p}-pv` })).statusCode).toBe(404);
    const byOwner = await put(agent.token, privateVisible.id, { shortcode: `${p}-pv2`, status: false });
    expect(byOwner.json()).toMatchObject({ shortcode: `${p}-pv2`, message: 'changed', status: false, visao: true });

    // visibility off: an admin (who sees it) may edit it
    const hiddenOne = await createQm(agent.token, { shortcode: `${p}-hidden`, visao: false });
    expect((await put(admin.token, hiddenOne.id, { shortcode: `${p}-hidden` })).statusCode).toBe(200);
    // a general one: anyone who sees it may edit it
    const general = await createQm(admin.token, { shortcode: `${p}-general`, geral: true });
    const byAgent = await put(agent.token, general.id, { shortcode: `${p}-general`, message: 'edited by agent' });
    expect(byAgent.json()).toMatchObject({ message: 'edited by agent', geral: true, userId: t.demo.users.acmeAdmin });
  });

  it('refuses general without visibility (400 ERR_VALIDATION), on create and on update', async () => {
    const p = code('geral');
    const bad = await t.inject({
      method: 'POST',
      url: '/api/quick-messages',
      token: admin.token,
      payload: { shortcode: p, message: 'x', geral: true, visao: false },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('ERR_VALIDATION');
    const general = await createQm(admin.token, { shortcode: p, geral: true });
    const hideIt = await t.inject({
      method: 'PUT',
      url: `/api/quick-messages/${general.id}`,
      token: admin.token,
      payload: { shortcode: p, message: 'x', visao: false },
    });
    expect(hideIt.statusCode).toBe(400);
    const blank = await t.inject({
      method: 'POST',
      url: '/api/quick-messages',
      token: admin.token,
      payload: { shortcode: '   ', message: 'x' },
    });
    expect(blank.statusCode).toBe(400);
  });

  it('lets the owner or an admin delete, and no one else', async () => {
    const p = code('del');
    const general = await createQm(admin.token, { shortcode: `${p}-g`, geral: true });
    const agents = await createQm(agent.token, { shortcode: `${p}-a`, visao: false });
    const refused = await t.inject({ method: 'DELETE', url: `/api/quick-messages/${general.id}`, token: agent.token });
    expect(refused.statusCode).toBe(403);
    expect((await t.inject({ method: 'DELETE', url: `/api/quick-messages/${agents.id}`, token: admin.token })).statusCode).toBe(
      204,
    );
    expect((await t.inject({ method: 'DELETE', url: `/api/quick-messages/${general.id}`, token: admin.token })).statusCode).toBe(
      204,
    );
    expect((await t.inject({ method: 'GET', url: `/api/quick-messages/${general.id}`, token: admin.token })).statusCode).toBe(
      404,
    );
  });
});

function multipart(fields: Record<string, string>, file: { field: string; name: string; content: Buffer; type: string }) {
  const boundary = `----balcao${Date.now()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('quick message attachments', () => {
  it('stores an upload under quick-messages/<id>/, answers a signed mediaUrl, and removes it', async () => {
    const qm = await createQm(agent.token, { shortcode: code('media') });
    const content = Buffer.from('%PDF-1.4 a tiny file');
    const upload = await t.inject({
      method: 'POST',
      url: `/api/quick-messages/${qm.id}/media-upload`,
      token: agent.token,
      ...multipart(
        { typeArch: 'quickMessage' },
        { field: 'file', name: 'Tabela de preços.pdf', content, type: 'application/pdf' },
      ),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const record = upload.json() as QuickMessage;
    expect(record).toMatchObject({
      id: qm.id,
      isMedia: true,
      mediaName: 'Tabela de preços.pdf',
      mediaPath: `quick-messages/${qm.id}/Tabela_de_precos.pdf`,
    });
    expect(record.mediaUrl).toMatch(/^\/api\/media\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const file = await t.inject({ method: 'GET', url: record.mediaUrl as string });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(content)).toBe(true);
    // the list carries the signed address too
    expect((await t.inject({ method: 'GET', url: `/api/quick-messages/${qm.id}`, token: agent.token })).json().mediaUrl).toMatch(
      /^\/api\/media\//,
    );

    const removed = await t.inject({ method: 'DELETE', url: `/api/quick-messages/${qm.id}/media-upload`, token: agent.token });
    expect(removed.json()).toMatchObject({ isMedia: false, mediaPath: null, mediaName: null, mediaUrl: null });
    expect(await inboxStorage().stat(acme, record.mediaPath as string)).toBeNull();
  });

  it('cleans and shortens a long or odd name before storing, so its link works and nothing is left behind', async () => {
    const qm = await createQm(agent.token, { shortcode: code('long') });
    const long = `${'relatório '.repeat(21)}\u0000.pdf`;
    const upload = await t.inject({
      method: 'POST',
      url: `/api/quick-messages/${qm.id}/media-upload`,
      token: agent.token,
      ...multipart(
        { typeArch: 'quickMessage' },
        { field: 'file', name: long, content: Buffer.from('%PDF-1.4'), type: 'application/pdf' },
      ),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const record = upload.json() as QuickMessage;
    expect(record.mediaName?.endsWith('.pdf')).toBe(true);
    expect(record.mediaName).not.toContain('\u0000');
    expect(Array.from(record.mediaName ?? '').length).toBeLessThanOrEqual(100);
    expect((await t.inject({ method: 'GET', url: record.mediaUrl as string })).statusCode).toBe(200);
    const files = await readdir(path.join(t.config.storageDir, `company${acme}`, 'quick-messages', String(qm.id)));
    expect(files).toEqual([(record.mediaPath as string).split('/').pop()]);
  });

  it('refuses a JSON body, a missing file, and users other than the owner or an admin', async () => {
    const general = await createQm(admin.token, { shortcode: code('mref'), geral: true });
    const json = await t.inject({
      method: 'POST',
      url: `/api/quick-messages/${general.id}/media-upload`,
      token: admin.token,
      payload: {},
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toEqual({ error: 'ERR_UNSUPPORTED_MEDIA_TYPE' });
    const noFile = await t.inject({
      method: 'POST',
      url: `/api/quick-messages/${general.id}/media-upload`,
      token: admin.token,
      ...multipart(
        { typeArch: 'quickMessage' },
        { field: 'other', name: 'a.txt', content: Buffer.from('x'), type: 'text/plain' },
      ),
    });
    expect(noFile.statusCode).toBe(400);
    const byAgent = await t.inject({
      method: 'POST',
      url: `/api/quick-messages/${general.id}/media-upload`,
      token: agent.token,
      ...multipart({}, { field: 'file', name: 'a.txt', content: Buffer.from('x'), type: 'text/plain' }),
    });
    expect(byAgent.statusCode).toBe(403);
    const removeByAgent = await t.inject({
      method: 'DELETE',
      url: `/api/quick-messages/${general.id}/media-upload`,
      token: agent.token,
    });
    expect(removeByAgent.statusCode).toBe(403);
  });
});

function inboxStorage() {
  return inboxCtx(t).storage;
}

describe('quick message realtime', () => {
  it('sends a private message’s events to its owner (and admins) only, a general one to everybody', async () => {
    const url = await baseUrl();
    const ownerSocket = await connectSocket(url, acme, agent.token);
    const otherSocket = await connectSocket(url, acme, agent2.token);
    const adminSocket = await connectSocket(url, acme, admin.token);
    sockets.push(ownerSocket, otherSocket, adminSocket);
    const channel = `company-${acme}-quickemessage`;
    const othersLog = recordEvents(otherSocket);
    const p = code('rt');

    const toOwner = nextEvent<QuickMessageEvent>(ownerSocket, channel, (e) => e.action === 'create');
    const toAdmin = nextEvent<QuickMessageEvent>(adminSocket, channel, (e) => e.action === 'create');
    const privateOne = await createQm(agent.token, { shortcode: `${p}-private` });
    expect(await toOwner).toEqual({ action: 'create', record: privateOne });
    expect(await toAdmin).toEqual({ action: 'create', record: privateOne });

    const generalToOther = nextEvent<QuickMessageEvent>(
      otherSocket,
      channel,
      (e) => e.action === 'create' && e.record.shortcode === `${p}-general`,
    );
    await createQm(agent.token, { shortcode: `${p}-general`, geral: true });
    await generalToOther;
    // the general one came after the private one: the other user never got the private one
    const seen = othersLog
      .filter((entry) => entry.event === channel)
      .map((entry) => (entry.payload as { record: QuickMessage }).record.shortcode);
    expect(seen).toEqual([`${p}-general`]);

    const deleted = nextEvent<QuickMessageEvent>(ownerSocket, channel, (e) => e.action === 'delete');
    await t.inject({ method: 'DELETE', url: `/api/quick-messages/${privateOne.id}`, token: agent.token });
    expect(await deleted).toEqual({ action: 'delete', id: privateOne.id });
  });
});

describe('cross-tenant', () => {
  it("refuses another company's admin every quick message call with A's ids", async () => {
    const general = await createQm(admin.token, { shortcode: code('xt'), message: 'Acme secret reply', geral: true });
    for (const call of [
      { method: 'GET', url: `/api/quick-messages/${general.id}` },
      { method: 'PUT', url: `/api/quick-messages/${general.id}`, payload: { shortcode: 'hack', message: 'hack' } },
      { method: 'DELETE', url: `/api/quick-messages/${general.id}/media-upload` },
      { method: 'DELETE', url: `/api/quick-messages/${general.id}` },
    ] as const) {
      const res = await t.inject({ ...call, token: liteAdmin.token });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(404);
    }
    for (const url of ['/api/quick-messages', '/api/quick-messages/list']) {
      expect((await t.inject({ method: 'GET', url, token: liteAdmin.token })).body).not.toContain('Acme secret reply');
    }
    expect(
      (await t.inject({ method: 'GET', url: `/api/quick-messages/${general.id}`, token: admin.token })).json(),
    ).toMatchObject({
      message: 'Acme secret reply',
    });
  });
});
