import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionShape } from '../../../shared/connection';
import { ChannelsKit, type KitUser } from '../../testing/kit';
import { requireDefaultConnection } from '../index';
import { CONNECTION_TOKEN_PATTERN } from '../token';

/**
 * The connection routes of the session's company (docs/product/administration.md#calls-and-realtime-events Connections): access per profile,
 * plan flags and limit, the default rules, the docs/product/administration.md#validation, tenant isolation and the token.
 */
let t: TestApp;
let kit: ChannelsKit;
beforeAll(async () => {
  t = await createTestApp();
  kit = new ChannelsKit(t);
});
afterAll(async () => t?.close());

const create = (user: KitUser, body: Record<string, unknown>) => kit.call(user, 'POST', '/whatsapp', body);

describe('GET /whatsapp', () => {
  it("lists the session's company's connections with their queues; another company's companyId is refused", async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const other = await kit.companyWithPlan();
    const queueId = await kit.queue(companyId, 'Vendas', '#112233');
    const mine = await kit.connection(companyId, { name: 'Site', queueIds: [queueId] });
    await kit.connection(other.companyId, { name: 'Not mine' });
    for (const path of ['/whatsapp', '/whatsapp/', `/whatsapp/?session=0&companyId=${companyId}`]) {
      const { status, body } = await kit.call(admin, 'GET', path);
      expect(status).toBe(200);
      expect(body.map((connection: ConnectionShape) => connection.id)).toEqual([mine]);
      expect(body[0]).toMatchObject({ queueIds: [queueId], queues: [{ id: queueId, name: 'Vendas', color: '#112233' }] });
      expect(body[0]).not.toHaveProperty('session');
    }
    expect(await kit.call(admin, 'GET', `/whatsapp/?companyId=${other.companyId}`)).toEqual({
      status: 404,
      body: { error: 'ERR_NO_COMPANY_FOUND' },
    });
    const withSession = await kit.call(admin, 'GET', '/whatsapp?session=1');
    expect(withSession.body[0].session).toBeNull();
  });

  it('answers every field of docs/product/administration.md#entities with the defaults of #constants-and-limits', async () => {
    const { admin } = await kit.companyWithPlan();
    const { status, body } = await create(admin, { name: 'Site', channel: 'webchat' });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      name: 'Site',
      number: '',
      channel: 'webchat',
      status: 'DISCONNECTED',
      isDefault: true,
      allowGroup: false,
      groupAsTicket: 'disabled',
      maxUseBotQueues: 3,
      maxUseBotQueuesNPS: 3,
      timeUseBotQueues: 0,
      expiresTicket: 0,
      expiresTicketNPS: 0,
      timeInactiveMessage: 0,
      timeCreateNewTicket: 0,
      timeSendQueue: 0,
      whenExpiresTicket: 0,
      sendIdQueue: null,
      provider: 'beta',
      retries: 0,
      qrcode: '',
      queueIds: [],
      queues: [],
      greetingMediaAttachment: null,
      greetingMediaUrl: null,
      importOldMessages: null,
      statusImportMessages: null,
      lgpdMessage: '',
    });
    expect(body.token).toMatch(CONNECTION_TOKEN_PATTERN);
    expect(body.schedules).toHaveLength(7);
    expect(body.schedules[1]).toEqual({
      weekday: 'Segunda-feira',
      weekdayEn: 'monday',
      startTimeA: '08:00',
      endTimeA: '12:00',
      startTimeB: '13:00',
      endTimeB: '18:00',
    });
    expect(new Date(body.updatedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('filters by channel and reads one connection', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const site = await kit.connection(companyId, { name: 'Site', channel: 'webchat' });
    const phone = await kit.connection(companyId, { name: 'Phone', channel: 'whatsapp' });
    const filtered = await kit.call(admin, 'GET', '/whatsapp/filter?channel=whatsapp&session=0');
    expect(filtered.body.map((connection: ConnectionShape) => connection.id)).toEqual([phone]);
    const all = await kit.call(admin, 'GET', '/whatsapp/filter');
    expect(all.body).toHaveLength(2);
    const one = await kit.call(admin, 'GET', `/whatsapp/${site}?session=1`);
    expect(one.body).toMatchObject({ id: site, name: 'Site', session: null });
    expect((await kit.call(admin, 'GET', '/whatsapp/filter?channel=telegram')).body.error).toBe('ERR_VALIDATION');
  });
});

