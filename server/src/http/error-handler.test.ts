/**
 * The one place errors become HTTP answers (error-handler.ts), through real routes of a fixture plugin
 * (server/test/fixtures/errors-plugin) on a real app: coded errors, schema failures, Postgres input
 * errors, bugs, unknown routes and the SPA fallback of the built shell.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { AppError, defineErrors, registerErrors, registeredErrors, statusForError } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ERRORS_FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/errors-plugin');
const hostDist = mkdtempSync(path.join(tmpdir(), 'balcao-host-dist-'));
const INDEX_HTML = '<!doctype html><html><head><title>Balcão</title></head><body><div id="root"></div></body></html>';

let t: TestApp;
let admin: TestSession;
/** Every log line the app writes at error level, parsed. */
const logged: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  mkdirSync(path.join(hostDist, 'assets'));
  writeFileSync(path.join(hostDist, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(hostDist, 'assets', 'app.0123abcd.js'), 'console.log("app");');
  t = await createTestApp({ plugins: [ERRORS_FIXTURE], config: { hostDist, logLevel: 'error' } });
  // capture the app's log: request loggers are children of this one and write to its stream
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logged.push(JSON.parse(line));
      done();
    },
  });
  (t.balcao.app.log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] = capture;
  admin = await t.login('admin@acme.test');
});
afterAll(async () => {
  await t?.close();
  rmSync(hostDist, { recursive: true, force: true });
});

describe('coded errors', () => {
  it('answers an AppError with its registered status and { error, ...extra }, the code winning over extra', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/oops/app-error' });
    expect(res.statusCode).toBe(418);
    expect(res.json()).toEqual({ error: 'ERR_OOPS_TEAPOT', retryAfter: 3 });
    const core = await t.inject({ method: 'GET', url: '/api/oops/core-error' });
    expect(core.statusCode).toBe(404);
    expect(core.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
  });

  it('takes an explicit status for a code nobody registered', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/oops/status-override' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'ERR_OOPS_UNREGISTERED_BUT_STATUSED' });
  });

  it('refuses at construction a code nobody registered', () => {
    expect(() => new AppError('ERR_NEVER_REGISTERED_ANYWHERE')).toThrow(
      "Unregistered error code ERR_NEVER_REGISTERED_ANYWHERE: give it to the feature's definition (defineErrors, docs/plugin-authoring.md)",
    );
    expect(new AppError('ERR_OOPS_TEAPOT').status).toBe(418);
  });

  it('registers the codes of a definition, not of defineErrors', () => {
    const walkerErrors = defineErrors({ ERR_TEST_WALKER_GONE: 410 });
    expect(walkerErrors).toEqual({ ERR_TEST_WALKER_GONE: 410 });
    expect(statusForError('ERR_TEST_WALKER_GONE')).toBeUndefined();
    expect(registeredErrors().get('ERR_OOPS_TEAPOT')).toEqual({ status: 418, owner: 'oops' });
  });

  it('gives each code one owner: its own codes again are fine, another feature’s or the core’s are refused', () => {
    registerErrors('walker', { ERR_TEST_WALKER_GONE: 410 });
    expect(() => registerErrors('walker', { ERR_TEST_WALKER_GONE: 410 })).not.toThrow();
    expect(statusForError('ERR_TEST_WALKER_GONE')).toBe(410);
    expect(registeredErrors().get('ERR_TEST_WALKER_GONE')).toEqual({ status: 410, owner: 'walker' });
    expect(() => registerErrors('walker', { ERR_TEST_WALKER_GONE: 404 })).toThrow(
      'Error code ERR_TEST_WALKER_GONE of walker is already registered by walker with status 410',
    );
    expect(() => registerErrors('other', { ERR_TEST_WALKER_GONE: 410 })).toThrow(
      'Error code ERR_TEST_WALKER_GONE of other is already registered by walker with status 410',
    );
    expect(() => registerErrors('walker', { ERR_VALIDATION: 400 })).toThrow(
      'Error code ERR_VALIDATION of walker is already registered by core with status 400',
    );
    expect(() => registerErrors('walker', { ERR_TEST_WALKER_REDIRECT: 302 })).toThrow(
      'Error code ERR_TEST_WALKER_REDIRECT needs a 4xx or 5xx status',
    );
    expect(statusForError('ERR_TEST_WALKER_REDIRECT')).toBeUndefined();
  });
});

