/**
 * The test walkers (docs/plugin-authoring.md, "Test walkers"), for the repository's own tests and for a
 * plugin's `npm test` alike: the route contract, the cross-tenant walk and the bad-input walk over the
 * route table of a test app. Each takes an `include` filter: `ownRoutes('<your id>')` walks only your
 * plugin's routes, the default walks every route the app serves.
 *
 * @example
 * const t = await createTestApp({ plugins: [path.resolve('.')] });
 * const fixtures = await seedTenantFixtures(t);
 * expect(routeContractProblems(t, ownRoutes('crm'))).toEqual([]);
 * const tenants = await crossTenantWalk(t, fixtures, ownRoutes('crm'));
 * expect(tenants.gaps).toEqual([]); // and reads, writes, lists, otherWrites, foreignIds, control
 * const input = await badInputWalk(t, fixtures, ownRoutes('crm'));
 * expect(input.failures).toEqual([]);
 */
import type { TestApp } from '../index';
import { contractProblems, type WalkedRoute } from './routes';

export { type BadInputReport, badInputWalk } from './bad-input-walk';
export { type CrossTenantReport, crossTenantWalk } from './cross-tenant-walk';
export { type ContractContext, contractProblems, parsePrintedRoutes, routeName, type WalkedRoute } from './routes';

/** A walkers' `include` filter keeping the routes of the given features (by manifest id; `core` for the core's). */
export function ownRoutes(...owners: string[]): (route: WalkedRoute) => boolean {
  return (route) => owners.includes(route.owner);
}

/**
 * Every route-contract problem of the app's routes that `include` keeps (access, schemas of every part,
 * a plan-gated plugin's flag), each naming the route and what to add. Empty when all are fine.
 */
export function routeContractProblems(t: TestApp, include: (route: WalkedRoute) => boolean = () => true): string[] {
  const planFlags = new Map<string, string | null>(
    t.balcao.plugins.map((plugin) => [plugin.discovered.manifest.id, plugin.discovered.manifest.planFlag ?? null]),
  );
  return t.balcao.routes.routes
    .filter(include)
    .flatMap((route) => contractProblems(route, { planFlags, permissions: t.balcao.core.permissions }));
}
