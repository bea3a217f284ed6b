import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { migrationFiles, migrationName } from '../plugins/feature-files';
import { secureTenantTables } from './row-level-security';

/** One owner of migrations: the core or a feature, with its folder and its own migrations table. */
export interface MigrationOwner {
  id: string;
  directory: string;
  /** The migrations compiled into the server bundle (name → module); read from `directory` when absent. */
  modules?: Record<string, () => Promise<unknown>>;
}

interface MigrationModule {
  up(knex: Knex): Promise<void>;
  down?(knex: Knex): Promise<void>;
}

/** Knex migration source that imports TypeScript or JavaScript migrations of one folder, in name order. */
class FolderMigrationSource implements Knex.MigrationSource<string> {
  constructor(private readonly directory: string) {}

  async getMigrations(): Promise<string[]> {
    return migrationFiles(this.directory);
  }

  getMigrationName(migration: string): string {
    return migrationName(migration);
  }

  async getMigration(migration: string): Promise<Knex.Migration> {
    const module = (await import(pathToFileURL(path.join(this.directory, migration)).href)) as MigrationModule;
    return { up: module.up, down: module.down ?? (async () => {}) };
  }
}

/** Knex migration source over migrations compiled into the server bundle. */
class BundledMigrationSource implements Knex.MigrationSource<string> {
  constructor(private readonly modules: Record<string, () => Promise<unknown>>) {}

  async getMigrations(): Promise<string[]> {
    return Object.keys(this.modules).sort();
  }

  getMigrationName(migration: string): string {
    return migration;
  }

  async getMigration(migration: string): Promise<Knex.Migration> {
    const load = this.modules[migration];
    if (!load) throw new Error(`migration ${migration} is not in the bundle`);
    const module = (await load()) as MigrationModule;
    return { up: module.up, down: module.down ?? (async () => {}) };
  }
}

function sourceOf(owner: MigrationOwner): Knex.MigrationSource<string> {
  return owner.modules ? new BundledMigrationSource(owner.modules) : new FolderMigrationSource(owner.directory);
}

/** The table that records one owner's applied migrations. */
export function migrationsTable(ownerId: string): string {
  return `knex_migrations_${ownerId.replace(/[^a-z0-9]/g, '_')}`;
}

/**
 * Applies pending migrations of every owner, in the given (dependency) order. Each owner has its own
 * migrations table so features never collide on file names. Returns the names applied.
 */
export async function migrateAll(knex: Knex, owners: MigrationOwner[]): Promise<string[]> {
  // Processes that start together with MIGRATE_ON_START queue on one advisory lock of the database (held
  // by a transaction on a connection of its own): the first migrates, the others wait, then find nothing
  // to do. Knex's own lock table would make them fail instead of waiting.
  return knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK_KEY]);
    const applied: string[] = [];
    for (const owner of owners) {
      const [, names] = (await knex.migrate.latest({
        migrationSource: sourceOf(owner),
        tableName: migrationsTable(owner.id),
      })) as [number, string[]];
      applied.push(...names.map((name) => `${owner.id}/${name}`));
    }
    // a feature's migration may have created a tenant table: it gets the row-level security of the core's
    // (docs/architecture.md#tenancy), before any process serves it. Nothing applied, nothing new to secure.
    if (applied.length > 0) await secureTenantTables(trx);
    return applied;
  });
}

/** The advisory lock key of migrations (advisory locks are per database: installations never share it). */
const MIGRATION_LOCK_KEY = 0x62616c63; // "balc"
