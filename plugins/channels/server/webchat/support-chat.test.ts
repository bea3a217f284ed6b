import {
  badInputWalk,
  createTestApp,
  routeContractProblems,
  seedTenantFixtures,
  type TestApp,
  type WalkedRoute,
} from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelsKit, type KitUser } from '../testing/kit';
import { prepareWebchatConfig } from './config';
import { PLATFORM_COMPANY_ID, SUPPORT_CHAT_SETTING, WIDGET_SCRIPT_PATH } from './support-chat';

/** The login page's support chat: the super user's choice and the public answer the login page reads. */
let t: TestApp;
let kit: ChannelsKit;
let superUser: KitUser;
let platformAdmin: KitUser;

beforeAll(async () => {
  t = await createTestApp();
  kit = new ChannelsKit(t);
  superUser = await kit.user(PLATFORM_COMPANY_ID, 'admin', { super: true });
  platformAdmin = await kit.user(PLATFORM_COMPANY_ID, 'admin');
});
afterAll(async () => {
  await t?.close();
});

async function webchat(companyId: number, name: string) {
  const config = prepareWebchatConfig({}, null);
  const id = await kit.connection(companyId, { name, channelConfig: JSON.stringify(config), status: 'CONNECTED' });
  return { id, config };
}

describe('the support chat of the login page', () => {
  it('is none until the super user picks a webchat connection of the platform company; the public answer carries only the public key', async () => {
    const publicAnswer = () => kit.call(null, 'GET', '/support-chat');
    expect(await publicAnswer()).toEqual({ status: 200, body: { widgetKey: null, scriptUrl: null } });

    const support = await webchat(PLATFORM_COMPANY_ID, 'Suporte da plataforma');
    const other = await webchat(PLATFORM_COMPANY_ID, 'Another site');
    const whatsapp = await kit.connection(PLATFORM_COMPANY_ID, { channel: 'whatsapp', name: 'WhatsApp da plataforma' });
    const tenant = await kit.companyWithPlan();
    const foreign = await webchat(tenant.companyId, 'A tenant site');

    const settings = await kit.call(superUser, 'GET', '/support-chat/settings');
    expect(settings.status).toBe(200);
    expect(settings.body.whatsappId).toBeNull();
    const listed = (settings.body.connections as Array<{ id: number; name: string; allowedOrigins: string[] }>).map(
      (connection) => connection.id,
    );
    expect(listed).toEqual(expect.arrayContaining([support.id, other.id]));
    expect(listed).not.toContain(whatsapp);
    expect(listed).not.toContain(foreign.id);

    // only a webchat connection of the platform company
    expect(await kit.call(superUser, 'PUT', '/support-chat', { whatsappId: whatsapp })).toEqual({
      status: 404,
      body: { error: 'ERR_NO_WAPP_FOUND' },
    });
    expect((await kit.call(superUser, 'PUT', '/support-chat', { whatsappId: foreign.id })).status).toBe(404);
    expect((await kit.call(superUser, 'PUT', '/support-chat', { whatsappId: 'x' })).body).toMatchObject({
      error: 'ERR_VALIDATION',
    });
    expect(await t.balcao.core.settings.get(PLATFORM_COMPANY_ID, SUPPORT_CHAT_SETTING)).not.toBe(String(foreign.id));

    const chosen = await kit.call(superUser, 'PUT', '/support-chat', { whatsappId: support.id });
    expect(chosen.status).toBe(200);
    expect(chosen.body.whatsappId).toBe(support.id);

    const answer = await t.inject({ method: 'GET', url: '/api/support-chat' });
    expect(answer.json()).toEqual({ widgetKey: support.config.widgetKey, scriptUrl: WIDGET_SCRIPT_PATH });
    // nothing else of the connection: no id, no identity secret, no name
    expect(answer.body).not.toContain(support.config.identitySecret);
    expect(answer.body).not.toContain('Suporte da plataforma');
  });

  it('is chosen by the super user only', async () => {
    const support = await webchat(PLATFORM_COMPANY_ID, 'Suporte');
    const agent = await kit.user(PLATFORM_COMPANY_ID, 'user');
    for (const user of [platformAdmin, agent]) {
      expect((await kit.call(user, 'PUT', '/support-chat', { whatsappId: support.id })).status).toBe(403);
      expect((await kit.call(user, 'GET', '/support-chat/settings')).status).toBe(403);
    }
    expect((await kit.call(null, 'PUT', '/support-chat', { whatsappId: support.id })).status).toBe(401);
    // a company admin can't reach the setting through the company settings either
    expect((await kit.call(platformAdmin, 'PUT', `/settings/${SUPPORT_CHAT_SETTING}`, { value: '1' })).status).toBe(404);
  });

  it('disappears when the chosen connection is deleted, and when the super user picks none', async () => {
    const support = await webchat(PLATFORM_COMPANY_ID, 'Suporte temporário');
    expect((await kit.call(superUser, 'PUT', '/support-chat', { whatsappId: support.id })).status).toBe(200);
    expect((await kit.call(null, 'GET', '/support-chat')).body.widgetKey).toBe(support.config.widgetKey);

    await kit.knex('whatsapps').where({ id: support.id }).delete();
    expect((await kit.call(null, 'GET', '/support-chat')).body).toEqual({ widgetKey: null, scriptUrl: null });
    expect((await kit.call(superUser, 'GET', '/support-chat/settings')).body.whatsappId).toBeNull();

    const next = await webchat(PLATFORM_COMPANY_ID, 'Suporte novo');
    await kit.call(superUser, 'PUT', '/support-chat', { whatsappId: next.id });
    const cleared = await kit.call(superUser, 'PUT', '/support-chat', { whatsappId: null });
    expect(cleared.body.whatsappId).toBeNull();
    expect((await kit.call(null, 'GET', '/support-chat')).body).toEqual({ widgetKey: null, scriptUrl: null });
  });
});

describe('the support chat routes under the walkers', () => {
  const supportChatRoutes = (route: WalkedRoute) => route.owner === 'channels' && route.url.includes('/support-chat');

  it('keep the route contract and refuse bad input with 4xx ERR_ codes', async () => {
    expect(routeContractProblems(t, supportChatRoutes)).toEqual([]);
    const report = await badInputWalk(t, await seedTenantFixtures(t), supportChatRoutes);
    expect(report.routes).toBe(3);
    expect(report.unbuildable).toEqual([]);
    expect(report.failures, `\n${report.failures.join('\n')}\n`).toEqual([]);
  }, 120_000);
});
