import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CORE_PERMISSION_TABLE, type PluginDefinition } from '@balcao/plugin-sdk/server';
import { afterAll, describe, expect, it } from 'vitest';
import type { CoreServices } from '../core-services';
import { discoverPlugins, PluginManifestError } from './discover';
import { importDefinitions, mergePermissions } from './loader';

const root = mkdtempSync(path.join(tmpdir(), 'balcao-loader-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A plugin folder in the throwaway repository, with an optional server entry's source. */
function feature(id: string, entry?: string): void {
  const dir = path.join(root, 'plugins', id);
  mkdirSync(path.join(dir, 'server'), { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: id, version: '1.0.0', balcao: { id, kind: 'plugin', sdk: '^1.0.0' } }),
  );
  if (entry !== undefined) writeFileSync(path.join(dir, 'server', 'index.ts'), entry);
}
mkdirSync(path.join(root, 'modules'), { recursive: true });
feature('good', "export default { id: 'good', permissions: { 'good:use': ['admin'] } };");
feature('bare');
feature('nameless', 'export const something = 1;');
feature('impostor', "export default { id: 'someone-else' };");
const job = 'jobs: { sweep: { async handler() {} } }';
feature('scheduled', `export default { id: 'scheduled', ${job}, schedules: [{ name: 'tick', everyMs: 100, job: 'sweep' }] };`);
feature('typo', `export default { id: 'typo', ${job}, schedules: [{ name: 'tick', everyMs: 60000, job: 'swep' }] };`);
feature('spin', `export default { id: 'spin', ${job}, schedules: [{ name: 'tick', everyMs: 0, job: 'sweep' }] };`);
feature(
  'twice',
  `export default { id: 'twice', ${job}, schedules: [{ name: 'a', everyMs: 9, job: 'sweep' }, { name: 'a', everyMs: 7, job: 'sweep' }] };`,
);
feature('handless', "export default { id: 'handless', jobs: { sweep: { concurrency: 2 } } };");
feature('colon', "export default { id: 'colon', jobs: { 'crm:sync': { async handler() {} } } };");

const discovered = (id: string) => {
  const found = discoverPlugins([], root).find((p) => p.manifest.id === id);
  if (!found) throw new Error(`no fixture ${id}`);
  return found;
};

describe('importDefinitions', () => {
  it("imports a feature's server entry, and gives a feature without one an empty definition", async () => {
    const [good, bare] = await importDefinitions([discovered('good'), discovered('bare')]);
    expect(good?.definition).toEqual({ id: 'good', permissions: { 'good:use': ['admin'] } });
    expect(bare?.definition).toEqual({ id: 'bare' });
  });

  it('refuses an entry without a default export, naming the feature and the file', async () => {
    await expect(importDefinitions([discovered('nameless')])).rejects.toThrow(PluginManifestError);
    await expect(importDefinitions([discovered('nameless')])).rejects.toThrow(
      /^nameless: .*plugins\/nameless\/server\/index\.ts has no default export from definePlugin$/,
    );
  });

  it('refuses a definePlugin id that differs from the manifest id', async () => {
    await expect(importDefinitions([discovered('impostor')])).rejects.toThrow(
      "impostor: definePlugin id 'someone-else' differs from the manifest id",
    );
  });
});

describe('importDefinitions: jobs and schedules', () => {
  it('takes schedules that run one of the feature’s own jobs', async () => {
    const [scheduled] = await importDefinitions([discovered('scheduled')]);
    expect(scheduled?.definition.schedules).toEqual([{ name: 'tick', everyMs: 100, job: 'sweep' }]);
  });

  it.each([
    ['typo', "typo: schedule 'tick' runs job 'swep', which definePlugin({ jobs }) doesn't declare"],
    ['spin', "spin: schedule 'tick' needs everyMs as a positive whole number of milliseconds (got 0)"],
    ['twice', "twice: two schedules are named 'a'"],
    ['handless', "handless: job 'sweep' has no handler function"],
    ['colon', "colon: job name 'crm:sync' can't contain ':' (it separates feature and job on enqueue)"],
  ])('refuses at start what would fail on every tick (%s)', async (id, message) => {
    await expect(importDefinitions([discovered(id)])).rejects.toThrow(new PluginManifestError(message));
  });
});

describe('mergePermissions', () => {
  const core = () => ({ permissions: { ...CORE_PERMISSION_TABLE } }) as CoreServices;
  const def = (id: string, permissions: PluginDefinition['permissions']) => ({ definition: { id, permissions } });

  it("adds every feature's permissions to the core's table", () => {
    const services = core();
    mergePermissions(services, [def('kanban', { 'kanban:manage': ['admin'] }), def('chat', { 'chat:use': ['admin', 'user'] })]);
    expect(services.permissions['kanban:manage']).toEqual(['admin']);
    expect(services.permissions['chat:use']).toEqual(['admin', 'user']);
    expect(services.permissions['dashboard:view']).toEqual(['admin']);
  });

  it('refuses a feature redefining a core permission or another feature’s, naming it', () => {
    expect(() => mergePermissions(core(), [def('evil', { 'dashboard:view': ['user'] })])).toThrow(
      new PluginManifestError("evil: permission 'dashboard:view' is already defined"),
    );
    expect(() => mergePermissions(core(), [def('one', { 'x:y': ['admin'] }), def('two', { 'x:y': ['user'] })])).toThrow(
      "two: permission 'x:y' is already defined",
    );
  });
});
