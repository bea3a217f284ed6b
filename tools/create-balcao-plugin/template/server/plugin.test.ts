/**
 * The plugin on the real core: a throwaway Postgres database and real Redis, the demo seeded (Acme's plan
 * has every flag, __FLAG__ included; Lite's has none). Nothing is mocked.
 */
import path from 'node:path';
import {
  badInputWalk,
  connectSocket,
  createTestApp,
  crossTenantWalk,
  nextEvent,
  ownRoutes,
  routeContractProblems,
  seedTenantFixtures,
  type TestApp,
  type TestSession,
} from '@balcao/plugin-sdk/testing';
import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../ui/locales/en.json';
import es from '../ui/locales/es.json';
import pt from '../ui/locales/pt.json';
import tr from '../ui/locales/tr.json';
import { __CAMEL__Errors } from './errors';

const PLUGIN_ROOT = path.resolve(import.meta.dirname, '..');

let t: TestApp;
let admin: TestSession;
beforeAll(async () => {
  t = await createTestApp({ plugins: [PLUGIN_ROOT] });
  admin = await t.login('admin@acme.test');
});
afterAll(() => t?.close());

const call = (session: TestSession, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.inject({ method, url: `/api${url}`, token: session.token, ...(payload ? { payload } : {}) });

describe('__TITLE__', () => {
  it('writes a note, reviews it in a job and tells the company’s screens from the event handler', async () => {
    const base = await t.listen();
    const socket = await connectSocket(base, admin.user.companyId, admin.token);
    try {
      const created = await call(admin, 'POST', '/__ID__/notes', { text: 'first note' });
      expect(created.statusCode).toBe(201);
      const note = created.json() as { id: number; text: string; reviewed: boolean };
      expect(note).toEqual({ id: expect.any(Number), text: 'first note', reviewed: false });

      const update = await nextEvent<{ action: string; note: { id: number; reviewed: boolean } }>(
        socket,
        `company-${admin.user.companyId}-__ID__`,
        (payload) => payload.note.id === note.id,
        15_000,
      );
      expect(update).toEqual({ action: 'update', note: { id: note.id, text: 'first note', reviewed: true } });
      expect((await call(admin, 'GET', `/__ID__/notes/${note.id}`)).json()).toMatchObject({ reviewed: true });
      expect((await call(admin, 'GET', '/__ID__/notes?search=first')).json()).toEqual({ notes: [update.note] });
    } finally {
      socket.disconnect();
    }
  });

  it('answers a note nobody has with its own error code', async () => {
    const res = await call(admin, 'GET', '/__ID__/notes/999999');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR___UPPER___NOTE_NOT_FOUND' });
  });

  it('is there only for plans with __FLAG__', async () => {
    const listed = async (session: TestSession) =>
      ((await call(session, 'GET', '/plugins')).json() as { plugins: Array<{ id: string }> }).plugins.map((p) => p.id);
    expect(await listed(admin)).toContain('__ID__');

    const lite = await t.login('admin@lite.test');
    expect(await listed(lite)).not.toContain('__ID__');
    const refused = await call(lite, 'GET', '/__ID__/notes');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED' });
  });

  it('has every text in pt, en, es and tr, each error code’s included', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
    // the shell shows an error by its code's text (errors.<code>); the other locales follow pt's keys above
    expect(Object.keys(__CAMEL__Errors).filter((code) => !(code in pt.errors))).toEqual([]);
  });
});

describe('the SDK walkers over the plugin’s routes', () => {
  it('keeps the route contract', () => {
    expect(routeContractProblems(t, ownRoutes('__ID__'))).toEqual([]);
  });

  it('keeps tenants apart and refuses bad input', async () => {
    const fixtures = await seedTenantFixtures(t);
    const tenants = await crossTenantWalk(t, fixtures, ownRoutes('__ID__'));
    for (const found of [
      tenants.gaps,
      tenants.control,
      tenants.lists,
      tenants.reads,
      tenants.writes,
      tenants.otherWrites,
      tenants.foreignIds,
    ]) {
      expect(found).toEqual([]);
    }
    const input = await badInputWalk(t, fixtures, ownRoutes('__ID__'));
    expect([...input.unbuildable, ...input.failures]).toEqual([]);
  }, 240_000);
});
