import { createTestApp, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingRequiredMessage, settingValueProblem } from './setting-keys';

let t: TestApp;
let admin: TestSession;
let agent: TestSession;
let superUser: TestSession;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@acme.test');
  agent = await t.login('agent@acme.test');
  superUser = await t.login('super@balcao.test');
});
afterAll(async () => {
  await t?.close();
});

async function call(session: { token: string }, method: string, url: string, payload?: unknown) {
  const response = await t.inject({
    method: method as 'GET',
    url: `/api${url}`,
    token: session.token,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.body ? response.json() : null };
}

const put = (session: TestSession, key: string, value: string) => call(session, 'PUT', `/settings/${key}`, { value });

describe('who reads and writes settings', () => {
  it('refuses a profile user the settings list and every write; reads of one key stay open', async () => {
    expect((await call(agent, 'GET', '/settings')).body).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await put(agent, 'userRating', 'enabled')).status).toBe(403);
    expect((await call(agent, 'PUT', '/companySettings', { key: 'userRating', value: 'enabled' })).status).toBe(403);
    expect((await call(agent, 'GET', '/setting/userRating')).body).toEqual({ key: 'userRating', value: 'disabled' });
    expect((await call(agent, 'GET', '/companySettingOne?column=requiredTag')).body).toEqual({
      key: 'requiredTag',
      value: 'disabled',
    });
  });

  it("lists every key of the company's settings to an admin", async () => {
    const res = await call(admin, 'GET', '/settings');
    expect(res.status).toBe(200);
    const keys = res.body.map((pair: { key: string }) => pair.key);
    for (const key of [
      'userCreation',
      'downloadLimit',
      'scheduleType',
      'chatBotType',
      'lgpdMessage',
      'showNotificationPending',
    ]) {
      expect(keys).toContain(key);
    }
  });

  it('keeps the download limit and user creation for the super user, and whitelabel for its own routes', async () => {
    expect((await put(admin, 'downloadLimit', '128')).body).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await put(admin, 'userCreation', 'disabled')).status).toBe(403);
    expect((await put(superUser, 'downloadLimit', '128')).body).toEqual({ key: 'downloadLimit', value: '128' });
    expect((await put(superUser, 'appName', 'Outro')).status).toBe(403);
  });
});

describe('PUT /settings/:settingKey', () => {
  it('saves a value, publishes settings.updated and the session carries it at once', async () => {
    const published: unknown[] = [];
    const off = t.balcao.core.events.on('settings.updated', (payload) => void published.push(payload));
    try {
      const res = await put(admin, 'requiredTag', 'enabled');
      expect(res).toEqual({ status: 200, body: { key: 'requiredTag', value: 'enabled' } });
      expect(published).toContainEqual({ companyId: t.demo.companies.acme, key: 'requiredTag', value: 'enabled' });
      const me = await call(agent, 'GET', '/auth/me');
      expect(me.body.company.companieSettings).toContainEqual({ key: 'requiredTag', value: 'enabled' });
    } finally {
      off();
      await put(admin, 'requiredTag', 'disabled');
    }
  });

  it('refuses values a key does not take, and keys that are no setting', async () => {
    for (const [key, value] of [
      ['userRating', 'yes'],
      ['scheduleType', 'weekly'],
      ['chatBotType', 'voice'],
      ['lgpdLink', 'javascript:alert(1)'],
    ] as const) {
      const res = await put(admin, key, value);
      expect([res.status, res.body.error], `${key}=${value}`).toEqual([400, 'ERR_VALIDATION']);
    }
    expect((await put(admin, 'jwtSecret', 'x')).body).toEqual({ error: 'ERR_NO_SETTING_FOUND' });
    expect((await call(admin, 'GET', '/setting/allowSignup')).status).toBe(404);
    expect((await put(admin, 'scheduleType', 'queue')).status).toBe(200);
    expect((await put(admin, 'lgpdLink', 'https://acme.test/privacidade')).status).toBe(200);
  });

  it('requires each custom message while its feature is on (docs/product/administration.md#validation)', async () => {
    // transfer message with sendMsgTransfTicket enabled
    expect((await put(admin, 'sendMsgTransfTicket', 'enabled')).body).toEqual({
      error: 'ERR_SETTING_MESSAGE_REQUIRED',
      key: 'transferMessage',
    });
    expect((await put(admin, 'transferMessage', 'Você foi transferido.')).status).toBe(200);
    expect((await put(admin, 'sendMsgTransfTicket', 'enabled')).status).toBe(200);
    expect((await put(admin, 'transferMessage', '   ')).body.error).toBe('ERR_SETTING_MESSAGE_REQUIRED');
    expect((await put(admin, 'sendMsgTransfTicket', 'disabled')).status).toBe(200);
    expect((await put(admin, 'transferMessage', '')).status).toBe(200);

    // greeting with sendGreetingAccepted, queue position with sendQueuePosition
    expect((await put(admin, 'sendGreetingAccepted', 'enabled')).body.key).toBe('greetingAcceptedMessage');
    expect((await put(admin, 'sendQueuePosition', 'enabled')).body.key).toBe('sendQueuePositionMessage');

    // the call message when calls are refused (acceptCallWhatsapp disabled), through the other write form
    const refused = await call(admin, 'PUT', '/companySettings', { column: 'acceptCallWhatsapp', data: 'disabled' });
    expect(refused.body).toEqual({ error: 'ERR_SETTING_MESSAGE_REQUIRED', key: 'AcceptCallWhatsappMessage' });
    await call(admin, 'PUT', '/companySettings', { key: 'AcceptCallWhatsappMessage', value: 'Não atendemos ligações.' });
    expect((await call(admin, 'PUT', '/companySettings', { column: 'acceptCallWhatsapp', data: 'disabled' })).body).toEqual({
      key: 'acceptCallWhatsapp',
      value: 'disabled',
    });
  });
});

describe('GET /companySettings/:companyId', () => {
  it("answers the caller's own company, another's only to the super user", async () => {
    const own = await call(agent, 'GET', `/companySettings/${t.demo.companies.acme}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ userRating: expect.any(String), scheduleType: expect.any(String) });
    expect((await call(admin, 'GET', `/companySettings/${t.demo.companies.lite}`)).body).toEqual({
      error: 'ERR_NO_COMPANY_FOUND',
    });
    const asSuper = await call(superUser, 'GET', `/companySettings/${t.demo.companies.lite}`);
    expect(asSuper.body.downloadLimit).toBe('64');
    expect((await call(superUser, 'GET', '/companySettings/999999')).status).toBe(404);
  });
});

describe('the rules as functions', () => {
  it('checks values per key', () => {
    expect(settingValueProblem('downloadLimit', '2048')).toBeNull();
    expect(settingValueProblem('downloadLimit', '100')).toMatch(/one of/);
    expect(settingValueProblem('lgpdLink', '')).toBeNull();
    expect(settingValueProblem('transferMessage', 'x'.repeat(5_001))).toMatch(/more than/);
  });

  it('names the message a change leaves missing', () => {
    const settings = { sendQueuePosition: 'disabled', sendQueuePositionMessage: '' };
    expect(missingRequiredMessage(settings, 'sendQueuePosition', 'enabled')).toBe('sendQueuePositionMessage');
    expect(
      missingRequiredMessage({ ...settings, sendQueuePositionMessage: 'Você é o {{n}}º' }, 'sendQueuePosition', 'enabled'),
    ).toBeNull();
    expect(missingRequiredMessage(settings, 'userRating', 'enabled')).toBeNull();
  });
});
