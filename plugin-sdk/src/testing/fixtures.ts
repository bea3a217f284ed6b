import { randomBytes } from 'node:crypto';
import { DEFAULT_COMPANY_SETTINGS, hashPassword } from '@balcao/server';
import type { FixtureIds } from '../server/define-plugin';
import { PLAN_FLAGS } from '../shared/plan-flags';
import type { TestApp, TestSession } from './index';

/** One fixture company with an admin and a user, logged in. */
export interface FixtureTenant {
  companyId: number;
  adminId: number;
  userId: number;
  admin: TestSession;
  user: TestSession;
}

/** Two companies for the cross-tenant and bad-input walkers, and the ids features seeded for A. */
export interface TenantFixtures {
  /** A string that every fixture row of company A contains: finding it in B's answers is a leak. */
  marker: string;
  a: FixtureTenant;
  b: FixtureTenant;
  /** The demo super user. */
  superUser: TestSession;
  /** Ids of company A's rows by entity name (`company`, `user`, and whatever features seeded). */
  idsA: FixtureIds;
}

/** The password of the fixture companies' users (to log in again after a walker ends a session). */
export const FIXTURE_PASSWORD = 'fixture1234';

/**
 * Seeds two companies (A and B) on a plan with every flag, each with an admin and a user, then asks every
 * loaded feature to seed its own rows for A (`definePlugin({ seed: { fixtures } })`). Features extend the
 * walkers' reach by seeding here; a route whose ids nobody seeds makes the walker fail loudly.
 */
export async function seedTenantFixtures(t: TestApp): Promise<TenantFixtures> {
  const { knex, passwordHashCost } = { knex: t.balcao.core.knex, passwordHashCost: t.config.passwordHashCost };
  const marker = `LEAK${randomBytes(4).toString('hex').toUpperCase()}`;
  const passwordHash = await hashPassword(FIXTURE_PASSWORD, passwordHashCost);
  const [plan] = await knex('plans')
    .insert({
      // shared by A and B, so it must not carry A's marker
      name: `Fixture plan ${randomBytes(4).toString('hex')}`,
      users: 100,
      connections: 100,
      queues: 100,
      amount: 1,
      isPublic: false,
      ...Object.fromEntries(PLAN_FLAGS.map((f) => [f, true])),
      pluginFlags: JSON.stringify(Object.fromEntries(t.balcao.core.plans.pluginFlags().map((flag) => [flag.key, true]))),
    })
    .returning('id');
  const due = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
  const makeCompany = async (label: string, withMarker: boolean) => {
    const name = withMarker ? `${label} ${marker}` : label;
    const [company] = await knex('companies')
      .insert({ name, email: `${label.toLowerCase()}@fixture.test`, planId: plan.id, dueDate: due, status: true })
      .returning('id');
    const rows = await knex('users')
      .insert([
        {
          companyId: company.id,
          name: `${name} admin`,
          email: `${label.toLowerCase()}-admin-${marker.toLowerCase()}@fixture.test`,
          passwordHash,
          profile: 'admin',
        },
        {
          companyId: company.id,
          name: `${name} user`,
          email: `${label.toLowerCase()}-user-${marker.toLowerCase()}@fixture.test`,
          passwordHash,
          profile: 'user',
        },
      ])
      .returning(['id', 'email']);
    await knex('settings').insert(
      Object.entries(DEFAULT_COMPANY_SETTINGS).map(([key, value]) => ({ companyId: company.id, key, value })),
    );
    const admin = await t.login(rows[0].email, FIXTURE_PASSWORD);
    const user = await t.login(rows[1].email, FIXTURE_PASSWORD);
    return { companyId: company.id as number, adminId: rows[0].id as number, userId: rows[1].id as number, admin, user };
  };
  const a = await makeCompany('Alpha', true);
  const b = await makeCompany('Beta', false);
  const superUser = await t.login('super@balcao.test');
  // an API key of A (the core's `/api-keys` routes): named with the marker, so B never reads it
  const [apiKey] = await knex('apiKeys')
    .insert({
      companyId: a.companyId,
      name: `Key ${marker}`,
      scopes: ['tickets:read'],
      secretHash: randomBytes(32).toString('hex'),
      hint: 'blc_0_fixt…',
      createdBy: a.adminId,
    })
    .returning('id');
  const idsA: FixtureIds = { company: a.companyId, user: a.userId, admin: a.adminId, apiKey: apiKey.id };
  for (const plugin of t.balcao.plugins) {
    const seed = plugin.definition.seed?.fixtures;
    if (!seed) continue;
    const ids = await seed({
      ctx: plugin.ctx,
      marker,
      companyA: { id: a.companyId, adminId: a.adminId, userId: a.userId },
      companyB: { id: b.companyId, adminId: b.adminId, userId: b.userId },
      seededA: { ...idsA },
    });
    Object.assign(idsA, ids);
  }
  return { marker, a, b, superUser, idsA };
}
