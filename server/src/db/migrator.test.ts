import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from './knex';
import { type MigrationOwner, migrateAll, migrationsTable } from './migrator';

const folder = mkdtempSync(path.join(tmpdir(), 'balcao-migrations-'));
let t: TestApp;
let knex: Knex;

/** A feature's migrations folder with the given files (name → source). */
function owner(id: string, files: Record<string, string>): MigrationOwner {
  const directory = path.join(folder, id);
  mkdirSync(directory, { recursive: true });
  for (const [name, source] of Object.entries(files)) writeFileSync(path.join(directory, name), source);
  return { id, directory };
}

const createTable = (table: string, extra = '') =>
  `export async function up(knex) { await knex.schema.createTable('${table}', (t) => { t.increments('id'); ${extra} }); }\n` +
  `export async function down(knex) { await knex.schema.dropTable('${table}'); }\n`;
const applied = async (id: string) =>
  (await knex(migrationsTable(id)).orderBy('id').select('name')).map((row: { name: string }) => row.name);

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  knex = t.balcao.core.knex;
});
afterAll(async () => {
  await t?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('migrations per feature', () => {
  it('names one table per owner, safe for any feature id', () => {
    expect(migrationsTable('core')).toBe('knex_migrations_core');
    expect(migrationsTable('internal-chat')).toBe('knex_migrations_internal_chat');
  });

  it('keeps each owner in its own table, so two features may both have a 0001_init, and runs them once', async () => {
    const alpha = owner('mig-alpha', { '0001_init.ts': createTable('migAlphaItems') });
    // beta's table points at alpha's: it only works because owners run in the given (dependency) order
    const beta = owner('mig-beta', {
      '0001_init.ts': createTable('migBetaItems', "t.integer('alphaId').references('mig_alpha_items.id');"),
    });
    expect(await migrateAll(knex, [alpha, beta])).toEqual(['mig-alpha/0001_init', 'mig-beta/0001_init']);
    expect(await applied('mig-alpha')).toEqual(['0001_init']);
    expect(await applied('mig-beta')).toEqual(['0001_init']);
    expect(await knex.schema.hasTable('mig_alpha_items')).toBe(true);
    expect(await knex.schema.hasTable('mig_beta_items')).toBe(true);

    expect(await migrateAll(knex, [alpha, beta])).toEqual([]);
    expect(await applied('mig-alpha')).toEqual(['0001_init']);
  });

  it('applies a new migration of one owner, and only that one', async () => {
    const alpha = owner('mig-alpha', { '0002_more.ts': createTable('migAlphaMore') });
    const beta = owner('mig-beta', {});
    expect(await migrateAll(knex, [alpha, beta])).toEqual(['mig-alpha/0002_more']);
    expect(await applied('mig-alpha')).toEqual(['0001_init', '0002_more']);
    expect(await migrateAll(knex, [alpha, beta])).toEqual([]);
  });

  it('ignores files that are not numbered migrations', async () => {
    const gamma = owner('mig-gamma', {
      '0001_real.ts': createTable('migGammaItems'),
      'README.md': '# not a migration',
      'helpers.ts': 'throw new Error("imported a helper as a migration");',
      '0002_types.d.ts': 'export {};',
      'draft_0003.ts': 'throw new Error("imported a draft as a migration");',
    });
    expect(await migrateAll(knex, [gamma])).toEqual(['mig-gamma/0001_real']);
  });

  it('reports an owner without a folder as having nothing to do', async () => {
    const ghost = { id: 'mig-ghost', directory: path.join(folder, 'does-not-exist') };
    expect(await migrateAll(knex, [ghost])).toEqual([]);
  });

  it('records nothing of a failing migration, and applies it once it can run', async () => {
    // 0002 fails until a permit table exists (an import is cached: the file itself can't be fixed in-process)
    const delta = owner('mig-delta', {
      '0001_ok.ts': createTable('migDeltaOk'),
      '0002_picky.ts':
        "export async function up(knex) { await knex.schema.createTable('mig_delta_half', (t) => t.increments('id')); " +
        "if (!(await knex.schema.hasTable('mig_delta_permit'))) throw new Error('boom'); }\n",
    });
    await expect(migrateAll(knex, [delta])).rejects.toThrow('boom');
    expect(await applied('mig-delta')).not.toContain('0002_picky');
    expect(await knex.schema.hasTable('mig_delta_half')).toBe(false);

    await knex.schema.createTable('mig_delta_permit', (table) => table.increments('id'));
    expect(await migrateAll(knex, [delta])).toContain('mig-delta/0002_picky');
    expect(await applied('mig-delta')).toEqual(['0001_ok', '0002_picky']);
    expect(await knex.schema.hasTable('mig_delta_half')).toBe(true);
    expect(await migrateAll(knex, [delta])).toEqual([]);
  });

  it('runs migrations compiled into the server bundle the same way', async () => {
    let runs = 0;
    const bundled: MigrationOwner = {
      id: 'mig-bundled',
      directory: path.join(folder, 'not-read'),
      modules: {
        '0001_first': async () => ({
          up: async (k: Knex) => {
            runs += 1;
            await k.schema.createTable('mig_bundled_items', (table) => table.increments('id'));
          },
        }),
      },
    };
    expect(await migrateAll(knex, [bundled])).toEqual(['mig-bundled/0001_first']);
    expect(await migrateAll(knex, [bundled])).toEqual([]);
    expect(runs).toBe(1);
    expect(await applied('mig-bundled')).toEqual(['0001_first']);
  });

  it('migrates once when four processes start together: the others wait instead of failing', async () => {
    let runs = 0;
    const slow: MigrationOwner = {
      id: 'mig-together',
      directory: path.join(folder, 'not-read'),
      modules: {
        '0001_slow': async () => ({
          up: async (k: Knex) => {
            runs += 1;
            // long enough for the other three to arrive while it runs
            await k.raw('SELECT pg_sleep(0.3)');
            await k.schema.createTable('mig_together_items', (table) => table.increments('id'));
          },
        }),
      },
    };
    // one knex per "process", as small a pool as `npm run migrate` uses
    const processes = Array.from({ length: 4 }, () => createKnex(t.config.databaseUrl, 2));
    try {
      const results = await Promise.all(processes.map((each) => migrateAll(each, [slow])));
      expect(results.flat()).toEqual(['mig-together/0001_slow']);
      expect(runs).toBe(1);
      expect(await applied('mig-together')).toEqual(['0001_slow']);
    } finally {
      await Promise.all(processes.map((each) => each.destroy()));
    }
  });
});
