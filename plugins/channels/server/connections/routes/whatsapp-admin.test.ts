import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionOfCompany } from '../../../shared/connection';
import { ChannelsKit } from '../../testing/kit';

/** The super user's routes (docs/product/administration.md#all-connections, #calls-and-realtime-events): every company's connections. */
let t: TestApp;
let kit: ChannelsKit;
beforeAll(async () => {
  t = await createTestApp();
  kit = new ChannelsKit(t);
});
afterAll(async () => t?.close());

describe('GET /whatsapp/all/ and GET /whatsapp-admin/:whatsappId', () => {
  it("show any company's connections to a super user, with the company's id and name", async () => {
    const one = await kit.companyWithPlan();
    const two = await kit.companyWithPlan();
    const first = await kit.connection(one.companyId, { name: 'One site' });
    const second = await kit.connection(two.companyId, { name: 'Two site', channel: 'whatsapp', status: 'CONNECTED' });
    const superUser = await kit.user(one.companyId, 'admin', { super: true });
    for (const path of ['/whatsapp/all/?session=0', '/whatsapp/all']) {
      const { status, body } = await kit.call(superUser, 'GET', path);
      expect(status).toBe(200);
      const mine = (body as ConnectionOfCompany[]).filter((row) => [first, second].includes(row.id));
      const names = await kit.knex('companies').whereIn('id', [one.companyId, two.companyId]).pluck('name');
      expect(mine.map((row) => [row.id, row.companyId, row.status])).toEqual(
        expect.arrayContaining([
          [first, one.companyId, 'DISCONNECTED'],
          [second, two.companyId, 'CONNECTED'],
        ]),
      );
      expect(names).toContain(mine.find((row) => row.id === second)?.companyName);
    }
    const read = await kit.call(superUser, 'GET', `/whatsapp-admin/${second}?session=0`);
    expect(read.body).toMatchObject({ id: second, companyId: two.companyId, name: 'Two site' });
    expect((await kit.call(superUser, 'GET', '/whatsapp-admin/999999')).body.error).toBe('ERR_NO_WAPP_FOUND');
  });

  it('refuse everyone else, company admins included', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const connectionId = await kit.connection(companyId);
    const allowed = await kit.user(companyId, 'user', { allowConnections: true });
    for (const user of [admin, allowed]) {
      expect(await kit.call(user, 'GET', '/whatsapp/all/')).toEqual({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
      expect(await kit.call(user, 'GET', `/whatsapp-admin/${connectionId}`)).toEqual({
        status: 403,
        body: { error: 'ERR_NO_PERMISSION' },
      });
    }
  });
});

describe('the super user managing another company’s connections (All connections)', () => {
  it('reads, changes, starts, stops and deletes them by id, and adds one to a named company', async () => {
    const own = await kit.companyWithPlan();
    const other = await kit.companyWithPlan();
    const superUser = await kit.user(own.companyId, 'admin', { super: true });
    const connectionId = await kit.connection(other.companyId, { name: 'Loja da outra', channel: 'webchat' });
    const queue = await kit.queue(other.companyId);

    expect((await kit.call(superUser, 'GET', `/whatsapp/${connectionId}`)).body).toMatchObject({ companyId: other.companyId });
    const changed = await kit.call(superUser, 'PUT', `/whatsapp/${connectionId}`, { name: 'Loja renomeada', queueIds: [queue] });
    expect(changed.status).toBe(200);
    expect(await kit.row(connectionId)).toMatchObject({ name: 'Loja renomeada', companyId: other.companyId });
    expect((await kit.call(superUser, 'DELETE', `/whatsappsession/${connectionId}`)).body).toMatchObject({
      status: 'DISCONNECTED',
    });
    expect((await kit.call(superUser, 'POST', `/whatsappsession/${connectionId}`)).body).toMatchObject({ status: 'CONNECTED' });
    expect((await kit.call(superUser, 'POST', `/whatsapp/${connectionId}/token`)).status).toBe(200);

    // the editor's queue list of that company
    const queues = await kit.call(superUser, 'GET', `/whatsapp-admin/companies/${other.companyId}/queues`);
    expect(queues.body).toEqual([expect.objectContaining({ id: queue })]);
    expect((await kit.call(superUser, 'GET', '/whatsapp-admin/companies/999999/queues')).body).toEqual({
      error: 'ERR_NO_COMPANY_FOUND',
    });

    const created = await kit.call(superUser, 'POST', '/whatsapp', {
      name: 'Nova da outra',
      channel: 'webchat',
      companyId: other.companyId,
    });
    expect(created.status).toBe(201);
    expect(created.body.companyId).toBe(other.companyId);
    expect(await kit.call(superUser, 'POST', '/whatsapp', { name: 'Nenhuma', channel: 'webchat', companyId: 999999 })).toEqual({
      status: 404,
      body: { error: 'ERR_NO_COMPANY_FOUND' },
    });

    expect((await kit.call(superUser, 'DELETE', `/whatsapp/${connectionId}`)).status).toBe(204);
    expect(await kit.knex('whatsapps').where({ id: connectionId }).first()).toBeUndefined();
  });

  it('gives a company admin none of it: another company’s ids are not found, naming another company is refused', async () => {
    const one = await kit.companyWithPlan();
    const two = await kit.companyWithPlan();
    const connectionId = await kit.connection(two.companyId, { name: 'Alheia', channel: 'webchat' });
    for (const [method, path] of [
      ['GET', `/whatsapp/${connectionId}`],
      ['PUT', `/whatsapp/${connectionId}`],
      ['DELETE', `/whatsapp/${connectionId}`],
      ['POST', `/whatsappsession/${connectionId}`],
      ['POST', `/whatsapp/${connectionId}/token`],
    ] as const) {
      const answer = await kit.call(one.admin, method, path, method === 'PUT' ? { name: 'Minha' } : undefined);
      expect(answer, `${method} ${path}`).toEqual({ status: 404, body: { error: 'ERR_NO_WAPP_FOUND' } });
    }
    expect(
      await kit.call(one.admin, 'POST', '/whatsapp', { name: 'Intrusa', channel: 'webchat', companyId: two.companyId }),
    ).toEqual({
      status: 404,
      body: { error: 'ERR_NO_COMPANY_FOUND' },
    });
    expect((await kit.call(one.admin, 'GET', `/whatsapp-admin/companies/${two.companyId}/queues`)).status).toBe(403);
    expect(await kit.row(connectionId)).toMatchObject({ name: 'Alheia' });
  });
});