describe('access (docs/product/roles-and-permissions.md#roles-in-the-inbox)', () => {
  it('lets admins, super users and users with allowConnections read and write, and refuses other users', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const connectionId = await kit.connection(companyId, { name: 'Site', isDefault: true });
    const allowed = await kit.user(companyId, 'user', { allowConnections: true });
    const superUser = await kit.user(companyId, 'user', { super: true });
    const plain = await kit.user(companyId, 'user');
    for (const user of [admin, allowed, superUser]) {
      expect((await kit.call(user, 'GET', '/whatsapp')).status).toBe(200);
      expect((await kit.call(user, 'GET', `/whatsapp/${connectionId}`)).status).toBe(200);
      expect((await kit.call(user, 'PUT', `/whatsapp/${connectionId}`, { greetingMessage: 'Olá' })).status).toBe(200);
    }
    const created = await create(allowed, { name: 'By a user', channel: 'webchat' });
    expect(created.status).toBe(201);
    expect((await kit.call(allowed, 'DELETE', `/whatsapp/${created.body.id}`)).status).toBe(204);
    // the tickets screen's dialogs list connections for everyone: a plain user gets what picks one, no secret
    for (const path of ['/whatsapp', '/whatsapp/filter']) {
      const listed = await kit.call(plain, 'GET', path);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([
        { id: connectionId, name: 'Site', channel: 'webchat', status: expect.any(String), isDefault: true },
      ]);
    }
    const refusals = [
      await kit.call(plain, 'GET', `/whatsapp/${connectionId}`),
      await create(plain, { name: 'Nope', channel: 'webchat' }),
      await kit.call(plain, 'PUT', `/whatsapp/${connectionId}`, { name: 'Nope' }),
      await kit.call(plain, 'DELETE', `/whatsapp/${connectionId}`),
      await kit.call(plain, 'POST', `/whatsapp/${connectionId}/token`),
      await kit.call(plain, 'POST', `/whatsappsession/${connectionId}`),
      await kit.call(plain, 'POST', '/whatsapp-restart/'),
      await kit.call(plain, 'DELETE', `/whatsapp/${connectionId}/media-upload`),
    ];
    for (const refusal of refusals) expect(refusal).toEqual({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await kit.call(null, 'GET', '/whatsapp')).status).toBe(401);
    expect(await kit.row(connectionId)).toMatchObject({ name: 'Site' });
  });
});

