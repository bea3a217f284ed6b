import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SDK_VERSION } from '@balcao/plugin-sdk/server';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationOwners } from '../app';
import { useBundledRegistry } from './bundled-registry';
import { type DiscoveredPlugin, declaredPlanFlags, discoverPlugins, orderByDependencies, PluginManifestError } from './discover';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

type Manifest = Record<string, unknown>;

/** A throwaway repository: `{ 'plugins/kanban': manifest }`; a string is written as package.json verbatim. */
function repo(features: Record<string, Manifest | string | null>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'balcao-discover-'));
  roots.push(root);
  mkdirSync(path.join(root, 'modules'));
  mkdirSync(path.join(root, 'plugins'));
  for (const [folder, manifest] of Object.entries(features)) {
    const dir = path.join(root, folder);
    mkdirSync(dir, { recursive: true });
    if (manifest === null) continue;
    const pkg =
      typeof manifest === 'string'
        ? manifest
        : JSON.stringify({ name: `@x/${path.basename(folder)}`, version: '1.2.3', balcao: manifest });
    writeFileSync(path.join(dir, 'package.json'), pkg);
  }
  return root;
}

const plugin = (id: string, extra: Manifest = {}): Manifest => ({ id, kind: 'plugin', sdk: '^1.0.0', ...extra });
const module = (id: string, extra: Manifest = {}): Manifest => ({ id, kind: 'module', sdk: '^1.0.0', ...extra });
const ids = (plugins: DiscoveredPlugin[]) => plugins.map((p) => p.manifest.id);

function refusal(run: () => unknown): PluginManifestError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PluginManifestError);
    return error as PluginManifestError;
  }
  throw new Error('expected a PluginManifestError');
}

