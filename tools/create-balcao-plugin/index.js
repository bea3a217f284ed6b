#!/usr/bin/env node
/**
 * `npm create balcao-plugin <folder>`: writes a working Balcão plugin into a folder of its own — manifest
 * with its own plan flag and a menu entry, a migration, a route with schemas and access, a job, an event
 * handler, a federated UI page, four locales and tests on the SDK's test kit (docs/plugin-authoring.md,
 * "Your first plugin in a minute").
 *
 * The plugin is tested against a Balcão checkout (the test kit runs the real core): the one this tool
 * lives in, or `--checkout <path>`. Unless `--no-link`, the new folder's node_modules links every package
 * of the checkout's installation, so `npm test` runs at once on exactly the versions the core runs, with
 * nothing downloaded; `npm install` there later replaces the links with an installation of its own.
 *
 * Plain JavaScript on purpose: it runs under `npx` with Node alone, before anything is installed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const TOOL_ROOT = path.dirname(fileURLToPath(import.meta.url));
const TEMPLATE = path.join(TOOL_ROOT, 'template');
const ID_PATTERN = /^[a-z][a-z0-9-]{1,39}$/;

/** Template files whose names npm would otherwise treat specially when this tool is packed. */
const RENAMED = { 'package.json.tmpl': 'package.json', gitignore: '.gitignore' };

const USAGE = `Usage: npm create balcao-plugin -- <folder> [--id <id>] [--title <title>] [--checkout <path>] [--no-link]

  <folder>           where to write the plugin (must not exist, or be empty)
  --id <id>          the plugin's id: lowercase letters, digits and "-", 2 to 40 (default: the folder's name)
  --title <title>    its name in the menu and on the Plans page (default: from the id)
  --checkout <path>  the Balcão checkout its tests run against (default: the one holding this tool)
  --no-link          don't link the checkout's node_modules; run "npm install" yourself`;

/** `my-crm` → `['my', 'crm']`. */
const words = (id) => id.split('-').filter(Boolean);
const capitalized = (word) => word.charAt(0).toUpperCase() + word.slice(1);

/** The names the template's placeholders take for one id. */
export function names(id, title) {
  const parts = words(id);
  const pascal = parts.map(capitalized).join('');
  return {
    __ID__: id,
    __PASCAL__: pascal,
    __CAMEL__: pascal.charAt(0).toLowerCase() + pascal.slice(1),
    __UPPER__: parts.join('_').toUpperCase(),
    __FLAG__: `use${pascal}`,
    // the core's migrations table of a feature: its id with every character but a-z and 0-9 as "_"
    __MIGRATIONS_TABLE__: `knex_migrations_${id.replace(/[^a-z0-9]/g, '_')}`,
    __TITLE__: title ?? capitalized(parts.join(' ')),
  };
}

/** The Balcão checkout at or above `start` (the folder whose package.json is the `balcao` workspace root). */
export function findCheckout(start) {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file) && existsSync(path.join(dir, 'plugin-sdk', 'package.json'))) {
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      if (pkg.name === 'balcao') return dir;
    }
    if (path.dirname(dir) === dir) return null;
  }
}

function copyTemplate(from, to, values) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, RENAMED[entry.name] ?? entry.name);
    if (entry.isDirectory()) {
      copyTemplate(source, target, values);
      continue;
    }
    let text = readFileSync(source, 'utf8');
    for (const [placeholder, value] of Object.entries(values)) text = text.replaceAll(placeholder, value);
    writeFileSync(target, text);
  }
}

/**
 * Gives `folder` a node_modules of links into the checkout's: one link per package (scoped ones one per
 * package too, and the executables of `.bin`), never one link for the whole folder, so that an `npm install`
 * run there later replaces links and never writes into the checkout.
 */
function linkInstallation(checkout, folder) {
  const from = path.join(checkout, 'node_modules');
  if (!existsSync(from)) throw new Error(`${checkout} has no node_modules: run "npm ci" there first`);
  const to = path.join(folder, 'node_modules');
  mkdirSync(to);
  for (const name of readdirSync(from)) {
    // npm's record of the checkout's tree (.package-lock.json) would describe links it didn't make, and
    // tools' caches (.vite, .cache) belong to the checkout
    if (name.startsWith('.') && name !== '.bin') continue;
    const source = path.join(from, name);
    if ((name.startsWith('@') || name === '.bin') && statSync(source).isDirectory()) {
      mkdirSync(path.join(to, name));
      for (const inner of readdirSync(source)) symlinkSync(path.join(source, inner), path.join(to, name, inner));
    } else {
      symlinkSync(source, path.join(to, name));
    }
  }
}

