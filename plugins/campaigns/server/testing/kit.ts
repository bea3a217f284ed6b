/**
 * Helpers of the campaigns' server tests: the SDK's loopback app (`@balcao/plugin-sdk/testing/loopback`)
 * with the campaigns' dispatcher, settings that send at any hour without pacing, and contact lists straight
 * in the database. Not a test file.
 */

import type { TestAppOptions } from '@balcao/plugin-sdk/testing';
import { featureContext, type LoopbackApp, loopbackApp } from '@balcao/plugin-sdk/testing/loopback';
import type { CampaignsContext } from '../config';
import { type CampaignDispatcher, campaignDispatcher } from '../services/dispatcher';

export { fakeClock, multipartFile, numbers } from '@balcao/plugin-sdk/testing/loopback';

export interface CampaignsKit extends LoopbackApp {
  ctx: CampaignsContext;
  dispatcher: CampaignDispatcher;
  /** A list with these numbers (names `Pessoa N`), straight in the database. */
  list(numbers: string[], name?: string): Promise<number>;
}

export async function campaignsKit(options: TestAppOptions & { dispatcher?: boolean } = {}): Promise<CampaignsKit> {
  const app = await loopbackApp(options);
  const { knex, companyId } = app;
  const ctx = featureContext<CampaignsContext>(app.t, 'campaigns');
  const dispatcher = campaignDispatcher(ctx);
  if (options.dispatcher === false) await dispatcher.stop();
  // every test sends at any hour, without pacing, unless it says otherwise
  await knex('campaignSettings').insert(
    [
      ['messageInterval', '0'],
      ['longerIntervalAfter', '0'],
      ['greaterInterval', '0'],
      ['sabado', 'true'],
      ['domingo', 'true'],
      ['startHour', '00:00'],
      ['endHour', '00:00'],
    ].map(([key, value]) => ({ companyId, key, value })),
  );
  let lists = 0;
  return {
    ...app,
    ctx,
    dispatcher,
    async list(numbers, name) {
      lists += 1;
      const [list] = await knex('contactLists')
        .insert({ companyId, name: name ?? `Lista ${lists}`, whatsappId: app.whatsappId })
        .returning('id');
      for (let i = 0; i < numbers.length; i += 5_000) {
        await knex('contactListItems').insert(
          numbers.slice(i, i + 5_000).map((number, index) => ({
            companyId,
            contactListId: list.id,
            name: `Pessoa ${i + index + 1}`,
            number,
          })),
        );
      }
      return list.id as number;
    },
    async close() {
      await dispatcher.stop();
      await app.close();
    },
  };
}
