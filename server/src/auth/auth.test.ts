import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('POST /auth/login', () => {
  it('logs in with a lowercased e-mail and answers the session user with a refresh cookie', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: '  ADMIN@Acme.test ', password: 'demo1234' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^ey/);
    expect(body.user).toMatchObject({ email: 'admin@acme.test', profile: 'admin', super: false, company: { name: 'Acme' } });
    expect(String(res.headers['set-cookie'])).toMatch(/^jrt=.+; Path=\/api\/auth; HttpOnly; SameSite=Strict/);
  });

  it('refuses a wrong password with ERR_INVALID_CREDENTIALS', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'agent@acme.test', password: 'nope' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS' });
  });
});
