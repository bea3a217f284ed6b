import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** A module of a feature folder: TypeScript or JavaScript, not hidden. */
const MODULE_FILE = /^[^.].*\.(ts|js|mjs)$/;
/** Tests and type declarations sit beside modules but are none. */
const NOT_A_MODULE = /\.(test|spec)\.(ts|js|mjs)$|\.d\.ts$/;
/** A migration: a module whose name starts with its four-digit order (`0001_tags.ts`). */
const MIGRATION_FILE = /^\d{4}[-_]/;

/** The module files of a folder (tests and declarations aside), in name order; none when it doesn't exist. */
export function moduleFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => MODULE_FILE.test(name) && !NOT_A_MODULE.test(name))
    .sort();
}

/**
 * A feature's route files, as paths relative to its `server/` folder with forward slashes: every module of
 * `server/routes/`, then every module of each area's `server/<area>/routes/` (one level of folders), areas
 * in folder-name order and files in name order. Running from source and from the bundle register the
 * same files in this order (docs/plugin-authoring.md, "Routes").
 */
export function routeFiles(serverDir: string): string[] {
  if (!existsSync(serverDir)) return [];
  const areas = readdirSync(serverDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'routes')
    .map((entry) => entry.name)
    .sort();
  return [
    ...moduleFiles(path.join(serverDir, 'routes')).map((name) => `routes/${name}`),
    ...areas.flatMap((area) => moduleFiles(path.join(serverDir, area, 'routes')).map((name) => `${area}/routes/${name}`)),
  ];
}

/**
 * The order of route files (paths as `routeFiles` gives them): the top-level `routes/` first, then areas by
 * folder name, files by name. The bundle's registry is put back in this order whatever order it holds.
 */
export function byRouteOrder(a: string, b: string): number {
  // `routes/x.ts` has no area: the empty area sorts before every folder name
  const key = (file: string): [string, string] => {
    const [first = '', second = '', third] = file.split('/');
    return third === undefined ? ['', second] : [first, third];
  };
  const [areaA, nameA] = key(a);
  const [areaB, nameB] = key(b);
  if (areaA !== areaB) return areaA < areaB ? -1 : 1;
  return nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
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
