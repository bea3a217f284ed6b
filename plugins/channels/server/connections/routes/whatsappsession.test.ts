import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChannelsKit, type TestChannel } from '../../testing/kit';
import { updateConnectionStatus } from '../index';

/**
 * Session actions (docs/product/administration.md#screens-and-routes per-status buttons, #states-and-transitions, #calls-and-realtime-events): they call the channel's definition and
 * persist what it answers; a channel with no definition refuses; the plan must allow the channel to start.
 */
let t: TestApp;
let kit: ChannelsKit;
let channel: TestChannel | null = null;
beforeAll(async () => {
  t = await createTestApp();
  kit = new ChannelsKit(t);
});
afterEach(() => {
  channel?.restore();
  channel = null;
});
afterAll(async () => t?.close());

describe('with a registered channel', () => {
  it('starts, restarts (stop then start) and disconnects, persisting each status', async () => {
    channel = kit.testChannel('whatsapp', { planFlag: 'useWhatsapp' });
    const { companyId, admin } = await kit.companyWithPlan();
    const connectionId = await kit.connection(companyId, { channel: 'whatsapp', isDefault: true, qrcode: 'old-qr' });
    channel.startStatus = 'qrcode';
    const started = await kit.call(admin, 'POST', `/whatsappsession/${connectionId}`);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ id: connectionId, status: 'qrcode' });
    expect(channel.calls.map((call) => call.action)).toEqual(['start']);
    expect(channel.calls[0]?.connection).toMatchObject({
      id: connectionId,
      companyId,
      channel: 'whatsapp',
      status: 'DISCONNECTED',
    });

    channel.startStatus = 'CONNECTED';
    const restarted = await kit.call(admin, 'PUT', `/whatsappsession/${connectionId}`);
    expect(restarted.body).toMatchObject({ status: 'CONNECTED', qrcode: '' });
    expect(channel.calls.map((call) => call.action)).toEqual(['start', 'stop', 'start']);

    const stopped = await kit.call(admin, 'DELETE', `/whatsappsession/${connectionId}`);
    expect(stopped.body).toMatchObject({ status: 'DISCONNECTED' });
    expect(await kit.row(connectionId)).toMatchObject({ status: 'DISCONNECTED' });
    // the connections service sees the new status at once
    expect(await kit.ctx.services.use('connections').profile(companyId, connectionId)).toMatchObject({ status: 'DISCONNECTED' });
  });

  it("uses the channel's own restart when it has one", async () => {
    channel = kit.testChannel('whatsapp', { planFlag: 'useWhatsapp', withRestart: true });
    const { companyId, admin } = await kit.companyWithPlan();
    const connectionId = await kit.connection(companyId, { channel: 'whatsapp' });
    channel.startStatus = 'OPENING';
    expect((await kit.call(admin, 'PUT', `/whatsappsession/${connectionId}`)).body.status).toBe('OPENING');
    expect(channel.calls.map((call) => call.action)).toEqual(['restart']);
  });

  it('refuses to start or restart a channel the plan lacks, but lets it disconnect', async () => {
    channel = kit.testChannel('whatsapp', { planFlag: 'useWhatsapp' });
    const { companyId, admin } = await kit.companyWithPlan({ flags: { useWhatsapp: false } });
    const connectionId = await kit.connection(companyId, { channel: 'whatsapp', status: 'CONNECTED' });
    for (const method of ['POST', 'PUT'] as const) {
      expect(await kit.call(admin, method, `/whatsappsession/${connectionId}`)).toEqual({
        status: 403,
        body: { error: 'ERR_PLAN_FEATURE_DISABLED' },
      });
    }
    expect(channel.calls).toEqual([]);
    expect((await kit.call(admin, 'DELETE', `/whatsappsession/${connectionId}`)).body.status).toBe('DISCONNECTED');
  });

  it('restarts every connection it can and lists the others as skipped', async () => {
    channel = kit.testChannel('whatsapp', { planFlag: 'useWhatsapp' });
    const { companyId, admin } = await kit.companyWithPlan();
    const phone = await kit.connection(companyId, { channel: 'whatsapp' });
    const page = await kit.connection(companyId, { channel: 'facebook' });
    const other = await kit.companyWithPlan();
    const foreign = await kit.connection(other.companyId, { channel: 'whatsapp' });
    for (const path of ['/whatsapp-restart/', '/whatsapp-restart']) {
      const answer = await kit.call(admin, 'POST', path);
      expect(answer).toEqual({ status: 200, body: { restarted: [phone], skipped: [page] } });
    }
    expect(channel.calls.every((call) => call.connection.id === phone)).toBe(true);
    expect(await kit.row(foreign)).toMatchObject({ status: 'DISCONNECTED' });

    // a plan without the channel's flag skips it
    const lite = await kit.companyWithPlan({ flags: { useWhatsapp: false } });
    const litePhone = await kit.connection(lite.companyId, { channel: 'whatsapp' });
    expect((await kit.call(lite.admin, 'POST', '/whatsapp-restart/')).body).toEqual({ restarted: [], skipped: [litePhone] });
  });

  it('asks for the QR again when message import is turned on while connected (docs/product/administration.md#states-and-transitions)', async () => {
    channel = kit.testChannel('whatsapp', { planFlag: 'useWhatsapp' });
    channel.startStatus = 'qrcode';
    const { companyId, admin } = await kit.companyWithPlan();
    const connectionId = await kit.connection(companyId, { channel: 'whatsapp', status: 'CONNECTED' });
    const today = new Date().toISOString().slice(0, 10);
    const saved = await kit.call(admin, 'PUT', `/whatsapp/${connectionId}`, {
      importOldMessages: today,
      importRecentMessages: today,
    });
    expect(saved.body).toMatchObject({ status: 'qrcode', importOldMessages: today });
    expect(channel.calls.map((call) => call.action)).toEqual(['stop', 'start']);
    // saving again with the same window doesn't disconnect again
    await kit.knex('whatsapps').where({ id: connectionId }).update({ status: 'CONNECTED' });
    await kit.call(admin, 'PUT', `/whatsapp/${connectionId}`, { importOldMessages: today, importRecentMessages: today });
    expect(channel.calls).toHaveLength(2);
  });

  it('calls the channel remove hook when a connection is deleted', async () => {
    channel = kit.testChannel('whatsapp', { planFlag: 'useWhatsapp' });
    const { companyId, admin } = await kit.companyWithPlan();
    const connectionId = await kit.connection(companyId, { channel: 'whatsapp', isDefault: true });
    expect((await kit.call(admin, 'DELETE', `/whatsapp/${connectionId}`)).status).toBe(204);
    expect(channel.calls.map((call) => [call.action, call.connection.id])).toEqual([['remove', connectionId]]);
  });
});

