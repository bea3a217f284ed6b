import { connectSocket, nextEvent } from '@balcao/plugin-sdk/testing';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartFile, numbers, type SchedulesKit, schedulesKit } from '../testing/kit';

/**
 * The schedules' routes: the dialog's rules on the server (docs/product/automation.md#schedules), ids of
 * the company only, the plan gate, the media upload checked by content, the realtime channel spelled
 * `company{id}-schedule`, and a schedule sent end to end through the loopback channel.
 */
let kit: SchedulesKit;
const sockets: Socket[] = [];
beforeAll(async () => {
  kit = await schedulesKit();
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await kit?.close();
});

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe('schedule rules', () => {
  it('creates, lists by range and contact, edits and deletes a schedule', async () => {
    const [contactId] = await kit.contacts(numbers(1, '55479'));
    const created = await kit.api('POST', '/schedules', { body: 'Lembrete', sendAt: inAnHour(), contactId });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      body: 'Lembrete',
      contactId,
      contact: { id: contactId, name: expect.stringMatching(/^Pessoa/) },
      status: 'PENDENTE',
      whatsappId: kit.whatsappId,
      intervalo: 1,
      valorIntervalo: 0,
      enviarQuantasVezes: 1,
      tipoDias: 4,
      openTicket: 'disabled',
      statusTicket: 'closed',
      assinar: false,
      sentCount: 0,
      sentAt: null,
    });
    const id = created.body.id as number;

    const byContact = await kit.api('GET', `/schedules?contactId=${contactId}`);
    expect(byContact.body).toMatchObject({ count: 1, hasMore: false, schedules: [{ id }] });
    const start = new Date(Date.now() + 30 * 60_000).toISOString();
    const end = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const inRange = await kit.api('GET', `/schedules?start=${start}&end=${end}&searchParam=lembr`);
    expect(inRange.body.schedules.map((s: { id: number }) => s.id)).toContain(id);
    const outOfRange = await kit.api('GET', `/schedules?start=${end}`);
    expect(outOfRange.body.schedules.map((s: { id: number }) => s.id)).not.toContain(id);

    const edited = await kit.api('PUT', `/schedules/${id}`, {
      body: 'Lembrete mensal',
      sendAt: inAnHour(),
      contactId,
      intervalo: 3,
      valorIntervalo: 1,
      enviarQuantasVezes: 3,
      tipoDias: 5,
      openTicket: 'enabled',
      statusTicket: 'open',
      ticketUserId: kit.t.demo.users.acmeAdmin,
      assinar: true,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ body: 'Lembrete mensal', intervalo: 3, valorIntervalo: 1, tipoDias: 5, assinar: true });
    expect(edited.body.ticketUserId).toBe(kit.t.demo.users.acmeAdmin);

    expect((await kit.api('DELETE', `/schedules/${id}`)).status).toBe(204);
    expect(await kit.api('GET', `/schedules/${id}`)).toMatchObject({ status: 404, body: { error: 'ERR_NO_SCHEDULE_FOUND' } });
  });

  it('refuses a past time, bad fields and a contact without a number, naming them', async () => {
    const [contactId] = await kit.contacts(numbers(1, '55478'));
    const past = await kit.api('POST', '/schedules', {
      body: 'Tarde demais',
      sendAt: new Date(Date.now() - 3_600_000).toISOString(),
      contactId,
    });
    expect(past).toMatchObject({ status: 400, body: { error: 'ERR_SCHEDULE_DATE_PAST' } });
    const noBody = await kit.api('POST', '/schedules', { body: '', sendAt: inAnHour(), contactId });
    expect(noBody).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    const badDate = await kit.api('POST', '/schedules', { body: 'x', sendAt: '31/12/2030 10:00', contactId });
    expect(badDate).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    const badUnit = await kit.api('POST', '/schedules', { body: 'x', sendAt: inAnHour(), contactId, intervalo: 9 });
    expect(badUnit).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    const tooMany = await kit.api('POST', '/schedules', { body: 'x', sendAt: inAnHour(), contactId, enviarQuantasVezes: 1000 });
    expect(tooMany).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });

    const [webchat] = await kit
      .knex('contacts')
      .insert({ companyId: kit.companyId, name: 'Visitante', number: null, channel: 'webchat' })
      .returning('id');
    const noNumber = await kit.api('POST', '/schedules', { body: 'x', sendAt: inAnHour(), contactId: webchat.id });
    expect(noNumber).toMatchObject({ status: 400, body: { error: 'ERR_SCHEDULE_CONTACT_NO_NUMBER' } });
    const unknown = await kit.api('POST', '/schedules', { body: 'x', sendAt: inAnHour(), contactId: 2_000_000_000 });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'ERR_NO_CONTACT_FOUND' } });
  });

  it("refuses, at save time, a send outside a Meta channel's 24-hour reply window, and any repeat there", async () => {
    const { knex, companyId } = kit;
    const [cloud] = await knex('whatsapps')
      .insert({
        companyId,
        name: 'Cloud API',
        channel: 'whatsappapi',
        status: 'CONNECTED',
        token: `cloud${Date.now()}`.slice(0, 30),
      })
      .returning('id');
    const [talked, silent] = await kit.contacts(numbers(2, '55475'));
    const [ticket] = await knex('tickets')
      .insert({ companyId, contactId: talked, whatsappId: cloud.id, status: 'open', channel: 'whatsappapi' })
      .returning('id');
    await knex('messages').insert({
      companyId,
      ticketId: ticket.id,
      contactId: talked,
      whatsappId: cloud.id,
      body: 'Oi, podem me lembrar amanhã?',
      fromMe: false,
      createdAt: new Date(Date.now() - 2 * 3_600_000),
    });
    const at = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    const inside = await kit.api('POST', '/schedules', {
      body: 'Lembrete',
      sendAt: at(3),
      contactId: talked,
      whatsappId: cloud.id,
    });
    expect(inside.status).toBe(200);
    const late = await kit.api('POST', '/schedules', {
      body: 'Lembrete',
      sendAt: at(23),
      contactId: talked,
      whatsappId: cloud.id,
    });
    expect(late).toMatchObject({ status: 400, body: { error: 'ERR_SCHEDULE_OUTSIDE_WINDOW', channel: 'whatsappapi' } });
    const repeated = await kit.api('POST', '/schedules', {
      body: 'Lembrete',
      sendAt: at(3),
      contactId: talked,
      whatsappId: cloud.id,
      valorIntervalo: 1,
      enviarQuantasVezes: 2,
    });
    expect(repeated).toMatchObject({ status: 400, body: { error: 'ERR_SCHEDULE_OUTSIDE_WINDOW' } });
    const never = await kit.api('POST', '/schedules', {
      body: 'Lembrete',
      sendAt: at(1),
      contactId: silent,
      whatsappId: cloud.id,
    });
    expect(never).toMatchObject({ status: 400, body: { error: 'ERR_SCHEDULE_OUTSIDE_WINDOW', windowClosesAt: null } });
    // a channel without a window takes any time
    const loopback = await kit.api('POST', '/schedules', { body: 'Lembrete', sendAt: at(72), contactId: silent });
    expect(loopback.status).toBe(200);
  });

  it('declares ERR_SCHEDULE_OUTSIDE_WINDOW among the 400s of create and edit in the OpenAPI document', async () => {
    const doc = (await kit.t.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const created = JSON.stringify(doc.paths['/schedules'].post.responses['400']);
    const edited = JSON.stringify(doc.paths['/schedules/{id}'].put.responses['400']);
    expect(created).toContain('ERR_SCHEDULE_OUTSIDE_WINDOW');
    expect(edited).toContain('ERR_SCHEDULE_OUTSIDE_WINDOW');
  });

  it('is refused to a company whose plan lacks useSchedules', async () => {
    const lite = await kit.t.login('admin@lite.test');
    const res = await kit.api('GET', '/schedules', undefined, lite.token);
    expect(res).toMatchObject({ status: 403, body: { error: 'ERR_PLAN_FEATURE_DISABLED' } });
  });

  it('takes an attachment by its content, not its name', async () => {
    const [contactId] = await kit.contacts(numbers(1, '55477'));
    const created = await kit.api('POST', '/schedules', { body: 'Com anexo', sendAt: inAnHour(), contactId });
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const upload = await kit.t.inject({
      method: 'POST',
      url: `/api/schedules/${created.body.id}/media-upload`,
      token: kit.adminToken,
      ...multipartFile({ name: 'foto.png', type: 'image/png', data: png }),
    });
    expect(upload.statusCode).toBe(200);
    expect(upload.json()).toMatchObject({ mediaName: 'foto.png', mediaUrl: expect.any(String) });
    const fake = await kit.t.inject({
      method: 'POST',
      url: `/api/schedules/${created.body.id}/media-upload`,
      token: kit.adminToken,
      ...multipartFile({ name: 'foto.png', type: 'image/png', data: Buffer.from('#!/bin/sh\necho not an image\n') }),
    });
    expect(fake.statusCode).toBe(415);
    expect(fake.json()).toEqual({ error: 'ERR_SCHEDULE_MEDIA_TYPE' });
    const removed = await kit.api('DELETE', `/schedules/${created.body.id}/media-upload`);
    expect(removed.body).toMatchObject({ mediaName: null, mediaPath: null, mediaUrl: null });
  });
});