describe('tenant isolation', () => {
  it("answers 404 ERR_NO_WAPP_FOUND for another company's connection on every route and changes nothing", async () => {
    const mine = await kit.companyWithPlan();
    const theirs = await kit.companyWithPlan();
    const foreign = await kit.connection(theirs.companyId, { name: 'Theirs', isDefault: true });
    const before = await kit.row(foreign);
    const calls = [
      await kit.call(mine.admin, 'GET', `/whatsapp/${foreign}`),
      await kit.call(mine.admin, 'PUT', `/whatsapp/${foreign}`, { name: 'Taken' }),
      await kit.call(mine.admin, 'DELETE', `/whatsapp/${foreign}`),
      await kit.call(mine.admin, 'POST', `/whatsapp/${foreign}/token`),
      await kit.call(mine.admin, 'DELETE', `/whatsapp/${foreign}/media-upload`),
      await kit.call(mine.admin, 'POST', `/whatsappsession/${foreign}`),
      await kit.call(mine.admin, 'PUT', `/whatsappsession/${foreign}`),
      await kit.call(mine.admin, 'DELETE', `/whatsappsession/${foreign}`),
      await kit.call(mine.admin, 'GET', '/whatsapp/999999'),
    ];
    for (const call of calls) expect(call).toEqual({ status: 404, body: { error: 'ERR_NO_WAPP_FOUND' } });
    expect(await kit.row(foreign)).toEqual(before);
  });

  it("refuses another company's queues (404 ERR_NO_QUEUE_FOUND)", async () => {
    const mine = await kit.companyWithPlan();
    const theirs = await kit.companyWithPlan();
    const foreignQueue = await kit.queue(theirs.companyId);
    expect((await create(mine.admin, { name: 'Site', channel: 'webchat', queueIds: [foreignQueue] })).body.error).toBe(
      'ERR_NO_QUEUE_FOUND',
    );
    const connectionId = await kit.connection(mine.companyId, { isDefault: true });
    for (const body of [
      { queueIds: [foreignQueue] },
      { sendIdQueue: foreignQueue, timeSendQueue: 5 },
      { queueIdImportMessages: foreignQueue },
    ]) {
      expect(await kit.call(mine.admin, 'PUT', `/whatsapp/${connectionId}`, body)).toEqual({
        status: 404,
        body: { error: 'ERR_NO_QUEUE_FOUND' },
      });
    }
    expect(await kit.knex('whatsappQueues').where({ whatsappId: connectionId })).toEqual([]);
  });
});

describe('plan flags and limit', () => {
  it('refuses a channel the plan lacks (403 ERR_PLAN_FEATURE_DISABLED); webchat needs no flag', async () => {
    const { admin } = await kit.companyWithPlan({ flags: { useWhatsapp: false, useFacebook: false, useInstagram: false } });
    for (const channel of ['whatsapp', 'whatsappapi', 'facebook', 'instagram']) {
      expect(await create(admin, { name: 'Nope', channel })).toEqual({
        status: 403,
        body: { error: 'ERR_PLAN_FEATURE_DISABLED' },
      });
    }
    expect((await create(admin, { name: 'Site', channel: 'webchat' })).status).toBe(201);
    const allowed = await kit.companyWithPlan({ flags: { useFacebook: false, useInstagram: false } });
    expect((await create(allowed.admin, { name: 'Phone', channel: 'whatsapp' })).status).toBe(201);
    expect((await create(allowed.admin, { name: 'Page', channel: 'facebook' })).body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
  });

  it("stops at the plan's connections, also when created at once", async () => {
    const { admin } = await kit.companyWithPlan({ connections: 2 });
    const answers = await Promise.all(['One', 'Two', 'Three', 'Four'].map((name) => create(admin, { name, channel: 'webchat' })));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(2);
    const refused = answers.filter((answer) => answer.status !== 201);
    for (const answer of refused) expect(answer).toEqual({ status: 403, body: { error: 'ERR_CONNECTION_PLAN_LIMIT', limit: 2 } });
    // the concurrent creations still left exactly one default
    const listed = await kit.call(admin, 'GET', '/whatsapp');
    expect(listed.body.filter((connection: ConnectionShape) => connection.isDefault)).toHaveLength(1);
  });
});

describe('the default connection', () => {
  it('makes the first default, moves the default on request, and refuses to unset it', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const first = (await create(admin, { name: 'First', channel: 'webchat', isDefault: false })).body;
    expect(first.isDefault).toBe(true);
    const second = (await create(admin, { name: 'Second', channel: 'webchat' })).body;
    expect(second.isDefault).toBe(false);
    const third = (await create(admin, { name: 'Third', channel: 'webchat', isDefault: true })).body;
    expect(third.isDefault).toBe(true);
    const defaults = () => kit.knex('whatsapps').where({ companyId, isDefault: true }).pluck('id');
    expect(await defaults()).toEqual([third.id]);
    expect((await kit.call(admin, 'PUT', `/whatsapp/${second.id}`, { isDefault: true })).body.isDefault).toBe(true);
    expect(await defaults()).toEqual([second.id]);
    expect(await kit.call(admin, 'PUT', `/whatsapp/${second.id}`, { isDefault: false })).toEqual({
      status: 400,
      body: { error: 'ERR_NO_OTHER_WHATSAPP' },
    });
    // unsetting a non-default one changes nothing
    expect((await kit.call(admin, 'PUT', `/whatsapp/${first.id}`, { isDefault: false })).status).toBe(200);
    expect(await defaults()).toEqual([second.id]);
  });

  it('is found by requireDefaultConnection, or 404 ERR_NO_DEF_WAPP_FOUND when the company has none', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    await expect(requireDefaultConnection(kit.ctx, companyId)).rejects.toMatchObject({
      code: 'ERR_NO_DEF_WAPP_FOUND',
      status: 404,
    });
    const created = (await create(admin, { name: 'Site', channel: 'webchat' })).body;
    expect(await requireDefaultConnection(kit.ctx, companyId)).toMatchObject({ id: created.id, isDefault: true });
  });

  it('hands the default to the oldest remaining connection when the default is deleted', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const first = (await create(admin, { name: 'First', channel: 'webchat' })).body;
    const second = (await create(admin, { name: 'Second', channel: 'webchat' })).body;
    const third = (await create(admin, { name: 'Third', channel: 'webchat', isDefault: true })).body;
    expect((await kit.call(admin, 'DELETE', `/whatsapp/${third.id}`)).status).toBe(204);
    expect(await kit.knex('whatsapps').where({ companyId, isDefault: true }).pluck('id')).toEqual([first.id]);
    expect((await kit.call(admin, 'DELETE', `/whatsapp/${second.id}`)).status).toBe(204);
    expect((await kit.call(admin, 'DELETE', `/whatsapp/${first.id}`)).status).toBe(204);
    expect(await kit.knex('whatsapps').where({ companyId })).toEqual([]);
  });
});

