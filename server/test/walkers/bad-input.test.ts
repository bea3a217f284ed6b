/**
 * The bad-input walker: every route of the table (but static files and API docs) gets schema-violating
 * and odd input in its path, query and body, with a session allowed to reach it. No answer may be a
 * 5xx, every 4xx is `{ error: 'ERR_…' }`, schema violations are refused, and the app keeps answering.
 * See docs/plugin-authoring.md, "Test walkers".
 */
import { type BadInputReport, badInputWalk, createTestApp, seedTenantFixtures, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELLO_FIXTURE } from './lib/fixture-paths';

let t: TestApp;
let report: BadInputReport;

// the walk sends tens of thousands of requests: ~70 s on a loaded two-core machine, past the suite's
// default hook timeout
const WALK_TIMEOUT_MS = 240_000;

beforeAll(async () => {
  t = await createTestApp({ plugins: [HELLO_FIXTURE] });
  const started = Date.now();
  report = await badInputWalk(t, await seedTenantFixtures(t));
  console.info(`bad-input walk: ${report.routes} routes, ${report.cases} cases in ${Date.now() - started} ms`);
}, WALK_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
});

describe('bad-input walk of the whole route table', () => {
  it('builds a valid request for every route from its schemas', () => {
    expect(report.unbuildable, `\n${report.unbuildable.join('\n')}\n`).toEqual([]);
    expect(report.routes).toBe(t.balcao.routes.routes.filter((route) => route.config.infra !== true).length);
    expect(report.cases).toBeGreaterThan(report.routes * 10);
  });

  it('never answers 5xx, refuses schema violations with a 4xx ERR_ code and keeps answering', () => {
    expect(report.failures, `\n${report.failures.join('\n')}\n`).toEqual([]);
  });
});