describe('sending', () => {
  it('sends a due schedule once through the channel, on the contact ticket, and tells company{id}-schedule', async () => {
    const url = await kit.t.listen();
    const socket = await connectSocket(url, kit.companyId, kit.userToken);
    sockets.push(socket);
    const channel = `company${kit.companyId}-schedule`;
    const [number] = numbers(1, '55476');
    const [contactId] = await kit.contacts([number as string]);
    const created = nextEvent<{ action: string; schedule: { id: number } }>(socket, channel, (p) => p.action === 'create');
    const res = await kit.api('POST', '/schedules', {
      body: 'Chegou a hora',
      sendAt: new Date().toISOString(),
      contactId,
      assinar: true,
      openTicket: 'enabled',
      statusTicket: 'open',
      ticketUserId: kit.t.demo.users.acmeAdmin,
    });
    expect(res.status).toBe(200);
    expect((await created).schedule.id).toBe(res.body.id);
    const sent = nextEvent<{ action: string; schedule: { id: number; status: string } }>(
      socket,
      channel,
      (p) => p.action === 'update' && p.schedule.status === 'ENVIADA',
      20_000,
    );
    await kit.provider.waitFor(() => kit.provider.messages.some((m) => m.to === number), 20_000);
    expect((await sent).schedule.id).toBe(res.body.id);

    const message = kit.provider.messages.find((m) => m.to === number);
    const admin = await kit.knex('users').where({ id: kit.t.demo.users.acmeAdmin }).first('name');
    expect(message?.body).toBe(`*${admin.name}:*\nChegou a hora`);
    const stored = await kit.api('GET', `/schedules/${res.body.id}`);
    expect(stored.body).toMatchObject({ status: 'ENVIADA', sentCount: 1, sentAt: expect.any(String) });
    const ticket = await kit.knex('tickets').where({ id: stored.body.ticketId }).first('status', 'userId', 'contactId');
    expect(ticket).toMatchObject({ status: 'open', userId: kit.t.demo.users.acmeAdmin, contactId });
    const messages = await kit.knex('messages').where({ companyId: kit.companyId, contactId }).count({ n: '*' });
    expect(Number(messages[0]?.n)).toBe(1);
    expect(kit.provider.messages.filter((m) => m.to === number)).toHaveLength(1);
  });
});