describe('validations (docs/product/administration.md#validation)', () => {
  it('checks the name, the numbers and the fields by schema', async () => {
    const { admin } = await kit.companyWithPlan();
    for (const body of [
      { name: 'A', channel: 'webchat' },
      { name: 'x'.repeat(51), channel: 'webchat' },
      { name: 'Site', channel: 'telegram' },
      { name: 'Site', channel: 'webchat', maxUseBotQueues: -1 },
      { name: 'Site', channel: 'webchat', whenExpiresTicket: 2 },
      { name: 'Site', channel: 'webchat', token: 'a'.repeat(30) },
      { name: 'Site', channel: 'webchat', status: 'CONNECTED' },
      { name: 'Site', channel: 'webchat', collectiveVacationStart: '2025-02-30' },
      { channel: 'webchat' },
    ]) {
      const answer = await create(admin, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toBe('ERR_VALIDATION');
    }
    expect((await create(admin, { name: '   A   ', channel: 'webchat' })).body).toMatchObject({
      error: 'ERR_VALIDATION',
      details: [{ field: 'body.name' }],
    });
    expect((await create(admin, { name: '  Site  ', channel: 'webchat' })).body.name).toBe('Site');
  });

  it('requires a rating message and an NPS expiry when ratings are on', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const connectionId = (await create(admin, { name: 'Site', channel: 'webchat', ratingMessage: '' })).body.id;
    await kit.setting(companyId, 'userRating', 'enabled');
    const put = (body: Record<string, unknown>) => kit.call(admin, 'PUT', `/whatsapp/${connectionId}`, body);
    expect((await put({ ratingMessage: '  ', expiresTicketNPS: 10 })).body.error).toBe('ERR_RATING_MESSAGE_REQUIRED');
    expect((await put({ ratingMessage: 'Nota de 0 a 10?' })).body.error).toBe('ERR_EXPIRES_NPS_REQUIRED');
    expect((await put({ ratingMessage: 'Nota de 0 a 10?', expiresTicketNPS: 10 })).status).toBe(200);
    // a change that doesn't touch the rating tab isn't held by it
    expect((await put({ greetingMessage: 'Olá' })).status).toBe(200);
    expect((await create(admin, { name: 'Two', channel: 'webchat' })).body.error).toBe('ERR_RATING_MESSAGE_REQUIRED');
  });

  it('pairs timeSendQueue with sendIdQueue', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const queueId = await kit.queue(companyId);
    expect((await create(admin, { name: 'Site', channel: 'webchat', timeSendQueue: 5 })).body.error).toBe(
      'ERR_SEND_QUEUE_REQUIRED',
    );
    expect((await create(admin, { name: 'Site', channel: 'webchat', sendIdQueue: queueId })).body.error).toBe(
      'ERR_SEND_QUEUE_REQUIRED',
    );
    const created = await create(admin, { name: 'Site', channel: 'webchat', sendIdQueue: queueId, timeSendQueue: 5 });
    expect(created.body).toMatchObject({ sendIdQueue: queueId, timeSendQueue: 5 });
    expect((await kit.call(admin, 'PUT', `/whatsapp/${created.body.id}`, { timeSendQueue: 0 })).body.error).toBe(
      'ERR_SEND_QUEUE_REQUIRED',
    );
    expect((await kit.call(admin, 'PUT', `/whatsapp/${created.body.id}`, { timeSendQueue: 0, sendIdQueue: null })).status).toBe(
      200,
    );
  });

  it('requires vacation dates with a vacation message, the end not before the start', async () => {
    const { admin } = await kit.companyWithPlan();
    const base = { name: 'Site', channel: 'webchat', collectiveVacationMessage: 'Férias coletivas' };
    expect((await create(admin, base)).body.error).toBe('ERR_VACATION_DATES_REQUIRED');
    expect((await create(admin, { ...base, collectiveVacationStart: '2026-12-20' })).body.error).toBe(
      'ERR_VACATION_DATES_REQUIRED',
    );
    expect(
      (await create(admin, { ...base, collectiveVacationStart: '2026-12-20', collectiveVacationEnd: '2026-12-19' })).body.error,
    ).toBe('ERR_VACATION_DATES_INVALID');
    const created = await create(admin, { ...base, collectiveVacationStart: '2026-12-20', collectiveVacationEnd: '2027-01-05' });
    expect(created.body).toMatchObject({ collectiveVacationStart: '2026-12-20', collectiveVacationEnd: '2027-01-05' });
  });

  it('keeps the import window within two years back and today', async () => {
    const { admin } = await kit.companyWithPlan();
    const connectionId = (await create(admin, { name: 'Phone', channel: 'whatsapp' })).body.id;
    const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
    const put = (body: Record<string, unknown>) => kit.call(admin, 'PUT', `/whatsapp/${connectionId}`, body);
    for (const window of [
      { importOldMessages: day(-800), importRecentMessages: day(-1) },
      { importOldMessages: day(1), importRecentMessages: day(2) },
      { importOldMessages: day(-10), importRecentMessages: day(-11) },
      { importOldMessages: day(-10), importRecentMessages: day(3) },
      { importOldMessages: day(-10) },
      { importRecentMessages: day(-10) },
    ]) {
      expect(await put(window), JSON.stringify(window)).toEqual({ status: 400, body: { error: 'ERR_IMPORT_DATES_INVALID' } });
    }
    expect((await put({ importOldMessages: day(-700), importRecentMessages: day(0) })).status).toBe(200);
    expect((await put({ importOldMessages: null, importRecentMessages: null })).status).toBe(200);
  });

  it('requires a greeting with more than one queue, and a valid week', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const queues = [await kit.queue(companyId), await kit.queue(companyId)];
    expect((await create(admin, { name: 'Site', channel: 'webchat', queueIds: queues })).body.error).toBe(
      'ERR_WAPP_GREETING_REQUIRED',
    );
    const created = await create(admin, { name: 'Site', channel: 'webchat', queueIds: queues, greetingMessage: 'Escolha:' });
    expect([...created.body.queueIds].sort()).toEqual([...queues].sort());
    const closedSunday = { weekday: 'x', weekdayEn: 'sunday', startTimeA: '', endTimeA: '', startTimeB: '', endTimeB: '' };
    const saved = await kit.call(admin, 'PUT', `/whatsapp/${created.body.id}`, { schedules: [closedSunday] });
    expect(saved.body.schedules).toEqual([{ ...closedSunday, weekday: 'Domingo' }]);
    expect(
      await kit.call(admin, 'PUT', `/whatsapp/${created.body.id}`, {
        schedules: [{ ...closedSunday, startTimeA: '12:00', endTimeA: '08:00' }],
      }),
    ).toEqual({ status: 400, body: { error: 'ERR_INVALID_SCHEDULE', weekdayEn: 'sunday' } });
    expect((await kit.call(admin, 'PUT', `/whatsapp/${created.body.id}`, { integrationId: 1 })).body.error).toBe(
      'ERR_NO_INTEGRATION_FOUND',
    );
  });

  it('updates partially and replaces the queues', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const [one, two] = [await kit.queue(companyId), await kit.queue(companyId)];
    const created = (await create(admin, { name: 'Site', channel: 'webchat', queueIds: [one], greetingMessage: 'Oi' })).body;
    const updated = await kit.call(admin, 'PUT', `/whatsapp/${created.id}`, {
      name: 'Chat',
      queueIds: [two],
      allowGroup: true,
      groupAsTicket: 'enabled',
      timeInactiveMessage: 15,
      inactiveMessage: 'Ainda aí?',
      lgpdMessage: 'Aceita?',
    });
    expect(updated.body).toMatchObject({
      name: 'Chat',
      queueIds: [two],
      greetingMessage: 'Oi',
      allowGroup: true,
      groupAsTicket: 'enabled',
      timeInactiveMessage: 15,
      lgpdMessage: 'Aceita?',
      token: created.token,
    });
    // the connections service sees the change at once
    const profile = await kit.ctx.services.use('connections').profile(companyId, created.id);
    expect(profile).toMatchObject({ name: 'Chat', queueIds: [two], inactiveMessage: 'Ainda aí?' });
  });
});