/** The real path of `target`, or of its nearest existing parent joined with the rest (it may not exist yet). */
function realpathOf(target) {
  const missing = [];
  let dir = target;
  while (!existsSync(dir)) {
    missing.unshift(path.basename(dir));
    dir = path.dirname(dir);
  }
  return path.join(realpathSync(dir), ...missing);
}

/** Writes the plugin; returns what it made. */
export function createPlugin({ folder, id, title, checkout, link = true }) {
  const target = path.resolve(folder);
  if (existsSync(target) && readdirSync(target).length > 0) throw new Error(`${target} exists and is not empty`);
  const pluginId = id ?? path.basename(target).toLowerCase();
  if (!ID_PATTERN.test(pluginId)) {
    throw new Error(`"${pluginId}" is no plugin id: lowercase letters, digits and "-", starting with a letter, 2 to 40 (--id)`);
  }
  const root = checkout ? path.resolve(checkout) : findCheckout(TOOL_ROOT);
  if (!root || !existsSync(path.join(root, 'plugin-sdk', 'package.json'))) {
    throw new Error('no Balcão checkout found: run this from one, or pass --checkout <path to a checkout>');
  }
  // inside the checkout the plugin would be linted, type-checked and tested as the repository's own code
  // without being one of its workspaces; the repository's plugins live in plugins/ instead
  const relativeToRoot = path.relative(realpathOf(root), realpathOf(target));
  if (!relativeToRoot.startsWith('..') && !path.isAbsolute(relativeToRoot)) {
    throw new Error(
      `${target} is inside the Balcão checkout ${root}: write the plugin to a folder outside it (e.g. ../${path.basename(target)})`,
    );
  }
  const sdkVersion = JSON.parse(readFileSync(path.join(root, 'plugin-sdk', 'package.json'), 'utf8')).version;
  const values = {
    ...names(pluginId, title),
    __SDK_RANGE__: `^${sdkVersion}`,
    __SDK_SPEC__: `file:${path.join(root, 'plugin-sdk')}`,
    __CORE_SPEC__: `file:${path.join(root, 'server')}`,
  };
  copyTemplate(TEMPLATE, target, values);
  if (link) linkInstallation(root, target);
  return { folder: target, id: pluginId, title: values.__TITLE__, flag: values.__FLAG__, checkout: root, linked: link };
}

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      id: { type: 'string' },
      title: { type: 'string' },
      checkout: { type: 'string' },
      'no-link': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [folder] = positionals;
  if (values.help || !folder) {
    console.log(USAGE);
    process.exitCode = folder || values.help ? 0 : 64;
    return;
  }
  const made = createPlugin({ folder, id: values.id, title: values.title, checkout: values.checkout, link: !values['no-link'] });
  // a folder below the current one reads best relative; any other (the usual case: npm create runs in the
  // checkout and the plugin lives outside it) absolute, not as a climb of "../"
  const relative = path.relative(process.cwd(), made.folder);
  const shown = relative === '' ? '.' : relative.startsWith('..') || path.isAbsolute(relative) ? made.folder : relative;
  console.log(`Plugin "${made.id}" written to ${made.folder} (plan flag ${made.flag}).

  cd ${shown}${made.linked ? '' : '\n  npm install'}
  npm test                       # its own tests, on a throwaway database of the real core
  npm run build:ui               # its federated remote, into dist/ui/ (again after every change of ui/)

Then, from the checkout (${made.checkout}):

  BALCAO_PLUGINS=${made.folder} npm start

and sign in as admin@acme.test (password demo1234): "${made.title}" is in the menu, because the demo
seed switches ${made.flag} on for Acme's plan; admin@lite.test's plan has it off. The super user
switches it per plan on the Plans page.`);
}

// run as a command (npx calls it through a link in node_modules/.bin), not when imported by a test
if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) {
  try {
    main();
  } catch (error) {
    console.error(`create-balcao-plugin: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
