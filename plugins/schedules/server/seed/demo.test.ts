import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSchedulesDemo } from './demo';

/** The demo lives in Acme's calendar: a few schedules this week (one monthly, business days) and one sent. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoData: true });
});
afterAll(async () => {
  await t?.close();
});

describe('the schedules demo', () => {
  it('gives Acme its schedules, once; Lite none', async () => {
    const admin = await t.login('admin@acme.test');
    const res = await t.inject({ method: 'GET', url: '/api/schedules', token: admin.token });
    const schedules = res.json().schedules as Array<{
      status: string;
      valorIntervalo: number;
      tipoDias: number;
      contact: { name: string };
    }>;
    expect(schedules.map((schedule) => schedule.status).sort()).toEqual(['ENVIADA', 'PENDENTE', 'PENDENTE', 'PENDENTE']);
    expect(schedules.filter((schedule) => schedule.valorIntervalo > 0 && schedule.tipoDias === 5)).toHaveLength(1);
    expect(schedules.every((schedule) => schedule.contact.name.length > 0)).toBe(true);

    const plugin = t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'schedules');
    await seedSchedulesDemo(plugin?.ctx as never, { companies: t.demo.companies });
    const count = async (companyId: number | undefined) =>
      Number((await t.balcao.core.knex('schedules').where({ companyId }).count({ n: '*' }).first())?.n);
    expect(await count(t.demo.companies.acme)).toBe(4);
    expect(await count(t.demo.companies.lite)).toBe(0);
  });
});
