import { type PluginDefinition, runInTenant } from '@balcao/plugin-sdk/server';
import { Schedule } from '../models/schedule';

/** The walkers' row of company A: a schedule for A's contact a day ahead, carrying the marker. */
export const seedSchedulesFixtures: NonNullable<NonNullable<PluginDefinition['seed']>['fixtures']> = async ({
  companyA,
  marker,
  seededA,
}) =>
  runInTenant({ companyId: companyA.id }, async () => {
    const sendAt = new Date(Date.now() + 86_400_000);
    const schedule = await Schedule.query().insert({
      body: `Lembrete ${marker}`,
      sendAt,
      dueAt: sendAt,
      contactId: Number(seededA.contact),
      whatsappId: Number(seededA.whatsapp) || null,
      status: 'PENDENTE',
    });
    return { schedule: schedule.id };
  });
