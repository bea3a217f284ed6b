import { PLAN_FLAGS } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { hashPassword } from '../auth/passwords';
import type { LoadedPlugin } from '../plugins/loader';
import { DEFAULT_COMPANY_SETTINGS, PUBLIC_SETTING_DEFAULTS } from '../settings/defaults';
import { ensureSettings } from '../settings/settings.service';
import { ensurePlatformCompany, PLATFORM_PLAN } from './platform';

/** The demo password of every demo login. */
export const DEMO_PASSWORD = 'demo1234';

/** The demo logins, always the same so that docs and checks can rely on them. */
export const DEMO_LOGINS = [
  { key: 'super', email: 'super@balcao.test', name: 'Super', company: 'platform', profile: 'admin', super: true },
  { key: 'acmeAdmin', email: 'admin@acme.test', name: 'Ana Admin', company: 'acme', profile: 'admin', super: false },
  { key: 'acmeAgent', email: 'agent@acme.test', name: 'Alex Agente', company: 'acme', profile: 'user', super: false },
  { key: 'liteAdmin', email: 'admin@lite.test', name: 'Lia Admin', company: 'lite', profile: 'admin', super: false },
  { key: 'liteAgent', email: 'agent@lite.test', name: 'Leo Agente', company: 'lite', profile: 'user', super: false },
] as const;

const ALL_FLAGS = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, true]));
const NO_FLAGS = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, false]));

const DEMO_PLANS = {
  platform: PLATFORM_PLAN,
  acme: { name: 'Completo', users: 20, connections: 10, queues: 20, amount: 199.9, isPublic: true, ...ALL_FLAGS },
  lite: { name: 'Lite', users: 3, connections: 1, queues: 3, amount: 49, isPublic: true, ...NO_FLAGS },
} as const;

const DEMO_COMPANIES = {
  platform: { name: 'Balcão', email: 'super@balcao.test' },
  acme: { name: 'Acme', email: 'admin@acme.test' },
  lite: { name: 'Lite', email: 'admin@lite.test' },
} as const;

/** Ids of what the demo seed created or found. */
export interface DemoIds {
  companies: Record<'platform' | 'acme' | 'lite', number>;
  users: Record<(typeof DEMO_LOGINS)[number]['key'], number>;
}

function oneYearFromNow(): string {
  const date = new Date();
  date.setFullYear(date.getFullYear() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * Seeds the demo: the platform company (id 1, due 2999-12-31) with the super user, Acme on a plan with
 * every flag, Lite on a plan with none. Idempotent: it inserts what is missing and changes nothing that
 * exists, so it never touches other data (nor demo data someone edited).
 */
export async function seedDemo(
  knex: Knex,
  options: {
    passwordHashCost: number;
    plugins: LoadedPlugin[];
    /** Also run every feature's demo seed (the lived-in inbox …); `npm start` does, tests opt in. */
    featureData?: boolean;
  },
): Promise<DemoIds> {
  const passwordHash = await hashPassword(DEMO_PASSWORD, options.passwordHashCost);
  const ownFlagsOn = Object.fromEntries(
    options.plugins.flatMap(({ discovered: { manifest } }) =>
      manifest.planFlagLabel && manifest.planFlag ? [[manifest.planFlag, true]] : [],
    ),
  );
  const ids = await knex.transaction(async (trx) => {
    const planIds = {} as Record<keyof typeof DEMO_PLANS, number>;
    for (const [key, plan] of Object.entries(DEMO_PLANS) as Array<
      [keyof typeof DEMO_PLANS, (typeof DEMO_PLANS)[keyof typeof DEMO_PLANS]]
    >) {
      // the plans with every flag also have every loaded plugin's own; Lite has none
      const full = key !== 'lite';
      await trx('plans')
        .insert({ ...plan, pluginFlags: JSON.stringify(full ? ownFlagsOn : {}) })
        .onConflict('name')
        .ignore();
      const stored = await trx('plans').where({ name: plan.name }).first('id', 'pluginFlags');
      planIds[key] = stored.id;
      // a plugin installed since the demo was seeded: its flag joins the full plans (a flag set off stays off)
      const missing = Object.keys(ownFlagsOn).filter((flag) => !(flag in (stored.pluginFlags ?? {})));
      if (full && missing.length > 0) {
        const pluginFlags = { ...stored.pluginFlags, ...Object.fromEntries(missing.map((flag) => [flag, true])) };
        await trx('plans')
          .where({ id: stored.id })
          .update({ pluginFlags: JSON.stringify(pluginFlags) });
      }
    }

    const companies = {} as DemoIds['companies'];
    companies.platform = await ensurePlatformCompany(trx, { ...DEMO_COMPANIES.platform, planId: planIds.platform });
    for (const key of ['acme', 'lite'] as const) {
      const existing = await trx('companies').where({ name: DEMO_COMPANIES[key].name }).orderBy('id').first('id');
      companies[key] =
        existing?.id ??
        (
          await trx('companies')
            .insert({ ...DEMO_COMPANIES[key], planId: planIds[key], dueDate: oneYearFromNow(), status: true })
            .returning('id')
        )[0].id;
    }

    await ensureSettings(trx, 1, { ...DEFAULT_COMPANY_SETTINGS, ...PUBLIC_SETTING_DEFAULTS, allowSignup: 'enabled' });
    await ensureSettings(trx, companies.acme, DEFAULT_COMPANY_SETTINGS);
    await ensureSettings(trx, companies.lite, DEFAULT_COMPANY_SETTINGS);

    const users = {} as DemoIds['users'];
    for (const login of DEMO_LOGINS) {
      const existing = await trx('users').whereRaw('lower(email) = ?', [login.email]).first('id');
      users[login.key] =
        existing?.id ??
        (
          await trx('users')
            .insert({
              companyId: companies[login.company],
              name: login.name,
              email: login.email,
              passwordHash,
              profile: login.profile,
              super: login.super,
              showDashboard: login.profile === 'admin' ? 'enabled' : 'disabled',
            })
            .returning('id')
        )[0].id;
    }
    return { companies, users };
  });

  if (options.featureData === false) return ids;
  for (const plugin of options.plugins) {
    const demo = plugin.definition.seed?.demo;
    if (!demo) continue;
    // Each feature enters the scope of the demo company it seeds (runInTenant), so none is set here.
    await demo(plugin.ctx, ids);
  }
  return ids;
}
