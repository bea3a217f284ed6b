/**
 * The SDK is the only thing a feature imports from the core (docs/architecture.md#the-shape): every module and plugin of
 * the repository, and the loader's fixture plugins, import `@balcao/plugin-sdk/*` and third-party
 * packages, never `@balcao/server` (or another workspace) and never a file outside their own folder —
 * features talk through the event bus and published services, not each other's files.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverPlugins } from '../../src/plugins/discover';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.resolve(here, '../fixtures');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist'].includes(entry.name) ? [] : sourceFiles(full);
    return /\.(ts|tsx|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every import of a feature that reaches past the SDK, one line each, naming the file and the specifier. */
function forbiddenImports(featureRoot: string): string[] {
  const problems: string[] = [];
  for (const file of sourceFiles(featureRoot)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      const where = `${path.relative(featureRoot, file)} imports '${specifier}'`;
      if (specifier.startsWith('.')) {
        const target = path.resolve(path.dirname(file), specifier);
        if (path.relative(featureRoot, target).startsWith('..')) problems.push(`${where}: a file outside the feature`);
      } else if (specifier.startsWith('@balcao/') && !/^@balcao\/plugin-sdk(\/|$)/.test(specifier)) {
        problems.push(`${where}: only @balcao/plugin-sdk is open to features`);
      } else if (path.isAbsolute(specifier)) {
        problems.push(`${where}: an absolute path`);
      }
    }
  }
  return problems;
}

const scratch = mkdtempSync(path.join(tmpdir(), 'balcao-imports-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('features import only the SDK from the core', () => {
  it('holds for every feature of the repository and every fixture plugin', () => {
    const roots = [
      ...discoverPlugins([]).map((feature) => feature.root),
      ...readdirSync(FIXTURES).map((name) => path.join(FIXTURES, name)),
    ];
    expect(roots.length).toBeGreaterThanOrEqual(3);
    const problems = roots.flatMap((root) => forbiddenImports(root).map((problem) => `${path.basename(root)}: ${problem}`));
    expect(problems, `\n${problems.join('\n')}\n`).toEqual([]);
  });

  it('catches a feature reaching into the core, another workspace or another feature', () => {
    const root = path.join(scratch, 'plugins', 'nosy');
    mkdirSync(path.join(root, 'server', 'routes'), { recursive: true });
    mkdirSync(path.join(root, 'ui'), { recursive: true });
    writeFileSync(
      path.join(root, 'server', 'index.ts'),
      [
        "import { definePlugin } from '@balcao/plugin-sdk/server';",
        "import { buildApp } from '@balcao/server';",
        "import { Tag } from '../../tags/server/models/tag';",
        "import { helper } from './routes/helper';",
        "export { loadConfig } from '../../../server/src/config';",
        "const lazy = () => import('@balcao/host/src/store');",
      ].join('\n'),
    );
    writeFileSync(path.join(root, 'server', 'routes', 'helper.ts'), "import Type from 'typebox';\nexport const helper = Type;");
    writeFileSync(path.join(root, 'ui', 'index.tsx'), "import { api } from '@balcao/plugin-sdk/ui';\nexport default api;");
    expect(forbiddenImports(root)).toEqual([
      "server/index.ts imports '@balcao/server': only @balcao/plugin-sdk is open to features",
      "server/index.ts imports '../../tags/server/models/tag': a file outside the feature",
      "server/index.ts imports '../../../server/src/config': a file outside the feature",
      "server/index.ts imports '@balcao/host/src/store': only @balcao/plugin-sdk is open to features",
    ]);
  });
});