describe('without a registered channel', () => {
  it('answers 409 ERR_CHANNEL_NOT_AVAILABLE and changes nothing', async () => {
    const { companyId, admin } = await kit.companyWithPlan();
    // instagram has no definition until its own issue
    const connectionId = await kit.connection(companyId, { channel: 'instagram', status: 'DISCONNECTED' });
    const before = await kit.row(connectionId);
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      expect(await kit.call(admin, method, `/whatsappsession/${connectionId}`)).toEqual({
        status: 409,
        body: { error: 'ERR_CHANNEL_NOT_AVAILABLE' },
      });
    }
    expect(await kit.row(connectionId)).toEqual(before);
  });
});

describe('updateConnectionStatus', () => {
  it("changes a connection's session fields and refuses another company's", async () => {
    const { companyId } = await kit.companyWithPlan();
    const other = await kit.companyWithPlan();
    const connectionId = await kit.connection(companyId);
    const shape = await updateConnectionStatus(kit.ctx, companyId, connectionId, { status: 'PAIRING', qrcode: 'qr', retries: 2 });
    expect(shape).toMatchObject({ status: 'PAIRING', qrcode: 'qr', retries: 2 });
    await expect(updateConnectionStatus(kit.ctx, other.companyId, connectionId, { status: 'CONNECTED' })).rejects.toMatchObject({
      code: 'ERR_NO_WAPP_FOUND',
    });
    expect(await kit.row(connectionId)).toMatchObject({ status: 'PAIRING' });
  });
});
