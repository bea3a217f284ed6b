/**
 * The API document as a client generator reads it (docs/api.md, "The API document"): the served
 * `/api/docs/json` passes Redocly's recommended rules with no error, names each operation once, tags and
 * secures it by the route's feature and access, names the shared schemas, lists error codes that exist at
 * their status, and offers multipart bodies where routes read them.
 */
import { statusForError } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentPath, inlineNamedSchemas, routeErrors } from '../../src/http/openapi';

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: { content?: Record<string, unknown> };
  responses: Record<
    string,
    { content?: { 'application/json'?: { schema?: { allOf?: { properties?: { error?: { enum?: string[] } } }[] } } } }
  >;
};
type ApiDocument = {
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
};

/** Features whose every route declares its own codes (`schema.errors`): docs/api.md, "The API document". */
const CLOSED_FEATURES = ['core', 'inbox', 'insights', 'kanban', 'campaigns', 'admin', 'channels', 'message-api'];

/** Warning rules the document keeps, each for the reason docs/api.md gives ("Lint warnings"). */
const ACCEPTED_WARNINGS = new Set(['no-ambiguous-paths', 'info-license', 'operation-4xx-response']);

let t: TestApp;
let source: string;
let doc: ApiDocument;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  const response = await t.balcao.app.inject({ method: 'GET', url: `${t.config.apiPrefix}/docs/json` });
  expect(response.statusCode).toBe(200);
  source = response.body;
  doc = JSON.parse(source) as ApiDocument;
});
afterAll(async () => {
  await t?.close();
});

/** The documented routes: every API route but the docs' own and the browsers' CORS preflights. */
function documentedRoutes() {
  return t.balcao.routes.routes.filter(
    (route) => !route.config.infra && route.method !== 'OPTIONS' && route.url.startsWith(`${t.config.apiPrefix}/`),
  );
}

const operationOf = (route: { method: string; url: string }) =>
  doc.paths[documentPath(route.url, t.config.apiPrefix).replace(/(.)\/$/, '$1')]?.[route.method.toLowerCase()];

