import type { Knex } from 'knex';

/**
 * The search-word statements (migration 0004) run without Postgres's JIT compiler. Their planner sees
 * `regexp_split_to_table` and `generate_series` as a thousand rows each, so a statement of a few hundred
 * messages looks costly enough to compile (`jit_above_cost`), and compiling took 70–180 ms a statement —
 * ~0.9 ms of Postgres per message in a campaign batch of 200 new messages, against ~0.04 ms for the work
 * itself (docs/benchmarks.md, "Campaigns"). Every writer of messages pays it (the receive, agents, bots,
 * campaigns), as do the rebuilds of a merge or a delete. Function-level: only these statements change.
 */
const FUNCTIONS = [
  'inbox_search_words_insert()',
  'inbox_add_search_words(integer[])',
  'inbox_rebuild_search_docs(integer[])',
  'inbox_rebuild_search_docs_only(integer[])',
  'inbox_search_words_ticket_delete()',
];

export async function up(knex: Knex): Promise<void> {
  for (const fn of FUNCTIONS) await knex.raw(`ALTER FUNCTION ${fn} SET jit = off`);
}

export async function down(knex: Knex): Promise<void> {
  for (const fn of FUNCTIONS) await knex.raw(`ALTER FUNCTION ${fn} RESET jit`);
}
