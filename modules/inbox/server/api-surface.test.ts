import { writeFileSync } from 'node:fs';
import { createTestApp, routeName, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The inbox's HTTP surface as the app serves it: every route the inbox owns, with its owner and access.
 * The folders the routes live in are the inbox's own business; what clients call is this table.
 * `INBOX_API_DUMP=<path prefix>` also writes the whole app's sorted route table (`<prefix>.routes.txt`)
 * and its OpenAPI document (`<prefix>.openapi.json`), to compare two versions of the code with `diff`.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t?.close();
});

describe('the inbox API surface', () => {
  it('serves the same routes, whichever folder of the inbox holds them', async () => {
    const inbox = t.balcao.routes.routes
      .filter((route) => route.owner === 'inbox')
      .map((route) => `${routeName(route)} ${JSON.stringify(route.config.access ?? null)}`)
      .sort();
    expect(inbox).toMatchSnapshot();

    const prefix = process.env.INBOX_API_DUMP;
    if (prefix) {
      const all = t.balcao.routes.routes.map((route) => `${routeName(route)} ${JSON.stringify(route.config)}`).sort();
      writeFileSync(`${prefix}.routes.txt`, `${all.join('\n')}\n`);
      const docs = await t.inject({ method: 'GET', url: '/api/docs/json' });
      expect(docs.statusCode).toBe(200);
      writeFileSync(`${prefix}.openapi.json`, `${JSON.stringify(docs.json(), null, 2)}\n`);
    }
  });
});
