import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionOfCompany } from '../../shared/connection';
import { ChannelsKit } from '../test/kit';

/** The super user's routes (2-administration §2 All connections, §7): every company's connections. */
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
    const whatsappId = await kit.connection(companyId);
    const allowed = await kit.user(companyId, 'user', { allowConnections: true });
    for (const user of [admin, allowed]) {
      expect(await kit.call(user, 'GET', '/whatsapp/all/')).toEqual({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
      expect(await kit.call(user, 'GET', `/whatsapp-admin/${whatsappId}`)).toEqual({
        status: 403,
        body: { error: 'ERR_NO_PERMISSION' },
      });
    }
  });
});
