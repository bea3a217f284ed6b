import { type PluginDefinition, runInTenant } from '@balcao/plugin-sdk/server';
import { EmbedKey } from '../models/embed-key';

/**
 * The walkers' rows of company A: an embed key (its name carries the marker) over the inbox fixtures'
 * lane, and the fixture ticket's lane entry.
 */
export const seedKanbanFixtures: NonNullable<NonNullable<PluginDefinition['seed']>['fixtures']> = async ({
  companyA,
  marker,
  seededA,
}) =>
  runInTenant({ companyId: companyA.id }, async () => {
    const key = await EmbedKey.query().insert({
      name: `Embed ${marker}`,
      key: `kbk_${marker.toLowerCase().padEnd(32, '0').slice(0, 32)}`,
      secret: `secret-${marker}`,
      allowedOrigins: ['https://fixture.example'],
      mayMove: true,
      signedUsers: false,
      laneIds: seededA.kanbanTag ? [Number(seededA.kanbanTag)] : null,
    });
    return { kanbanEmbedKey: key.id };
  });
