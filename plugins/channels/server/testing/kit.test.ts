import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ChannelsKit } from '../testing/kit';

let t: TestApp;
let kit: ChannelsKit;
beforeAll(async () => {
  t = await createTestApp();
  kit = new ChannelsKit(t);
});
afterAll(async () => t?.close());

it('the test kit makes companies, users and connections', async () => {
  const { companyId, admin } = await kit.companyWithPlan({ flags: { useWhatsapp: false }, connections: 2 });
  expect(admin.session.user.profile).toBe('admin');
  const queueId = await kit.queue(companyId);
  const connectionId = await kit.connection(companyId, { queueIds: [queueId], name: 'Site' });
  expect(await kit.row(connectionId)).toMatchObject({ name: 'Site', channel: 'webchat', companyId });
  expect((await kit.row(connectionId))?.token).toMatch(/^[A-Za-z0-9]{30}$/);
  const user = await kit.user(companyId, 'user', { allowConnections: true });
  expect(user.session.user.allowConnections).toBe('enabled');
  await kit.setting(companyId, 'userRating', 'enabled');
  expect(kit.ctx.services.has('connections')).toBe(true);
});
