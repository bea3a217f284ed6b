import { runInTenant } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from '../../models/queue';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /queue', () => {
  it("answers the company's queues (id, name, colour, order, greeting) by orderQueue, then name; never another company's", async () => {
    const acme = t.demo.companies.acme;
    await runInTenant({ companyId: acme }, () =>
      Queue.query().insert([
        { name: 'Zeta', color: '#000001', orderQueue: null },
        { name: 'Beta', color: '#000002', orderQueue: 2 },
        { name: 'Alpha', color: '#000003', orderQueue: null },
        { name: 'Gamma', color: '#000004', orderQueue: 1, greetingMessage: 'Olá!' },
      ]),
    );
    await runInTenant({ companyId: t.demo.companies.lite }, () => Queue.query().insert({ name: 'Lite queue', color: '#000005' }));
    const agent = await t.login('agent@acme.test');
    const res = await t.inject({ method: 'GET', url: '/api/queue', token: agent.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: expect.any(Number), name: 'Gamma', color: '#000004', orderQueue: 1, greetingMessage: 'Olá!' },
      { id: expect.any(Number), name: 'Beta', color: '#000002', orderQueue: 2, greetingMessage: null },
      { id: expect.any(Number), name: 'Alpha', color: '#000003', orderQueue: null, greetingMessage: null },
      { id: expect.any(Number), name: 'Zeta', color: '#000001', orderQueue: null, greetingMessage: null },
    ]);
    const unknownParam = await t.inject({ method: 'GET', url: '/api/queue?companyId=1', token: agent.token });
    expect(unknownParam.statusCode).toBe(400);
    expect((await t.inject({ method: 'GET', url: '/api/queue' })).statusCode).toBe(401);
  });
});
