import type { PluginContext } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueTime } from '../../shared/schedules';
import { companyServiceHours } from '../services/schedules.service';
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
    const ctx = t.balcao.plugins.find((plugin) => plugin.definition.id === 'schedules')?.ctx as PluginContext;
    const hours = await companyServiceHours(ctx, t.demo.companies.acme);
    const rows = (await t.balcao.core.knex('schedules').where({ companyId: t.demo.companies.acme })) as Array<{
      sendAt: Date;
      dueAt: Date;
      tipoDias: number;
    }>;
    for (const row of rows) expect(row.dueAt).toEqual(dueTime(new Date(row.sendAt), row.tipoDias, hours));

    const plugin = t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'schedules');
    await seedSchedulesDemo(plugin?.ctx as never, { companies: t.demo.companies });
    const count = async (companyId: number | undefined) =>
      Number((await t.balcao.core.knex('schedules').where({ companyId }).count({ n: '*' }).first())?.n);
    expect(await count(t.demo.companies.acme)).toBe(4);
    expect(await count(t.demo.companies.lite)).toBe(0);

    // seeded on a Wednesday, the business-days one (3 days on, 09:00) falls on Saturday: due at Monday's opening
    const wednesday = new Date();
    wednesday.setDate(wednesday.getDate() + ((3 - wednesday.getDay() + 7) % 7));
    await t.balcao.core.knex('schedules').where({ companyId: t.demo.companies.acme }).delete();
    await seedSchedulesDemo(plugin?.ctx as never, { companies: t.demo.companies }, wednesday);
    const business = await t.balcao.core.knex('schedules').where({ companyId: t.demo.companies.acme, tipoDias: 5 }).first();
    expect(new Date(business.sendAt).getDay()).toBe(6);
    expect(new Date(business.dueAt).getDay()).toBe(1);
  });
});