describe('schema failures', () => {
  const validBody = { x: 'ok', n: 1, nested: { deep: true } };

  it('answers 400 ERR_VALIDATION listing every failing body field by path', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/oops/validate/7?y=1',
      payload: { x: 'a', n: 'one', nested: { deep: 'yes', extra: 1 }, stray: true },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json() as { error: string; details: Array<{ field: string; message: string }> };
    expect(body.error).toBe('ERR_VALIDATION');
    expect(body.details).toEqual(
      expect.arrayContaining([
        { field: 'body.x', message: 'must NOT have fewer than 2 characters' },
        { field: 'body.n', message: 'must be integer' },
        { field: 'body.nested.deep', message: 'must be boolean' },
        { field: 'body.nested.extra', message: 'is not allowed' },
        { field: 'body.stray', message: 'is not allowed' },
      ]),
    );
    expect(body.details).toHaveLength(5);
  });

  it('names missing fields, query parameters and path parameters', async () => {
    const missing = await t.inject({ method: 'POST', url: '/api/oops/validate/7?y=1', payload: { nested: {} } });
    expect(missing.json().details).toEqual(
      expect.arrayContaining([
        { field: 'body.x', message: "must have required property 'x'" },
        { field: 'body.n', message: "must have required property 'n'" },
        { field: 'body.nested.deep', message: "must have required property 'deep'" },
      ]),
    );
    const query = await t.inject({ method: 'POST', url: '/api/oops/validate/7?y=0&z=long&w=1', payload: validBody });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toEqual({
      error: 'ERR_VALIDATION',
      details: expect.arrayContaining([
        { field: 'querystring.y', message: 'must be >= 1' },
        { field: 'querystring.z', message: 'must NOT have more than 3 characters' },
        { field: 'querystring.w', message: 'is not allowed' },
      ]),
    });
    const noQuery = await t.inject({ method: 'POST', url: '/api/oops/validate/7', payload: validBody });
    expect(noQuery.json().details).toEqual([{ field: 'querystring.y', message: "must have required property 'y'" }]);
    const params = await t.inject({ method: 'POST', url: '/api/oops/validate/abc?y=1', payload: validBody });
    expect(params.statusCode).toBe(400);
    expect(params.json()).toEqual({ error: 'ERR_VALIDATION', details: [{ field: 'params.id', message: 'must be integer' }] });
    const tooBig = await t.inject({ method: 'POST', url: '/api/oops/validate/2147483648?y=1', payload: validBody });
    expect(tooBig.json().details).toEqual([{ field: 'params.id', message: 'must be <= 2147483647' }]);
  });

  it('names the whole body when it has the wrong type, and lets a valid request through', async () => {
    const wrong = await t.inject({ method: 'POST', url: '/api/oops/validate/7?y=1', payload: [1, 2] });
    expect(wrong.json()).toEqual({ error: 'ERR_VALIDATION', details: [{ field: 'body', message: 'must be object' }] });
    const ok = await t.inject({ method: 'POST', url: '/api/oops/validate/7?y=2', payload: validBody });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true });
  });

  it("answers Fastify's own refusals in the API's shape", async () => {
    const cases: Array<[string, Parameters<TestApp['inject']>[0], number, string]> = [
      [
        'invalid JSON',
        { method: 'POST', url: '/api/oops/validate/7?y=1', payload: '{"x":', headers: { 'content-type': 'application/json' } },
        400,
        'ERR_BAD_REQUEST',
      ],
      [
        'an unsupported content type',
        {
          method: 'POST',
          url: '/api/oops/validate/7?y=1',
          payload: 'a=1',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
        415,
        'ERR_UNSUPPORTED_MEDIA_TYPE',
      ],
      [
        'a body over 1 MB',
        { method: 'POST', url: '/api/oops/validate/7?y=1', payload: { x: 'x'.repeat(1_100_000), n: 1, nested: { deep: true } } },
        413,
        'ERR_PAYLOAD_TOO_LARGE',
      ],
      ['a badly encoded path', { method: 'GET', url: '/api/oops/pg/%ED%A0%80' }, 400, 'ERR_BAD_REQUEST'],
      [
        'a path parameter past the router limit',
        { method: 'POST', url: `/api/oops/validate/${'9'.repeat(600)}`, payload: {} },
        414,
        'ERR_BAD_REQUEST',
      ],
      ['an error carrying an HTTP status', { method: 'GET', url: '/api/oops/status-error' }, 404, 'ERR_NOT_FOUND'],
    ];
    for (const [label, request, status, error] of cases) {
      const res = await t.inject(request);
      expect(res.statusCode, label).toBe(status);
      expect(res.json(), label).toEqual({ error });
    }
  });
});

