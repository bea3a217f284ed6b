import { PLAN_FLAGS } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { hashPassword } from '../auth/passwords';
import { DEFAULT_COMPANY_SETTINGS, PUBLIC_SETTING_DEFAULTS } from '../settings/defaults';
import { ensureSettings } from '../settings/settings.service';
import { PLATFORM_COMPANY_ID, PLATFORM_DUE_DATE } from '../tenancy/session-store';

/** The plan of the platform company: every flag, no limit that matters, never offered at signup. */
export const PLATFORM_PLAN = {
  name: 'Plataforma',
  users: 9999,
  connections: 9999,
  queues: 9999,
  amount: 0,
  isPublic: false,
  ...Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, true])),
} as const;

/**
 * The platform company (id 1, due 2999-12-31), which super users belong to: inserted when missing, never
 * changed when present. Returns its id.
 */
export async function ensurePlatformCompany(
  trx: Knex.Transaction,
  company: { name: string; email: string; planId: number },
): Promise<number> {
  const existing = await trx('companies').where({ id: PLATFORM_COMPANY_ID }).first('id');
  if (!existing) {
    await trx('companies').insert({ id: PLATFORM_COMPANY_ID, ...company, dueDate: PLATFORM_DUE_DATE, status: true });
    // ids chosen by hand leave the sequence behind: the next company must not collide with this one
    await trx.raw("select setval(pg_get_serial_sequence('companies', 'id'), (select max(id) from companies))");
  }
  return PLATFORM_COMPANY_ID;
}

/** A super user could not be created; the message says why, for the operator who ran the command. */
export class SuperUserRefused extends Error {
  override name = 'SuperUserRefused';
}

/** What `createSuperUser` needs; the password is stored hashed only. */
export interface SuperUserInput {
  email: string;
  name: string;
  password: string;
  passwordHashCost: number;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Longer than a user's minimum (5): this login runs the whole platform. */
export const SUPER_USER_MIN_PASSWORD = 12;

/**
 * The first super user of an installation without the demo (`npm run create-super-user`): the platform's
 * plan and company when missing, then the user. Refuses an e-mail already in use (it never changes an
 * existing user), a malformed e-mail, a name outside 2–50 characters and a password shorter than
 * `SUPER_USER_MIN_PASSWORD` or longer than 50.
 */
export async function createSuperUser(knex: Knex, input: SuperUserInput): Promise<{ userId: number; companyId: number }> {
  const email = input.email.trim().toLowerCase();
  const name = input.name.trim();
  if (!EMAIL.test(email)) throw new SuperUserRefused(`'${input.email}' is not an e-mail address`);
  if (name.length < 2 || name.length > 50) throw new SuperUserRefused('The name must have 2 to 50 characters');
  if (input.password.length < SUPER_USER_MIN_PASSWORD || input.password.length > 50) {
    throw new SuperUserRefused(`The password must have ${SUPER_USER_MIN_PASSWORD} to 50 characters`);
  }
  const passwordHash = await hashPassword(input.password, input.passwordHashCost);
  return knex.transaction(async (trx) => {
    if (await trx('users').whereRaw('lower(email) = ?', [email]).first('id')) {
      throw new SuperUserRefused(`A user with the e-mail ${email} already exists; it was left as it is`);
    }
    await trx('plans').insert(PLATFORM_PLAN).onConflict('name').ignore();
    const plan = await trx('plans').where({ name: PLATFORM_PLAN.name }).first('id');
    const companyId = await ensurePlatformCompany(trx, { name: 'Balcão', email, planId: plan.id });
    await ensureSettings(trx, companyId, { ...DEFAULT_COMPANY_SETTINGS, ...PUBLIC_SETTING_DEFAULTS });
    const [user] = await trx('users')
      .insert({ companyId, name, email, passwordHash, profile: 'admin', super: true, showDashboard: 'enabled' })
      .returning('id');
    return { userId: user.id as number, companyId };
  });
}
