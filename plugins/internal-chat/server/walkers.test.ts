import {
  badInputWalk,
  createTestApp,
  crossTenantWalk,
  ownRoutes,
  routeContractProblems,
  seedTenantFixtures,
  type TestApp,
} from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

/** The SDK's walkers over the internal chat's routes: the route contract, tenants kept apart, bad input refused. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

it('keeps the route contract', () => {
  expect(routeContractProblems(t, ownRoutes('internal-chat'))).toEqual([]);
});

it('keeps tenants apart and refuses bad input', async () => {
  const fixtures = await seedTenantFixtures(t);
  const tenants = await crossTenantWalk(t, fixtures, ownRoutes('internal-chat'));
  expect(tenants.walked.length).toBeGreaterThanOrEqual(9);
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
  expect(tenants.markerSeenByA).toBe(true);
  const input = await badInputWalk(t, fixtures, ownRoutes('internal-chat'));
  expect([...input.unbuildable, ...input.failures]).toEqual([]);
}, 240_000);
