import { AppError, type NewCompany, type TenancyService } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { hashPassword } from '../auth/passwords';
import { DEFAULT_COMPANY_SETTINGS } from '../settings/defaults';
import { ensureSettings } from '../settings/settings.service';

/**
 * Creates companies the way signup does (company row, its admin, the default settings, one transaction),
 * for the super user's `POST /companies` (modules/admin).
 */
export function createTenancyService(knex: Knex, passwordHashCost: number): TenancyService {
  return {
    async createCompany(input: NewCompany) {
      const email = input.admin.email.trim().toLowerCase();
      const plan = await knex('plans').where({ id: input.planId }).first('id');
      if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
      const taken = await knex('users').whereRaw('lower(email) = ?', [email]).first('id');
      if (taken) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
      const passwordHash = await hashPassword(input.admin.password, passwordHashCost);
      const { admin, ...company } = input;
      try {
        return await knex.transaction(async (trx) => {
          const [row] = await trx('companies').insert(company).returning(['id']);
          const [user] = await trx('users')
            .insert({ companyId: row.id, name: admin.name.trim(), email, passwordHash, profile: 'admin' })
            .returning(['id']);
          await ensureSettings(trx, row.id, DEFAULT_COMPANY_SETTINGS);
          return { companyId: row.id as number, userId: user.id as number };
        });
      } catch (error) {
        // two creations with one e-mail at once both pass the check above; the unique index decides
        if ((error as { constraint?: string }).constraint === 'users_email_unique')
          throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
        throw error;
      }
    },
  };
}
