import { currentTenant, runInTenant, TenantScopeError, User } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HelloNote } from '../../test/fixtures/hello-plugin/server/models/hello-note';

/**
 * Tenant isolation at the model level (docs/architecture.md#tenancy): a TenantModel refuses to run outside a tenant
 * scope, scopes every read and write to the scope's company, refuses to put a row in another company,
 * and `crossTenant()` lifts that explicitly. Then the same through HTTP: company B never sees A's rows.
 */
let t: TestApp;
let acme: number;
let lite: number;
let acmeNote: number;
let liteNote: number;
beforeAll(async () => {
  t = await createTestApp({ plugins: ['server/test/fixtures/hello-plugin'] });
  acme = t.demo.companies.acme;
  lite = t.demo.companies.lite;
  // rows written straight with knex: what the models do is what is under test
  const { knex } = t.balcao.core;
  [{ id: acmeNote }] = await knex('helloNotes').insert({ companyId: acme, text: 'acme secret' }).returning('id');
  [{ id: liteNote }] = await knex('helloNotes').insert({ companyId: lite, text: 'lite note' }).returning('id');
});
afterAll(async () => {
  await t.close();
});

const inAcme = <T>(fn: () => T) => runInTenant({ companyId: acme }, fn);
const noteRow = (id: number) => t.balcao.core.knex('helloNotes').where({ id }).first();

describe('outside a tenant scope', () => {
  it('refuses reads, writes and deletes with TenantScopeError', async () => {
    expect(currentTenant()).toBeUndefined();
    await expect(HelloNote.query()).rejects.toBeInstanceOf(TenantScopeError);
    await expect(HelloNote.query().findById(acmeNote)).rejects.toBeInstanceOf(TenantScopeError);
    await expect(HelloNote.query().patch({ text: 'x' }).where('id', acmeNote)).rejects.toBeInstanceOf(TenantScopeError);
    await expect(HelloNote.query().deleteById(acmeNote)).rejects.toBeInstanceOf(TenantScopeError);
    await expect(HelloNote.query().insert({ text: 'orphan' })).rejects.toBeInstanceOf(TenantScopeError);
    await expect(HelloNote.query().insert({ text: 'orphan', companyId: acme })).rejects.toBeInstanceOf(TenantScopeError);
    await expect(User.query().count()).rejects.toBeInstanceOf(TenantScopeError);
    expect((await noteRow(acmeNote)).text).toBe('acme secret');
    expect(await t.balcao.core.knex('helloNotes').where({ text: 'orphan' }).count({ n: '*' })).toEqual([{ n: 0 }]);
  });
});

