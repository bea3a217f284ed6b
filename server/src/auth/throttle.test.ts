import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Login throttling on Redis: attempts per IP and failures per account (docs/product/tickets-and-inbox.md#calls-and-realtime-events Auth), with small limits. */
let t: TestApp;
const MAX_PER_IP = 4;
const MAX_FAILURES = 3;
const WINDOW = 120;
beforeAll(async () => {
  t = await createTestApp({
    config: { loginMaxPerIp: MAX_PER_IP, loginMaxFailuresPerAccount: MAX_FAILURES, loginWindowSeconds: WINDOW },
  });
});
afterAll(async () => {
  await t.close();
});

let ipCounter = 0;
/** Each test comes from addresses of its own, so the per-IP limit of one never leaks into another. */
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

const login = (email: string, password: string, remoteAddress: string) =>
  t.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });

function expectThrottled(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(429);
  const body = res.json() as { error: string; retryAfter: number };
  expect(body.error).toBe('ERR_TOO_MANY_ATTEMPTS');
  expect(Number.isInteger(body.retryAfter)).toBe(true);
  expect(body.retryAfter).toBeGreaterThan(0);
  expect(body.retryAfter).toBeLessThanOrEqual(WINDOW);
}

describe('per IP', () => {
  it('counts failures only: successful logins from one address pass however many there are', async () => {
    const ip = freshIp();
    for (let n = 0; n < MAX_PER_IP * 3; n++) {
      expect((await login(n % 2 ? 'admin@acme.test' : 'admin@lite.test', 'demo1234', ip)).statusCode).toBe(200);
    }
    // failures of any account, known or not, count against the address …
    expect((await login('someone@acme.test', 'wrong', ip)).statusCode).toBe(401);
    expect((await login('nobody@x.test', 'wrong', ip)).statusCode).toBe(401);
    // … successes in between still don't …
    expect((await login('admin@lite.test', 'demo1234', ip)).statusCode).toBe(200);
    expect((await login('other@x.test', 'wrong', ip)).statusCode).toBe(401);
    expect((await login('more@x.test', 'wrong', ip)).statusCode).toBe(401);
    // … and past the limit of failures every attempt from the address waits, the right password included
    expectThrottled(await login('agent@lite.test', 'demo1234', ip));
    expectThrottled(await login('agent@lite.test', 'wrong', ip));
    // another address is not affected
    expect((await login('agent@lite.test', 'demo1234', freshIp())).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64 network (one host holds them all), not by single addresses', async () => {
    const net = `2001:db8:${(++ipCounter).toString(16)}:7`;
    for (let n = 1; n <= MAX_PER_IP; n++) {
      expect((await login(`nobody${n}@v6.test`, 'wrong', `${net}::${n.toString(16)}`)).statusCode).toBe(401);
    }
    expectThrottled(await login('admin@acme.test', 'demo1234', `${net}:ffff:1:2:3`));
    // the next /64 is another client
    expect((await login('admin@acme.test', 'demo1234', `2001:db8:${ipCounter.toString(16)}:8::1`)).statusCode).toBe(200);
  });

  it('throttles signups from the same address too', async () => {
    const ip = freshIp();
    const plan = await t.balcao.core.knex('plans').where({ name: 'Lite' }).first('id');
    const signup = (n: number) =>
      t.inject({
        method: 'POST',
        url: '/api/auth/signup',
        remoteAddress: ip,
        payload: {
          name: 'New Owner',
          email: `owner${n}-${ip.replaceAll('.', '-')}@signup.test`,
          password: 'secret1',
          phone: '5511999990000',
          companyName: `Company ${n}`,
          planId: plan.id,
        },
      });
    for (let n = 0; n < MAX_PER_IP; n++) expect((await signup(n)).statusCode).toBe(201);
    expectThrottled(await signup(MAX_PER_IP));
  });
});

describe('per account', () => {
  it('locks an account after repeated failures, whatever the address, even for the right password', async () => {
    for (let n = 0; n < MAX_FAILURES; n++) {
      expect((await login('agent@acme.test', `wrong-${n}`, freshIp())).statusCode).toBe(401);
    }
    expectThrottled(await login('agent@acme.test', 'demo1234', freshIp()));
    // the lock follows the account, not the spelling of its e-mail
    expectThrottled(await login('  AGENT@acme.TEST', 'demo1234', freshIp()));
    // other accounts are not locked
    expect((await login('admin@acme.test', 'demo1234', freshIp())).statusCode).toBe(200);
  });

  it('a successful login resets the failure count', async () => {
    const email = 'agent@lite.test';
    for (let round = 0; round < 3; round++) {
      for (let n = 0; n < MAX_FAILURES - 1; n++) {
        expect((await login(email, 'wrong', freshIp())).statusCode).toBe(401);
      }
      expect((await login(email, 'demo1234', freshIp())).statusCode).toBe(200);
    }
  });

  it('counts failures of unknown e-mails as well (no way to tell which accounts exist)', async () => {
    for (let n = 0; n < MAX_FAILURES; n++) {
      expect((await login('ghost@nowhere.test', 'wrong', freshIp())).json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS' });
    }
    expectThrottled(await login('ghost@nowhere.test', 'wrong', freshIp()));
  });

  it('holds against a burst of concurrent guesses from many addresses: no more than the limit reach the password check', async () => {
    const email = 'agent@acme.test';
    await t.balcao.core.redis.del(`${t.config.redisPrefix}:login:acct:${email}`);
    const burst = await Promise.all(Array.from({ length: 12 }, (_, n) => login(email, `guess-${n}`, freshIp())));
    const statuses = burst.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(MAX_FAILURES);
    expect(statuses.filter((status) => status === 429)).toHaveLength(12 - MAX_FAILURES);
    expectThrottled(await login(email, 'demo1234', freshIp()));
    await t.balcao.core.redis.del(`${t.config.redisPrefix}:login:acct:${email}`);
  });

  it('forgives the failures of an account whose right password then meets an expired subscription', async () => {
    const { knex, sessions } = t.balcao.core;
    const email = 'agent@lite.test';
    const lite = t.demo.companies.lite;
    const due = (await knex('companies').where({ id: lite }).first('dueDate')).dueDate as string;
    await knex('companies').where({ id: lite }).update({ dueDate: '2000-01-01' });
    await sessions.invalidateCompany(lite);
    try {
      for (let round = 0; round < MAX_FAILURES + 1; round++) {
        // the expired company's limited session (it reaches only the pay screen)
        expect((await login(email, 'demo1234', freshIp())).statusCode).toBe(200);
      }
    } finally {
      await knex('companies').where({ id: lite }).update({ dueDate: due });
      await sessions.invalidateCompany(lite);
    }
    expect((await login(email, 'demo1234', freshIp())).statusCode).toBe(200);
  });

  it('lifts the lock when the window ends', async () => {
    const email = 'admin@lite.test';
    for (let n = 0; n < MAX_FAILURES; n++) await login(email, 'wrong', freshIp());
    expectThrottled(await login(email, 'demo1234', freshIp()));
    // the window is a Redis TTL: end it as time would
    const key = `${t.config.redisPrefix}:login:acct:${email}`;
    expect(await t.balcao.core.redis.ttl(key)).toBeGreaterThan(0);
    await t.balcao.core.redis.expire(key, 0);
    expect((await login(email, 'demo1234', freshIp())).statusCode).toBe(200);
  });
});
