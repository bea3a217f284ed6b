/**
 * The walkers test themselves: a fixture plugin with planted bugs (server/test/fixtures/leaky-plugin)
 * must make each walker report each bug, naming the route. A walker that passes everything would fail
 * here, so a green walk of the real route table means something.
 */
import {
  badInputWalk,
  createTestApp,
  crossTenantWalk,
  ownRoutes,
  routeContractProblems,
  seedTenantFixtures,
  type TenantFixtures,
  type TestApp,
} from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELLO_FIXTURE, LEAKY_FIXTURE } from './lib/fixture-paths';

let t: TestApp;
let fx: TenantFixtures;
// the exported walkers, limited to one plugin's routes as a plugin's own tests use them
const leaky = ownRoutes('leaky');

beforeAll(async () => {
  t = await createTestApp({ plugins: [HELLO_FIXTURE, LEAKY_FIXTURE] });
  fx = await seedTenantFixtures(t);
});
afterAll(async () => {
  await t?.close();
});

describe('the walkers catch planted bugs', () => {
  it('route contract: a route without access or schemas', async () => {
    const problems = routeContractProblems(t, leaky);
    expect(problems).toEqual([
      "GET /api/fragile/unschemed (owner leaky): declares no config.access ('public' | 'authenticated' | 'admin' | 'super' | { permission })",
      'GET /api/fragile/unschemed (owner leaky): has no schema.response for its success status (200, 201, 204 …)',
      'GET /api/fragile/unschemed (owner leaky): has no schema.querystring: declare the query it reads, or NoQuery when it reads none',
    ]);
    // and the access hook fails closed for it
    const response = await t.inject({ method: 'GET', url: '/api/fragile/unschemed', token: fx.a.admin.token });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
  });

  it('cross-tenant: a list leak, a read leak, a write leak and ids nobody seeds', async () => {
    const report = await crossTenantWalk(t, fx, leaky);
    expect(report.gaps).toHaveLength(1);
    expect(report.gaps[0]).toMatch(
      /^GET \/api\/leaky-orphans\/:orphanId \(owner leaky\): path parameter :orphanId refers to fixture entity 'orphan', which no feature seeds\. The feature that owns 'orphan' rows must return \{ orphan: <id> \} from definePlugin\(\{ seed: \{ fixtures \} \}\)/,
    );
    expect(report.control).toEqual([]);
    expect(report.markerSeenByA).toBe(true);

    const lists = report.lists.join('\n');
    expect(lists).toContain("GET /api/leaky-notes (owner leaky) as bAdmin: A's data (marker) in the answer");
    expect(lists).toContain("GET /api/leaky-notes (owner leaky) as bUser: A's data (marker) in the answer");

    const reads = report.reads.join('\n');
    expect(reads).toContain("GET /api/leaky-notes/:id (owner leaky) as bUser: A's data (marker) in the answer");
    expect(reads).toContain("GET /api/leaky-notes/:id (owner leaky) as bAdmin: expected 403 or 404 for A's ids, got 200");

    const writes = report.writes.join('\n');
    expect(writes).toContain("PUT /api/leaky-notes/:id (owner leaky) as bAdmin: expected 403 or 404 for A's ids, got 200");
    expect(writes).toMatch(
      /PUT \/api\/leaky-notes\/:id \(owner leaky\): B's calls changed company A's rows in leaky_notes \(1 → 1 rows\)/,
    );
    // the leaky routes are the only ones walked, and the sound ones raised nothing
    expect(report.otherWrites).toEqual([]);

    // B's own request naming A's note in a body field was accepted
    expect(report.foreignIds.join('\n')).toMatch(
      /^POST \/api\/leaky-notes\/copies \(owner leaky\) as bAdmin with A's leakyMemo in body\.leakyMemoId: expected a refusal, got 200/m,
    );
    expect(report.foreignIds).toHaveLength(1);
  });

  it('bad input: a crash on odd text, a route that skips validation, a 4xx without an ERR_ code', async () => {
    const report = await badInputWalk(t, fx, leaky);
    const failures = report.failures.join('\n');
    expect(failures).toMatch(
      /GET \/api\/fragile\/search \(owner leaky\): querystring q: unbalanced brackets: answered 500 \{"error":"ERR_INTERNAL"/,
    );
    expect(failures).toMatch(
      /POST \/api\/fragile\/echo \(owner leaky\): body\.n: a wrong type: breaks the schema but was accepted: 200/,
    );
    expect(failures).toMatch(/POST \/api\/fragile\/echo \(owner leaky\): no hostile request ever reached schema validation/);
    expect(failures).toMatch(
      /POST \/api\/fragile\/teapot \(owner leaky\): the valid request: answered a 4xx whose body is not \{ error: 'ERR_…' \}: 418/,
    );
    // the sound routes of the fixture raised nothing
    expect(failures).not.toMatch(/GET \/api\/leaky-notes/);
  });
});
