/**
 * Helpers of the schedules' server tests: the SDK's loopback app (`@balcao/plugin-sdk/testing/loopback`)
 * with the schedules' dispatcher and contacts straight in the database. Not a test file.
 */

import type { TestAppOptions } from '@balcao/plugin-sdk/testing';
import { featureContext, type LoopbackApp, loopbackApp } from '@balcao/plugin-sdk/testing/loopback';
import type { SchedulesContext } from '../config';
import { type ScheduleDispatcher, scheduleDispatcher } from '../services/dispatcher';

export { fakeClock, multipartFile, numbers } from '@balcao/plugin-sdk/testing/loopback';

export interface SchedulesKit extends LoopbackApp {
  ctx: SchedulesContext;
  dispatcher: ScheduleDispatcher;
  /** Contacts of Acme with these numbers (names `Pessoa N`), straight in the database; answers their ids. */
  contacts(numbers: string[]): Promise<number[]>;
}

export async function schedulesKit(options: TestAppOptions & { dispatcher?: boolean } = {}): Promise<SchedulesKit> {
  const app = await loopbackApp(options);
  const { knex, companyId } = app;
  const ctx = featureContext<SchedulesContext>(app.t, 'schedules');
  const dispatcher = scheduleDispatcher(ctx);
  if (options.dispatcher === false) await dispatcher.stop();
  let made = 0;
  return {
    ...app,
    ctx,
    dispatcher,
    async contacts(numbers) {
      const ids: number[] = [];
      for (let i = 0; i < numbers.length; i += 5_000) {
        const rows = await knex('contacts')
          .insert(
            numbers.slice(i, i + 5_000).map((number) => {
              made += 1;
              return { companyId, name: `Pessoa ${made}`, number, channel: 'whatsapp', whatsappId: app.whatsappId };
            }),
          )
          .returning('id');
        ids.push(...rows.map((row: { id: number }) => row.id));
      }
      return ids;
    },
    async close() {
      await dispatcher.stop();
      await app.close();
    },
  };
}
