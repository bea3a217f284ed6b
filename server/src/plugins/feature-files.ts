import { existsSync, readdirSync } from 'node:fs';

/** A module of a feature folder: TypeScript or JavaScript, not hidden. */
const MODULE_FILE = /^[^.].*\.(ts|js|mjs)$/;
/** Tests and type declarations sit beside modules but are none. */
const NOT_A_MODULE = /\.(test|spec)\.(ts|js|mjs)$|\.d\.ts$/;
/** A migration: a module whose name starts with its four-digit order (`0001_tags.ts`). */
const MIGRATION_FILE = /^\d{4}[-_]/;

/**
 * The module files of a folder (tests and declarations aside), in name order; none when it doesn't exist.
 * Routes are every module of `server/routes`.
 */
export function moduleFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => MODULE_FILE.test(name) && !NOT_A_MODULE.test(name))
    .sort();
}

/**
 * The migrations of a folder, in the order they run. Running from source and from the server bundle take
 * the same files: a helper module beside them is never run as a migration.
 */
export function migrationFiles(dir: string): string[] {
  return moduleFiles(dir).filter((name) => MIGRATION_FILE.test(name));
}

/** A migration's name in its migrations table: the file name without its extension. */
export function migrationName(file: string): string {
  return file.replace(/\.(ts|js|mjs)$/, '');
}