describe('the token', () => {
  it('is 30 alphanumerics, unique, and regenerates', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const tokens = new Set<string>();
    for (const name of ['One', 'Two', 'Three']) tokens.add((await create(admin, { name, channel: 'webchat' })).body.token);
    expect(tokens.size).toBe(3);
    for (const token of tokens) expect(token).toMatch(CONNECTION_TOKEN_PATTERN);
    const connectionId = await kit.connection(companyId);
    const before = (await kit.row(connectionId))?.token;
    const regenerated = await kit.call(admin, 'POST', `/whatsapp/${connectionId}/token`);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.token).toMatch(CONNECTION_TOKEN_PATTERN);
    expect(regenerated.body.token).not.toBe(before);
    expect((await kit.row(connectionId))?.token).toBe(regenerated.body.token);
  });
});

describe('DELETE /whatsapp/:whatsappId', () => {
  it('removes the connection and its queue links but keeps its tickets', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const queueId = await kit.queue(companyId);
    const connectionId = await kit.connection(companyId, { queueIds: [queueId], isDefault: true });
    const [contact] = await kit.knex('contacts').insert({ companyId, name: 'Cliente', number: '5511999990000' }).returning('id');
    const [ticket] = await kit
      .knex('tickets')
      .insert({ companyId, contactId: contact.id, status: 'open', whatsappId: connectionId, lastMessage: 'Oi' })
      .returning('id');
    expect((await kit.call(admin, 'DELETE', `/whatsapp/${connectionId}`)).status).toBe(204);
    expect(await kit.row(connectionId)).toBeUndefined();
    expect(await kit.knex('whatsappQueues').where({ whatsappId: connectionId })).toEqual([]);
    expect(await kit.knex('tickets').where({ id: ticket.id }).first('whatsappId')).toEqual({ whatsappId: connectionId });
    expect(await kit.ctx.services.use('connections').profile(companyId, connectionId)).toBeNull();
  });
});
