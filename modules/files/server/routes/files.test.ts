/**
 * The file lists' routes on the real core (Postgres, Redis, storage on disk): CRUD with search and pages,
 * uploads checked by content, the `file` channel, profile users refused, and the SDK walkers (tenants kept
 * apart, bad input refused).
 */
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPdf } from '../seed/demo';
import type { FileListJson } from '../service';
import { multipart } from '../testing/multipart';

let t: TestApp;
let admin: TestSession;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@acme.test');
});
afterAll(() => t?.close());

const call = (session: TestSession, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.inject({ method, url: `/api${url}`, token: session.token, ...(payload ? { payload } : {}) });

const upload = (session: TestSession, listId: number, optionId: number, file: { name: string; content: Buffer; type: string }) =>
  t.inject({
    method: 'POST',
    url: `/api/files/uploadList/${listId}`,
    token: session.token,
    ...multipart(
      { fileId: String(listId), typeArch: 'fileList', id: String(optionId), mediaType: 'image', name: 'x' },
      { field: 'files', ...file },
    ),
  });

describe('file lists', () => {
  it('creates a list with options, uploads a file by its content, tells the company and deletes it all', async () => {
    const socket = await connectSocket(await t.listen(), admin.user.companyId, admin.token);
    try {
      const channel = `company-${admin.user.companyId}-file`;
      const created = await call(admin, 'POST', '/files', {
        name: 'Tabela de preços',
        message: 'Segue a nossa tabela',
        options: [{ name: 'Tabela' }, { name: 'Catálogo' }],
        userId: admin.user.id,
      });
      expect(created.statusCode).toBe(200);
      const list = created.json() as FileListJson;
      expect(list).toMatchObject({ name: 'Tabela de preços', message: 'Segue a nossa tabela' });
      expect(list.options.map((option) => [option.name, option.path])).toEqual([
        ['Tabela', null],
        ['Catálogo', null],
      ]);
      const [first, second] = list.options as [FileListJson['options'][0], FileListJson['options'][0]];

      const announced = nextEvent<{ action: string; files: FileListJson }>(
        socket,
        channel,
        (payload) => payload.action === 'update',
      );
      // a PDF named like a picture is stored as what it is
      const uploaded = await upload(admin, list.id, first.id, {
        name: 'tabela.png',
        content: demoPdf('Tabela'),
        type: 'image/png',
      });
      expect(uploaded.statusCode).toBe(200);
      const withFile = uploaded.json() as FileListJson;
      expect(withFile.options[0]).toMatchObject({ id: first.id, mediaType: 'application', fileName: 'tabela.png' });
      expect(withFile.options[0]?.url).toMatch(/^\/api\/media\//);
      // stored under the content's extension, so it is served as a PDF
      expect(withFile.options[0]?.path).toMatch(/\.pdf$/);
      expect((await announced).files.options[0]?.path).toBe(withFile.options[0]?.path);
      const stored = await t.balcao.core.storage.stat(admin.user.companyId, withFile.options[0]?.path as string);
      expect(stored?.size).toBe(demoPdf('Tabela').length);

      // a script named like a PDF is refused by its content
      const script = await upload(admin, list.id, second.id, {
        name: 'doc.pdf',
        content: Buffer.from('#!/bin/sh\nrm -rf /\n'),
        type: 'application/pdf',
      });
      expect(script.statusCode).toBe(415);
      expect(script.json()).toEqual({ error: 'ERR_FILE_LIST_MEDIA_TYPE' });

      // the edit keeps the first option (and its file), renames it and drops the second
      const edited = await call(admin, 'PUT', `/files/${list.id}`, {
        name: 'Tabela de preços 2026',
        message: 'Segue',
        options: [{ id: first.id, name: 'Tabela 2026' }, { name: 'Novo' }],
      });
      expect(edited.statusCode).toBe(200);
      const after = edited.json() as FileListJson;
      expect(after.options.map((option) => [option.name, option.path !== null])).toEqual([
        ['Tabela 2026', true],
        ['Novo', false],
      ]);

      // a save without the options changes the name and message only: no option or file is lost
      const renamed = await call(admin, 'PUT', `/files/${list.id}`, { name: 'Tabela de preços 2026', message: 'Segue a tabela' });
      expect(renamed.statusCode).toBe(200);
      expect((renamed.json() as FileListJson).options.map((option) => [option.name, option.path !== null])).toEqual([
        ['Tabela 2026', true],
        ['Novo', false],
      ]);

      const found = (await call(admin, 'GET', '/files?searchParam=preços 2026')).json() as {
        files: FileListJson[];
        hasMore: boolean;
      };
      expect(found.files.map((file) => file.id)).toEqual([list.id]);
      expect((await call(admin, 'GET', `/files/${list.id}`)).json()).toMatchObject({ name: 'Tabela de preços 2026' });

      const deleting = nextEvent<{ action: string; fileId: number }>(socket, channel, (payload) => payload.action === 'delete');
      expect((await call(admin, 'DELETE', `/files/${list.id}`)).statusCode).toBe(200);
      expect(await deleting).toEqual({ action: 'delete', fileId: list.id });
      expect(await t.balcao.core.storage.stat(admin.user.companyId, withFile.options[0]?.path as string)).toBeNull();
      expect((await call(admin, 'GET', `/files/${list.id}`)).json()).toEqual({ error: 'ERR_NO_FILE_LIST_FOUND' });
    } finally {
      socket.disconnect();
    }
  });

  it('validates the list, pages by 20 and refuses an option of another list', async () => {
    expect((await call(admin, 'POST', '/files', { name: 'ab', message: 'x' })).json()).toEqual({
      error: 'ERR_FILE_LIST_NAME_SHORT',
    });
    expect((await call(admin, 'POST', '/files', { name: 'abc', message: '  ' })).json()).toEqual({
      error: 'ERR_FILE_LIST_MESSAGE_REQUIRED',
    });
    const prefix = `Paginada ${Date.now()}`;
    const ids: number[] = [];
    for (let index = 0; index < 21; index += 1) {
      const made = (
        await call(admin, 'POST', '/files', {
          name: `${prefix} ${String(index).padStart(2, '0')}`,
          message: 'm',
          options: [{ name: 'o' }],
        })
      ).json() as FileListJson;
      ids.push(made.id);
    }
    const page1 = (await call(admin, 'GET', `/files?searchParam=${encodeURIComponent(prefix)}`)).json() as {
      files: FileListJson[];
      hasMore: boolean;
    };
    const page2 = (await call(admin, 'GET', `/files?searchParam=${encodeURIComponent(prefix)}&pageNumber=2`)).json() as {
      files: FileListJson[];
      hasMore: boolean;
    };
    expect([page1.files.length, page1.hasMore, page2.files.length, page2.hasMore]).toEqual([20, true, 1, false]);

    const [a, b] = (await Promise.all(
      ids.slice(0, 2).map(async (id) => (await call(admin, 'GET', `/files/${id}`)).json()),
    )) as FileListJson[];
    const foreignOption = (b as FileListJson).options[0]?.id as number;
    const refused = await upload(admin, (a as FileListJson).id, foreignOption, {
      name: 'x.pdf',
      content: demoPdf('x'),
      type: 'application/pdf',
    });
    expect(refused.json()).toEqual({ error: 'ERR_NO_FILE_OPTION_FOUND' });
    const moved = await call(admin, 'PUT', `/files/${(a as FileListJson).id}`, {
      name: 'abc',
      message: 'm',
      options: [{ id: foreignOption, name: 'x' }],
    });
    expect(moved.json()).toEqual({ error: 'ERR_NO_FILE_OPTION_FOUND' });
  });

  it('is not for profile users', async () => {
    const agent = await t.login('agent@acme.test');
    expect((await call(agent, 'GET', '/files')).statusCode).toBe(403);
  });
});

describe('the SDK walkers over the file-list routes', () => {
  it('keeps the route contract, tenants apart and refuses bad input', async () => {
    expect(routeContractProblems(t, ownRoutes('files'))).toEqual([]);
    const fixtures = await seedTenantFixtures(t);
    const tenants = await crossTenantWalk(t, fixtures, ownRoutes('files'));
    expect(tenants.walked.length).toBeGreaterThanOrEqual(5);
    expect(tenants.markerSeenByA).toBe(true);
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
    const input = await badInputWalk(t, fixtures, ownRoutes('files'));
    expect([...input.unbuildable, ...input.failures]).toEqual([]);
  }, 240_000);
});