describe('discoverPlugins', () => {
  it('finds modules, plugins and extra folders with their folders, version and entry', () => {
    const root = repo({
      'modules/tags': module('tags'),
      'plugins/kanban': plugin('kanban', { planFlag: 'useKanban' }),
      'plugins/not-a-feature': '{"name":"helper","version":"1.0.0"}',
      'plugins/empty-folder': null,
    });
    mkdirSync(path.join(root, 'modules/tags/server'), { recursive: true });
    writeFileSync(path.join(root, 'modules/tags/server/index.ts'), 'export default { id: "tags" };');
    const extra = repo({ 'third-party': plugin('acme-crm', { server: 'src/server.ts' }) });

    const found = discoverPlugins([path.join(extra, 'third-party')], root);
    // modules, then plugins, then extra folders, dependencies aside
    expect(ids(found)).toEqual(['tags', 'kanban', 'acme-crm']);
    const [tags, kanban, crm] = found as [DiscoveredPlugin, DiscoveredPlugin, DiscoveredPlugin];
    expect(tags).toMatchObject({
      origin: 'modules',
      version: '1.2.3',
      root: path.join(root, 'modules/tags'),
      serverEntry: path.join(root, 'modules/tags/server/index.ts'),
      migrationsDir: path.join(root, 'modules/tags/server/migrations'),
      serverDir: path.join(root, 'modules/tags/server'),
    });
    expect(kanban).toMatchObject({ origin: 'plugins', serverEntry: null, uiDist: path.join(root, 'plugins/kanban/dist/ui') });
    expect(kanban.manifest.planFlag).toBe('useKanban');
    expect(crm).toMatchObject({ origin: 'extra', serverEntry: null });
  });

  it('lists the plan flags plugins declare for themselves, with their labels, beside the ten', () => {
    const label = { pt: 'CRM', en: 'CRM', es: 'CRM', tr: 'CRM' };
    const root = repo({
      'plugins/kanban': plugin('kanban', { planFlag: 'useKanban' }),
      'plugins/crm': plugin('crm', { planFlag: 'useCrm', planFlagLabel: label }),
    });
    expect(declaredPlanFlags(discoverPlugins([], root))).toEqual([{ key: 'useCrm', plugin: 'crm', label }]);
  });

  it('orders features after what they depend on, modules first where dependencies allow', () => {
    const root = repo({
      'modules/zeta': module('zeta'),
      'modules/alpha': module('alpha', { dependsOn: ['zeta'] }),
      'modules/beta': module('beta', { dependsOn: ['gamma'] }),
      'plugins/gamma': plugin('gamma'),
      'plugins/kanban': plugin('kanban', { dependsOn: ['alpha', 'billing'] }),
      'plugins/billing': plugin('billing'),
    });
    const order = ids(discoverPlugins([], root));
    expect(order).toEqual(['zeta', 'alpha', 'gamma', 'beta', 'billing', 'kanban']);
    for (const plugin of discoverPlugins([], root)) {
      for (const dependency of plugin.manifest.dependsOn ?? [])
        expect(order.indexOf(dependency)).toBeLessThan(order.indexOf(plugin.manifest.id));
    }
  });

  const LABEL = { pt: 'Teletransporte', en: 'Teleport', es: 'Teletransporte', tr: 'Işınlanma' };
  const refusals: Array<[string, Record<string, Manifest | string>, RegExp]> = [
    [
      'a bad id',
      { 'plugins/bad': plugin('Bad_Id') },
      /plugins\/bad\/package\.json: invalid manifest of 'Bad_Id': balcao\.id must match pattern/,
    ],
    [
      'a plan flag none of the ten, without the label of a flag of its own',
      { 'plugins/crm': plugin('crm', { planFlag: 'useTeleport' }) },
      /^crm: planFlag 'useTeleport' is none of the ten plan flags: declare it as the plugin's own with planFlagLabel/,
    ],
    [
      'a label on one of the ten flags',
      { 'plugins/crm': plugin('crm', { planFlag: 'useKanban', planFlagLabel: LABEL }) },
      /^crm: planFlagLabel names a plugin's own planFlag/,
    ],
    [
      'a plan flag not named like one',
      { 'plugins/crm': plugin('crm', { planFlag: 'teleport', planFlagLabel: LABEL }) },
      /plugins\/crm\/package\.json: invalid manifest of 'crm': balcao\.planFlag must match pattern/,
    ],
    [
      'two plugins declaring one flag of their own',
      {
        'plugins/crm': plugin('crm', { planFlag: 'useTeleport', planFlagLabel: LABEL }),
        'plugins/erp': plugin('erp', { planFlag: 'useTeleport', planFlagLabel: LABEL }),
      },
      /^plugins 'crm' and 'erp' both declare the plan flag 'useTeleport'$/,
    ],
    [
      'an extra field',
      { 'plugins/crm': plugin('crm', { colour: 'red' }) },
      /plugins\/crm\/package\.json: invalid manifest of 'crm': balcao\.colour is not a manifest field$/,
    ],
    [
      'a wrong kind',
      { 'plugins/crm': plugin('crm', { kind: 'widget' }) },
      /balcao\.kind must be one of module, plugin \(got "widget"\)/,
    ],
    [
      'a missing sdk range',
      { 'plugins/crm': { id: 'crm', kind: 'plugin' } },
      /invalid manifest of 'crm': balcao must have required property 'sdk'/,
    ],
    [
      'an SDK range the core does not satisfy',
      { 'plugins/crm': plugin('crm', { sdk: '^2.0.0' }) },
      new RegExp(`^crm: needs plugin SDK \\^2\\.0\\.0, this core provides ${SDK_VERSION.replaceAll('.', '\\.')}$`),
    ],
    [
      'an SDK range that is no range',
      { 'plugins/crm': plugin('crm', { sdk: 'latest-and-greatest' }) },
      /balcao\.sdk 'latest-and-greatest' is not a semver range/,
    ],
    [
      'an unknown dependency',
      { 'plugins/kanban': plugin('kanban', { dependsOn: ['tickets'] }) },
      /^kanban: depends on 'tickets', which is not installed$/,
    ],
    [
      'a dependency cycle',
      {
        'plugins/aa': plugin('aa', { dependsOn: ['bb'] }),
        'plugins/bb': plugin('bb', { dependsOn: ['cc'] }),
        'plugins/cc': plugin('cc', { dependsOn: ['aa'] }),
      },
      /^dependency cycle: aa → bb → cc → aa$/,
    ],
    ['a self-dependency', { 'plugins/aa': plugin('aa', { dependsOn: ['aa'] }) }, /^dependency cycle: aa → aa$/],
    [
      'two features with one id',
      { 'modules/tags': module('tags'), 'plugins/tags': plugin('tags') },
      /two features share the id 'tags': .*modules\/tags and .*plugins\/tags/,
    ],
    [
      'a module with a plan flag',
      { 'modules/tags': module('tags', { planFlag: 'useKanban' }) },
      /^tags: a module is always on; plan-gated features are plugins$/,
    ],
    [
      'a plugin folder declaring a module',
      { 'plugins/tags': module('tags') },
      /^tags: lives in plugins\/ but declares kind 'module'$/,
    ],
    [
      'a module folder declaring a plugin',
      { 'modules/tags': plugin('tags') },
      /^tags: lives in modules\/ but declares kind 'plugin'$/,
    ],
    ['a package.json that is not JSON', { 'plugins/broken': '{ "balcao": ' }, /plugins\/broken\/package\.json: not valid JSON/],
  ];
  it.each(refusals)('refuses %s with a PluginManifestError naming the feature', (_label, features, message) => {
    const root = repo(features);
    expect(refusal(() => discoverPlugins([], root)).message).toMatch(message);
  });

  it('refuses an extra plugin that is no feature, or that nothing provides', () => {
    const root = repo({});
    const extra = repo({ lib: '{"name":"left-pad","version":"1.0.0"}' });
    expect(refusal(() => discoverPlugins([path.join(extra, 'lib')], root)).message).toMatch(
      /lib\/package\.json: no "balcao" manifest field/,
    );
    expect(refusal(() => discoverPlugins(['@acme/not-installed'], root)).message).toBe(
      "BALCAO_PLUGINS: '@acme/not-installed' is neither a plugin folder nor an installed package",
    );
  });

  it('finds an extra plugin named by its package name, even behind an exports map that hides package.json', () => {
    const root = repo({});
    const pkg = path.join(root, 'node_modules', '@acme', 'crm');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      path.join(pkg, 'package.json'),
      JSON.stringify({
        name: '@acme/crm',
        version: '2.0.0',
        type: 'module',
        // the usual ESM package: only its entry points are exported, not ./package.json
        exports: { './server': './server/index.js' },
        balcao: plugin('acme-crm'),
      }),
    );
    const [crm] = discoverPlugins(['@acme/crm'], root);
    expect(crm).toMatchObject({ origin: 'extra', root: pkg, version: '2.0.0', manifest: { id: 'acme-crm' } });
    // a path that doesn't exist is no package name, whatever a node_modules folder holds
    expect(refusal(() => discoverPlugins(['../crm'], root)).message).toMatch(/'\.\.\/crm' is neither a plugin folder/);
  });

  it('running from the server bundle, imports a plugin the bundle does not hold from its folder', async () => {
    const root = repo({});
    const extra = repo({ crm: plugin('crm') });
    const files: Record<string, string> = {
      'server/index.js': "export default { id: 'crm' };",
      'server/migrations/0001_contacts.js': 'export async function up() {}',
      'server/migrations/helpers.js': 'export const notAMigration = true;',
      'server/routes/contacts.js': 'export default async function routes() {}',
      'server/routes/contacts.test.js': '',
      'server/people/routes/merge.js': 'export default async function routes() {}',
      'server/people/routes/merge.test.js': '',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(extra, 'crm', file)), { recursive: true });
      writeFileSync(path.join(extra, 'crm', file), text);
    }
    const pkg = path.join(extra, 'crm', 'package.json');
    writeFileSync(pkg, JSON.stringify({ name: 'crm', version: '1.0.0', balcao: plugin('crm', { server: 'server/index.js' }) }));

    expect(discoverPlugins([path.join(extra, 'crm')], root)[0]?.bundled).toBeNull();
    useBundledRegistry({ coreMigrations: {}, features: {} });
    try {
      const [crm] = discoverPlugins([path.join(extra, 'crm')], root);
      const bundled = crm?.bundled;
      // the migrator takes these loaders (a TypeScript file would register tsx first)
      expect(Object.keys(bundled?.migrations ?? {})).toEqual(['0001_contacts']);
      expect(Object.keys(bundled?.routes ?? {})).toEqual(['routes/contacts.js', 'people/routes/merge.js']);
      expect(migrationOwners(crm ? [crm] : [])[1]).toMatchObject({ id: 'crm', modules: bundled?.migrations });
      expect(await bundled?.migrations['0001_contacts']?.()).toHaveProperty('up');
      expect(await bundled?.server?.()).toHaveProperty('default', { id: 'crm' });
    } finally {
      useBundledRegistry(null);
    }
  });

  it('refuses an extra plugin whose id an installed feature already has', () => {
    const root = repo({ 'plugins/kanban': plugin('kanban') });
    const extra = repo({ copy: plugin('kanban') });
    expect(refusal(() => discoverPlugins([path.join(extra, 'copy')], root)).message).toMatch(
      /two features share the id 'kanban'/,
    );
  });

  it('orders a given list without touching the disk', () => {
    const fake = (id: string, dependsOn: string[] = []) =>
      ({ manifest: { id, kind: 'plugin', sdk: '^1.0.0', dependsOn }, origin: 'plugins' }) as unknown as DiscoveredPlugin;
    expect(ids(orderByDependencies([fake('c', ['b']), fake('b', ['a']), fake('a')]))).toEqual(['a', 'b', 'c']);
  });
});
