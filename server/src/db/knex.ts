import { bindModelKnex } from '@balcao/plugin-sdk/server';
import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import pg from 'pg';

// Postgres `bigint` (count(*), sums) arrives as text by default; our ids and counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
// `date` columns stay plain YYYY-MM-DD strings (due dates are calendar days, not instants).
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

/** Creates the knex instance of a process: camelCase in code, snake_case in the database. */
export function createKnex(databaseUrl: string, poolMax = 10): Knex {
  const knex = knexFactory({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: 0, max: poolMax },
    ...knexSnakeCaseMappers(),
  });
  return knex;
}

/**
 * Binds every model to this knex instance (one per process; tests bind their own app's): through the
 * SDK, so that models of a plugin loading its own copy of objection are bound too.
 */
export function bindModels(knex: Knex): void {
  bindModelKnex(knex);
}