describe('the API document', () => {
  it("passes Redocly's recommended rules with no error and only the warnings docs/api.md explains", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: '/api/docs/json', config });
    const errors = problems.filter((problem) => problem.severity === 'error');
    expect(errors.map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`)).toEqual([]);
    const warnings = new Set(problems.map((problem) => problem.ruleId));
    for (const rule of warnings) expect(ACCEPTED_WARNINGS, `warning rule ${rule}`).toContain(rule);
  });

  it('documents every route once, with a summary, a unique operation id and a described tag', () => {
    const tags = new Map(doc.tags.map((tag) => [tag.name, tag.description]));
    const ids = new Set<string>();
    for (const route of documentedRoutes()) {
      const operation = operationOf(route);
      expect(operation, `${route.method} ${route.url}`).toBeDefined();
      if (!operation) continue;
      expect(operation.summary, `${route.method} ${route.url}`).toBeTruthy();
      expect(operation.operationId).toMatch(/^[a-z][A-Za-z0-9]+$/);
      ids.add(operation.operationId as string);
      for (const tag of operation.tags ?? []) expect(tags.get(tag), `tag ${tag}`).toBeTruthy();
      expect(operation.tags?.length).toBe(1);
    }
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(ids.size).toBe(operations.length);
  });

  it('asks for the bearer token exactly on the routes that need a session, and names where API keys go', () => {
    for (const route of documentedRoutes()) {
      const expected = [
        ...(route.config.access === 'public' ? [] : [{ bearer: [] }]),
        ...(route.config.apiKeyScope ? [{ apiKey: [] }] : []),
        ...((route.schema as { security?: unknown[] } | undefined)?.security ?? []),
      ];
      expect(operationOf(route)?.security, `${route.method} ${route.url}`).toEqual(expected);
    }
    expect(operationOf({ method: 'POST', url: `${t.config.apiPrefix}/auth/login` })?.security).toEqual([]);
    expect(operationOf({ method: 'GET', url: `${t.config.apiPrefix}/tickets` })?.security).toEqual([
      { bearer: [] },
      { apiKey: [] },
    ]);
    expect(operationOf({ method: 'POST', url: `${t.config.apiPrefix}/messages/send` })?.security).toEqual([
      { apiKey: [] },
      { connectionToken: [] },
    ]);
    expect(Object.keys(doc.components.securitySchemes ?? {})).toEqual(['bearer', 'apiKey', 'connectionToken']);
  });

  it('names the shared schemas in components and refers to them', () => {
    for (const name of ['Error', 'Ticket', 'Message', 'Contact', 'User', 'Queue', 'Tag', 'Connection', 'Campaign', 'Plan']) {
      expect(doc.components.schemas, name).toHaveProperty(name);
    }
    expect(inlineNamedSchemas(doc as unknown as Record<string, unknown>)).toEqual([]);
    const ticket = doc.paths['/tickets/{id}']?.get?.responses['200'];
    expect(ticket?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Ticket' });
  });

  it('lists only registered codes, each at the status it answers with', () => {
    const problems: string[] = [];
    for (const route of documentedRoutes()) {
      for (const [status, codes] of routeErrors(route)) {
        for (const code of codes) {
          const registered = statusForError(code);
          if (registered !== status)
            problems.push(`${route.method} ${route.url}: ${code} at ${status} (registered ${registered})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('closes the lists of codes of the features that declare theirs on every route', () => {
    const closed = documentedRoutes().filter((route) => CLOSED_FEATURES.includes(route.owner));
    expect(closed.length).toBeGreaterThan(90);
    expect(
      closed.filter((route) => route.schema?.errors === undefined).map((route) => `${route.owner} ${route.method} ${route.url}`),
    ).toEqual([]);
    const codes = (path: string, method: string, status: string) =>
      doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema?.allOf?.[1]?.properties?.error?.enum;
    expect(codes('/tickets/{id}', 'get', '404')).toEqual(['ERR_NO_TICKET_FOUND']);
    expect(codes('/tickets', 'post', '409')).toEqual(['ERR_OTHER_OPEN_TICKET']);
    expect(codes('/tickets/{id}', 'get', '401')).toEqual([
      'ERR_API_KEY_INVALID',
      'ERR_API_KEY_REVOKED',
      'ERR_SESSION_EXPIRED',
      'ERR_TOKEN_INVALID',
      'ERR_UNAUTHENTICATED',
    ]);
    expect(codes('/queue', 'post', '409')).toEqual(['ERR_QUEUE_COLOR_ALREADY_EXISTS']);
    expect(codes('/whatsapp/{whatsappId}', 'get', '404')).toEqual(['ERR_NO_WAPP_FOUND']);
    expect(codes('/whatsappsession/{whatsappId}', 'post', '409')).toEqual(['ERR_CHANNEL_NOT_AVAILABLE']);
    expect(codes('/webchat/{widgetKey}/messages', 'post', '401')).toEqual(['ERR_WEBCHAT_SESSION_INVALID']);
  });

  it('offers multipart/form-data on the upload routes', () => {
    const uploads = [
      ['post', '/messages/{id}'],
      ['post', '/quick-messages/{id}/media-upload'],
      ['post', '/announcements/{announcementId}/media-upload'],
      ['post', '/settings-whitelabel/logo'],
      ['post', '/users/{userId}/media-upload'],
      ['post', '/webchat/{widgetKey}/messages'],
      ['post', '/whatsapp/{whatsappId}/media-upload'],
      ['post', '/campaigns/{id}/media-upload'],
      ['post', '/contact-lists/{id}/upload'],
    ] as const;
    for (const [method, path] of uploads) {
      const operation = doc.paths[path]?.[method];
      expect(Object.keys(operation?.requestBody?.content ?? {}), path).toContain('multipart/form-data');
      expect(Object.keys(operation?.responses ?? {}), path).toEqual(expect.arrayContaining(['413', '415']));
    }
  });

  it('serves the reference page with its own assets, nothing from another origin', async () => {
    const page = await t.balcao.app.inject({ method: 'GET', url: `${t.config.apiPrefix}/docs` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
    expect(assets.length).toBeGreaterThan(2);
    for (const asset of assets) expect(asset).not.toMatch(/^(https?:)?\/\//);
    for (const asset of assets.filter((url) => !url.startsWith('data:'))) {
      const url = asset.startsWith('/') ? asset : `${t.config.apiPrefix}/docs/${asset.replace(/^\.\//, '')}`;
      expect((await t.balcao.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
  });
});
