/**
 * `npm start` builds the UI of a plugin folder named in BALCAO_PLUGINS (scripts/lib/build.ts): only folders
 * whose manifest declares a UI and that have their own `build:ui`, and only when the remote is missing or
 * older than its sources.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newestMtime, outsideUiTargets } from '../../../scripts/lib/build';

const scratch = mkdtempSync(path.join(tmpdir(), 'balcao-outside-ui-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function pluginFolder(name: string, manifest: object): string {
  const folder = path.join(scratch, name);
  mkdirSync(path.join(folder, 'ui'), { recursive: true });
  writeFileSync(path.join(folder, 'package.json'), JSON.stringify(manifest));
  writeFileSync(path.join(folder, 'ui', 'index.tsx'), 'export default {};\n');
  return folder;
}

describe('the outside plugins npm start builds', () => {
  it('are the folders with a UI and a build:ui script, not packages nor folders without a UI', () => {
    const withUi = pluginFolder('with-ui', {
      balcao: { id: 'with-ui', ui: { entry: './ui/index.tsx' } },
      scripts: { 'build:ui': 'rspack build' },
    });
    pluginFolder('server-only', { balcao: { id: 'server-only' }, scripts: { 'build:ui': 'rspack build' } });
    pluginFolder('no-script', { balcao: { id: 'no-script', ui: { entry: './ui/index.tsx' } } });
    const env = {
      BALCAO_PLUGINS: ` ${withUi}, ${path.join(scratch, 'server-only')},${path.join(scratch, 'no-script')},@acme/installed ,,`,
    };
    const targets = outsideUiTargets(scratch, env);
    expect(targets.map((target) => target.folder)).toEqual([withUi]);
    expect(targets[0]?.output).toBe(path.join(withUi, 'dist', 'ui', 'mf-manifest.json'));
  });

  it('are stale until their remote is newer than their ui/', () => {
    const folder = pluginFolder('built', {
      balcao: { id: 'built', ui: { entry: './ui/index.tsx' } },
      scripts: { 'build:ui': 'x' },
    });
    const [target] = outsideUiTargets(scratch, { BALCAO_PLUGINS: folder });
    if (!target) throw new Error('no target');
    expect(newestMtime(target.output)).toBe(0);
    mkdirSync(path.dirname(target.output), { recursive: true });
    writeFileSync(target.output, '{}');
    const later = new Date(Date.now() + 60_000);
    utimesSync(target.output, later, later);
    expect(newestMtime(target.output)).toBeGreaterThan(Math.max(...target.sources.map(newestMtime)));
  });
});
