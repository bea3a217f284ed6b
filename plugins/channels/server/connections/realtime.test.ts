import { connectSocket, createTestApp, nextEvent, recordEvents, type TestApp } from '@balcao/plugin-sdk/testing';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelsKit } from '../testing/kit';
import { updateConnectionStatus } from './session.service';

/**
 * `company-{id}-whatsapp` and `company-{id}-whatsappSession` (docs/product/tickets-and-inbox.md#calls-and-realtime-events) reach only the users who may see
 * connections: the connection carries its token and its channel's secrets.
 */
let t: TestApp;
let kit: ChannelsKit;
let url: string;
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await createTestApp();
  kit = new ChannelsKit(t);
  url = await t.listen();
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t?.close();
});

async function socketOf(companyId: number, token: string): Promise<Socket> {
  const socket = await connectSocket(url, companyId, token);
  sockets.push(socket);
  return socket;
}

describe('the connections audience', () => {
  it('sends create, update, session and delete events to admins, super users and allowConnections users only', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    const allowed = await kit.user(companyId, 'user', { allowConnections: true });
    const superUser = await kit.user(companyId, 'user', { super: true });
    const plain = await kit.user(companyId, 'user');
    const [adminSocket, allowedSocket, superSocket, plainSocket] = await Promise.all(
      [admin, allowed, superUser, plain].map((user) => socketOf(companyId, user.token)),
    );
    const plainEvents = recordEvents(plainSocket as Socket);
    const watchers = [adminSocket, allowedSocket, superSocket] as Socket[];
    const whatsappEvent = `company-${companyId}-whatsapp`;
    const sessionEvent = `company-${companyId}-whatsappSession`;

    const created = watchers.map((socket) =>
      nextEvent<{ action: string; whatsapp: { name: string; token: string } }>(socket, whatsappEvent),
    );
    const answer = await kit.call(admin, 'POST', '/whatsapp', { name: 'Site', channel: 'webchat' });
    for (const event of await Promise.all(created)) {
      expect(event).toMatchObject({ action: 'update', whatsapp: { id: answer.body.id, name: 'Site', token: answer.body.token } });
    }
    const connectionId = answer.body.id as number;

    const renamed = watchers.map((socket) =>
      nextEvent<{ whatsapp: { name: string } }>(socket, whatsappEvent, (payload) => payload.whatsapp?.name === 'Chat'),
    );
    await kit.call(admin, 'PUT', `/whatsapp/${connectionId}`, { name: 'Chat' });
    await Promise.all(renamed);

    const session = watchers.map((socket) => nextEvent(socket, sessionEvent));
    await updateConnectionStatus(kit.ctx, companyId, connectionId, { status: 'qrcode', qrcode: 'QR', retries: 1 });
    for (const event of await Promise.all(session)) {
      expect(event).toMatchObject({
        action: 'update',
        session: { id: connectionId, status: 'qrcode', qrcode: 'QR', retries: 1 },
      });
    }

    const deleted = watchers.map((socket) =>
      nextEvent(socket, whatsappEvent, (payload: { action: string }) => payload.action === 'delete'),
    );
    await kit.call(admin, 'DELETE', `/whatsapp/${connectionId}`);
    for (const event of await Promise.all(deleted)) expect(event).toEqual({ action: 'delete', whatsappId: connectionId });

    // the watchers have had every event; a moment more for any stray one to reach the plain user
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(plainEvents.filter((event) => event.event.includes('whatsapp'))).toEqual([]);
  });

  it("never sends one company's connections to another company's sockets", async () => {
    const one = await kit.companyWithPlan();
    const two = await kit.companyWithPlan();
    const otherSocket = await socketOf(two.companyId, two.admin.token);
    const ownSocket = await socketOf(one.companyId, one.admin.token);
    const otherEvents = recordEvents(otherSocket);
    const own = nextEvent(ownSocket, `company-${one.companyId}-whatsapp`);
    await kit.call(one.admin, 'POST', '/whatsapp', { name: 'Site', channel: 'webchat' });
    await own;
    await new Promise((resolve) => setTimeout(resolve, 100));
    // (the other admin's own presence, `company-{id}-user` online, may land in this window on a busy machine)
    expect(otherEvents.filter((event) => event.event.includes('whatsapp'))).toEqual([]);
  });
});