describe('Postgres input errors', () => {
  const cases: Array<[string, number, string]> = [
    ['text', 400, 'ERR_VALIDATION'], // 22P02 invalid text representation
    ['range', 400, 'ERR_VALIDATION'], // 22003 numeric value out of range
    ['nul', 400, 'ERR_VALIDATION'], // 22021 NUL byte
    ['too-long', 400, 'ERR_VALIDATION'], // 22001 value too long
    ['bad-date', 400, 'ERR_VALIDATION'], // 22007 invalid datetime format
    ['date-overflow', 400, 'ERR_VALIDATION'], // 22008 datetime field overflow
    ['unique', 409, 'ERR_CONFLICT'], // 23505 unique violation
    ['foreign', 409, 'ERR_CONFLICT'], // 23503 foreign key violation
    ['model-nul', 400, 'ERR_VALIDATION'], // the same through objection, which wraps the driver's error
    ['model-unique', 409, 'ERR_CONFLICT'],
  ];
  it.each(cases)('answers %s with %i %s, never a 500', async (kind, status, error) => {
    const res = await t.inject({ method: 'GET', url: `/api/oops/pg/${kind}`, token: admin.token });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ error });
  });
});

describe('bugs', () => {
  const bugs = ['/api/oops/crash', '/api/oops/crash-value', '/api/oops/tenantless', '/api/oops/bad-response'];

  it.each(bugs)(
    'answers %s with 500 { error: ERR_INTERNAL, requestId }, no stack, and logs it with the request id',
    async (url) => {
      logged.length = 0;
      const res = await t.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(500);
      const body = res.json() as { error: string; requestId: string };
      expect(body).toEqual({ error: 'ERR_INTERNAL', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(res.body).not.toMatch(/kaboom|secret|internals|stack|\.ts:\d+|Tenant-scoped/);
      const line = logged.find((entry) => entry.reqId === body.requestId && entry.level === 50);
      expect(line, `no error log line with reqId ${body.requestId}: ${JSON.stringify(logged)}`).toBeDefined();
      expect(line?.err).toBeDefined();
    },
  );

  it('logs the message and stack of an unexpected error where operators look, not in the answer', async () => {
    logged.length = 0;
    const res = await t.inject({ method: 'GET', url: '/api/oops/crash' });
    const line = logged.find((entry) => entry.reqId === res.json().requestId);
    const err = (line?.err ?? {}) as { message?: string; stack?: string };
    expect(err.message).toBe('kaboom: secret internals at /srv/balcao/db.ts:42');
    expect(err.stack).toMatch(/at /);
  });
});

describe('unknown routes and the shell', () => {
  it('answers unknown API routes and methods with 404 ERR_NOT_FOUND in JSON, whatever the Accept header', async () => {
    for (const request of [
      { method: 'GET', url: '/api/unknown' },
      { method: 'GET', url: '/api/unknown', headers: { accept: 'text/html' } },
      { method: 'POST', url: '/api/unknown', headers: { accept: 'text/html' } },
      { method: 'PUT', url: '/api/version' },
      { method: 'DELETE', url: '/nowhere' },
    ] as const) {
      const res = await t.inject(request);
      expect(res.statusCode, `${request.method} ${request.url}`).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ error: 'ERR_NOT_FOUND' });
    }
  });

  it("serves the shell's index.html for client routes a browser asks for", async () => {
    for (const url of ['/tickets', '/tickets/42?tab=notes', '/']) {
      const res = await t.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toBe(INDEX_HTML);
    }
  });

  it('does not answer with the shell for non-pages: JSON clients, files, other methods', async () => {
    for (const request of [
      { method: 'GET', url: '/tickets', headers: { accept: 'application/json' } },
      { method: 'GET', url: '/missing.js', headers: { accept: 'text/html' } },
      { method: 'POST', url: '/tickets', headers: { accept: 'text/html' } },
      // a folder of the shell is not a page either (was a 403 from the static files)
      { method: 'GET', url: '/assets/', headers: { accept: 'application/json' } },
    ] as const) {
      const res = await t.inject(request);
      expect(res.statusCode, `${request.method} ${request.url}`).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NOT_FOUND' });
    }
  });

  it("serves the shell's files, hashed ones cached for ever", async () => {
    const res = await t.inject({ method: 'GET', url: '/assets/app.0123abcd.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log("app");');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
