import { DEMO_PASSWORD } from '@balcao/server';
import type { LightMyRequestResponse } from 'fastify';
import { FIXTURE_PASSWORD, type TenantFixtures } from '../fixtures';
import type { TestApp } from '../index';
import { type BadInputCase, badInputCases } from './bad-input-cases';
import { type BaseRequest, baseRequest, idHints } from './requests';
import { routeName, type WalkedRoute } from './routes';
import { SampleError } from './sample';
import { SessionPool } from './sessions';

type Role = 'aAdmin' | 'super';

/** What the bad-input walk found; every entry names the route and the case. */
export interface BadInputReport {
  routes: number;
  cases: number;
  /** 5xx answers, accepted schema violations, 4xx answers without an ERR_ code, a dead app, crashes. */
  failures: string[];
  /** Routes whose valid request could not be built (their schema can't be sampled: give fixtureBody). */
  unbuildable: string[];
}

const ERROR_CODE = /^ERR_[A-Z0-9_]+$/;

/** Routes the bad-input walk covers: every route but infrastructure (static files, API docs). */
export function isInputWalked(route: WalkedRoute): boolean {
  return route.config.infra !== true;
}

function roleFor(route: WalkedRoute): Role | null {
  if (route.config.access === 'public') return null;
  return route.config.access === 'super' ? 'super' : 'aAdmin';
}

function errorCodeOf(response: LightMyRequestResponse): string | null {
  try {
    const body = response.json() as { error?: unknown };
    return typeof body === 'object' && body !== null && typeof body.error === 'string' && ERROR_CODE.test(body.error)
      ? body.error
      : null;
  } catch {
    return null;
  }
}

/** What is wrong with one answer to one case, or null. */
function judge(item: BadInputCase, response: LightMyRequestResponse): string | null {
  const status = response.statusCode;
  const shown = `${status} ${response.body.slice(0, 200)}`;
  if (status >= 500) return `answered ${shown}`;
  if (status >= 400 && !errorCodeOf(response)) return `answered a 4xx whose body is not { error: 'ERR_…' }: ${shown}`;
  if (item.expect === 'reject' && status < 400) return `breaks the schema but was accepted: ${shown}`;
  return null;
}

async function inChunks<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let index = 0; index < items.length; index += size)
    results.push(...(await Promise.all(items.slice(index, index + size).map(run))));
  return results;
}

/**
 * Sends every route `include` keeps its hostile variations (see badInputCases) with a session allowed to
 * reach it — the super user for super routes, company A's admin otherwise, none for public routes — and
 * checks that no answer is a 5xx, that every 4xx is `{ error: 'ERR_…' }`, that schema violations are
 * refused, that each route's validation was reached, and that the app still answers /healthz and
 * raised no unhandled error after each route. Routes that delete run last.
 */
export async function badInputWalk(
  t: TestApp,
  fx: TenantFixtures,
  include: (route: WalkedRoute) => boolean = () => true,
): Promise<BadInputReport> {
  const pool = new SessionPool<Role>(
    t,
    {
      aAdmin: { email: fx.a.admin.user.email, password: FIXTURE_PASSWORD },
      super: { email: fx.superUser.user.email, password: DEMO_PASSWORD },
    },
    { aAdmin: fx.a.admin, super: fx.superUser },
  );
  const report: BadInputReport = { routes: 0, cases: 0, failures: [], unbuildable: [] };
  const hints = idHints(fx.idsA);
  const requests: BaseRequest[] = [];
  for (const route of t.balcao.routes.routes.filter((r) => isInputWalked(r) && include(r))) {
    try {
      requests.push(baseRequest(route, fx.idsA, hints, true));
    } catch (error) {
      if (error instanceof SampleError) report.unbuildable.push(error.message);
      else throw error;
    }
  }
  requests.sort((x, y) => Number(x.route.method === 'DELETE') - Number(y.route.method === 'DELETE'));

  const unhandled: unknown[] = [];
  const onUnhandled = (error: unknown) => unhandled.push(error);
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
  try {
    for (const base of requests) {
      const name = routeName(base.route);
      const role = roleFor(base.route);
      const cases = badInputCases(base);
      report.routes += 1;
      report.cases += cases.length;
      const responses = await inChunks(cases, 24, (item) => pool.inject(role, item.request));
      let reachedValidation = false;
      cases.forEach((item, index) => {
        const response = responses[index] as LightMyRequestResponse;
        const problem = judge(item, response);
        if (problem) report.failures.push(`${name}: ${item.label}: ${problem}`);
        if (!item.parser && response.statusCode === 400 && errorCodeOf(response) === 'ERR_VALIDATION') reachedValidation = true;
      });
      if (cases.some((item) => item.expect === 'reject') && !reachedValidation) {
        report.failures.push(
          `${name}: no hostile request ever reached schema validation (ERR_VALIDATION): is the route reachable with ${role ?? 'no session'}?`,
        );
      }
      const health = await t.inject({ method: 'GET', url: '/healthz' });
      if (health.statusCode !== 200) report.failures.push(`${name}: the app stopped answering /healthz (${health.statusCode})`);
      // let stray promises of the handlers settle before blaming the next route
      await new Promise((resolve) => setImmediate(resolve));
      for (const error of unhandled.splice(0)) report.failures.push(`${name}: unhandled error in the process: ${String(error)}`);
    }
  } finally {
    process.off('unhandledRejection', onUnhandled);
    process.off('uncaughtException', onUnhandled);
  }
  return report;
}