describe('inside a tenant scope', () => {
  it("reads only the scope's company", async () => {
    const notes = await inAcme(() => HelloNote.query());
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((note) => note.companyId === acme)).toBe(true);
    expect(await inAcme(() => HelloNote.query().findById(liteNote))).toBeUndefined();
    expect(await inAcme(() => HelloNote.query().findById(acmeNote))).toMatchObject({ text: 'acme secret' });
    // even an explicit filter on the other company finds nothing
    expect(await inAcme(() => HelloNote.query().where('companyId', lite))).toEqual([]);

    const users = await inAcme(() => User.query().orderBy('id'));
    expect(users.map((user) => user.email)).toEqual(['admin@acme.test', 'agent@acme.test']);
    expect(await inAcme(() => User.query().findById(t.demo.users.liteAdmin))).toBeUndefined();
  });

  it("updates and deletes only the scope's rows", async () => {
    const patched = await inAcme(() => HelloNote.query().patch({ shouted: true }).where('id', liteNote));
    expect(patched).toBe(0);
    const deleted = await inAcme(() => HelloNote.query().deleteById(liteNote));
    expect(deleted).toBe(0);
    expect(await noteRow(liteNote)).toMatchObject({ text: 'lite note', shouted: false });

    // a query with no filter at all still only touches the scope's company
    await inAcme(() => HelloNote.query().patch({ shouted: true }));
    expect((await noteRow(acmeNote)).shouted).toBe(true);
    expect((await noteRow(liteNote)).shouted).toBe(false);
    const liteRows = await t.balcao.core.knex('helloNotes').where({ companyId: lite });
    expect(liteRows.every((row) => row.shouted === false)).toBe(true);
  });

  it("inserts into the scope's company and refuses to insert into another", async () => {
    const note = await inAcme(() => HelloNote.query().insert({ text: 'made in scope' }));
    expect(note.companyId).toBe(acme);
    expect((await noteRow(note.id)).companyId).toBe(acme);
    const same = await inAcme(() => HelloNote.query().insert({ text: 'explicit same company', companyId: acme }));
    expect(same.companyId).toBe(acme);

    await expect(inAcme(() => HelloNote.query().insert({ text: 'smuggled', companyId: lite }))).rejects.toBeInstanceOf(
      TenantScopeError,
    );
    expect(await t.balcao.core.knex('helloNotes').where({ text: 'smuggled' }).count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('refuses to move a row into another company', async () => {
    await expect(inAcme(() => HelloNote.query().patch({ companyId: lite }).where('id', acmeNote))).rejects.toBeInstanceOf(
      TenantScopeError,
    );
    const note = await inAcme(() => HelloNote.query().findById(acmeNote));
    await expect(inAcme(() => note?.$query().patch({ companyId: lite }))).rejects.toBeInstanceOf(TenantScopeError);
    expect((await noteRow(acmeNote)).companyId).toBe(acme);
  });

  it('runs a query in the scope it was written in, even when awaited outside it (builders are lazy)', async () => {
    const builder = runInTenant({ companyId: lite }, () => HelloNote.query().orderBy('id'));
    expect(currentTenant()).toBeUndefined();
    const notes = await builder;
    expect(notes.map((note) => note.id)).toContain(liteNote);
    expect(notes.every((note) => note.companyId === lite)).toBe(true);
    // queries objection derives from it at run time (count of a page) inherit the scope too
    const page = await runInTenant({ companyId: lite }, () => HelloNote.query().page(0, 1));
    const liteCount = await t.balcao.core.knex('helloNotes').where({ companyId: lite }).count({ n: '*' });
    expect(page.total).toBe(liteCount[0]?.n);
    // and an insert written in a scope lands in that company
    const inserted = await runInTenant({ companyId: lite }, () => HelloNote.query().insert({ text: 'lazy insert' }));
    expect((await noteRow(inserted.id)).companyId).toBe(lite);
  });

  it('keeps concurrent scopes apart (each async flow sees its own company)', async () => {
    const runs = Array.from({ length: 20 }, (_, i) => {
      const companyId = i % 2 === 0 ? acme : lite;
      return runInTenant({ companyId }, async () => {
        await new Promise((resolve) => setTimeout(resolve, (i * 7) % 11));
        const notes = await HelloNote.query();
        return notes.every((note) => note.companyId === companyId) && notes.length > 0;
      });
    });
    expect(await Promise.all(runs)).toEqual(Array(20).fill(true));
  });
});

describe('crossTenant()', () => {
  it('lifts the company filter for that query only, explicitly', async () => {
    const all = await HelloNote.query().crossTenant().orderBy('id');
    expect(new Set(all.map((note) => note.companyId))).toEqual(new Set([acme, lite]));
    const fromAcme = await inAcme(() => HelloNote.query().crossTenant().findById(liteNote));
    expect(fromAcme?.text).toBe('lite note');
    // the next query in the same scope is filtered again
    expect(await inAcme(() => HelloNote.query().findById(liteNote))).toBeUndefined();
  });

  it('lets system code write for a named company without a scope', async () => {
    const note = await HelloNote.query().crossTenant().insert({ text: 'system note', companyId: lite });
    expect((await noteRow(note.id)).companyId).toBe(lite);
    const moved = await HelloNote.query().crossTenant().patch({ text: 'system edit' }).where('id', note.id);
    expect(moved).toBe(1);
  });
});

describe('through HTTP', () => {
  let acmeAdmin: TestSession;
  let liteAdmin: TestSession;
  beforeAll(async () => {
    // Lite gets the plugin's flag so that the refusal below is tenancy, not the plan gate
    const { knex, sessions } = t.balcao.core;
    const plan = await knex('companies').where({ id: lite }).first('planId');
    await knex('plans')
      .where({ id: plan.planId })
      .update({ pluginFlags: JSON.stringify({ useHello: true }) });
    await sessions.invalidatePlan(plan.planId);
    acmeAdmin = await t.login('admin@acme.test');
    liteAdmin = await t.login('admin@lite.test');
  });

  it("answers 404 and none of A's data to company B's token on A's note", async () => {
    const res = await t.inject({ method: 'GET', url: `/api/hello-notes/${acmeNote}`, token: liteAdmin.token });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_HELLO_NOT_FOUND' });
    expect(res.body).not.toContain('acme secret');
    const own = await t.inject({ method: 'GET', url: `/api/hello-notes/${acmeNote}`, token: acmeAdmin.token });
    expect(own.statusCode).toBe(200);
    expect(own.json().text).toBe('acme secret');
  });

  it("lists and searches only the session's company", async () => {
    const list = await t.inject({ method: 'GET', url: '/api/hello-notes?searchParam=secret', token: liteAdmin.token });
    expect(list.statusCode).toBe(200);
    expect(list.json().notes).toEqual([]);
    const ids = (await t.inject({ method: 'GET', url: '/api/hello-notes', token: liteAdmin.token }))
      .json()
      .notes.map((note: { id: number }) => note.id);
    expect(ids).toContain(liteNote);
    expect(ids).not.toContain(acmeNote);
  });

  it('creates rows in the session company whatever the body says', async () => {
    const smuggle = await t.inject({
      method: 'POST',
      url: '/api/hello-notes',
      token: liteAdmin.token,
      payload: { text: 'from lite', companyId: acme },
    });
    expect(smuggle.statusCode).toBe(400);
    const created = await t.inject({
      method: 'POST',
      url: '/api/hello-notes',
      token: liteAdmin.token,
      payload: { text: 'from lite' },
    });
    expect(created.statusCode).toBe(201);
    expect((await noteRow(created.json().id)).companyId).toBe(lite);
  });

  it('keeps concurrent requests of two companies apart', async () => {
    const calls = Array.from({ length: 16 }, (_, i) => {
      const session = i % 2 === 0 ? acmeAdmin : liteAdmin;
      return t.inject({ method: 'GET', url: '/api/hello-notes', token: session.token }).then((res) => ({
        companyId: session.user.companyId,
        notes: res.json().notes as Array<{ id: number }>,
      }));
    });
    for (const { companyId, notes } of await Promise.all(calls)) {
      const ids = notes.map((note) => note.id);
      if (companyId === acme) expect(ids).not.toContain(liteNote);
      else expect(ids).not.toContain(acmeNote);
    }
  });
});
