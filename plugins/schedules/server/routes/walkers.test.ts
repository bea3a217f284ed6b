import { badInputWalk, crossTenantWalk, ownRoutes, routeContractProblems, seedTenantFixtures } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type SchedulesKit, schedulesKit } from '../testing/kit';

/** The SDK's walkers over the schedules' routes: the contract, tenants kept apart, bad input refused. */
let kit: SchedulesKit;
beforeAll(async () => {
  kit = await schedulesKit({ dispatcher: false });
});
afterAll(() => kit?.close());

it('keeps the route contract', () => {
  expect(routeContractProblems(kit.t, ownRoutes('schedules'))).toEqual([]);
});

it('keeps tenants apart and refuses bad input', async () => {
  const fixtures = await seedTenantFixtures(kit.t);
  const tenants = await crossTenantWalk(kit.t, fixtures, ownRoutes('schedules'));
  for (const found of [
    tenants.gaps,
    tenants.control,
    tenants.lists,
    tenants.reads,
    tenants.writes,
    tenants.otherWrites,
    tenants.foreignIds,
  ])
    expect(found).toEqual([]);
  const input = await badInputWalk(kit.t, fixtures, ownRoutes('schedules'));
  expect([...input.unbuildable, ...input.failures]).toEqual([]);
}, 240_000);
