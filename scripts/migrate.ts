/** `npm run migrate`: applies pending migrations of the core and every feature, in dependency order. */
import { createKnex, discoverPlugins, loadConfig, migrateAll, migrationOwners } from '@balcao/server';

const config = loadConfig();
const knex = createKnex(config.databaseUrl, 2);
try {
  const applied = await migrateAll(knex, migrationOwners(discoverPlugins(config.extraPlugins)));
  console.log(applied.length === 0 ? 'Nothing to migrate.' : `Applied:\n${applied.map((name) => `  ${name}`).join('\n')}`);
} catch (error) {
  console.error(`Migration failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await knex.destroy();
}
