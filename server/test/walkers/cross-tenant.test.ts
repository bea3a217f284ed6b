/**
 * The cross-tenant walker: company B's admin and user, holding company A's ids, never reach A's rows.
 * Every authenticated route of the table is walked (public and super routes excepted) — the core's, every
 * module's and plugin's, and the fixture plugin's; path ids come from the features' `seed.fixtures`,
 * query and body from the route's schemas. A route whose ids nobody seeds fails the walk, telling its
 * author what to seed. See docs/plugin-authoring.md, "Test walkers".
 */
import {
  type CrossTenantReport,
  createTestApp,
  crossTenantWalk,
  seedTenantFixtures,
  type TestApp,
} from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELLO_FIXTURE } from './lib/fixture-paths';

let t: TestApp;
let report: CrossTenantReport;

beforeAll(async () => {
  t = await createTestApp({ plugins: [HELLO_FIXTURE] });
  report = await crossTenantWalk(t, await seedTenantFixtures(t));
});
afterAll(async () => {
  await t?.close();
});

const listed = (failures: string[]) => `\n${failures.join('\n\n')}\n`;

describe('cross-tenant walk of the whole route table', () => {
  it('finds company A ids for every route that takes ids (features seed what their routes take)', () => {
    expect(report.gaps, listed(report.gaps)).toEqual([]);
    expect(report.walked.some((r) => r.tenantParams.length > 0)).toBe(true);
    expect(report.walked.some((r) => r.route.owner === 'hello')).toBe(true);
  });

  it("lets company A's own admin read what its ids and lists point to (the walk reaches real rows)", () => {
    expect(report.control, listed(report.control)).toEqual([]);
    expect(report.markerSeenByA, "the marker never showed in A's own answers: B's answers prove nothing").toBe(true);
  });

  it("never lists A's rows to company B", () => {
    expect(report.lists, listed(report.lists)).toEqual([]);
  });

  it("refuses company B (403/404) on reads with A's ids, never showing A's data", () => {
    expect(report.reads, listed(report.reads)).toEqual([]);
  });

  it("refuses company B (403/404) on writes with A's ids and leaves A's rows unchanged", () => {
    expect(report.writes, listed(report.writes)).toEqual([]);
  });

  it("never lets company B's other writes touch A's rows or show A's data, even naming A's ids in the body", () => {
    expect(report.otherWrites, listed(report.otherWrites)).toEqual([]);
  });

  it("refuses B's own requests with any one body or query field naming A's row instead", () => {
    expect(report.foreignIds, listed(report.foreignIds)).toEqual([]);
    // the phase tried fields of the core's, modules' and plugins' routes
    expect(report.foreignIdCases).toBeGreaterThan(20);
  });
});
