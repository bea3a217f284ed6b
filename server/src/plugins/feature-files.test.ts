import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { byRouteOrder, routeFiles } from './feature-files';

const server = mkdtempSync(path.join(tmpdir(), 'balcao-route-files-'));
afterAll(() => rmSync(server, { recursive: true, force: true }));

function touch(file: string): void {
  mkdirSync(path.dirname(path.join(server, file)), { recursive: true });
  writeFileSync(path.join(server, file), '');
}

describe('routeFiles', () => {
  it("takes server/routes, then each area's routes by folder name, files by name, tests and deeper folders aside", () => {
    for (const file of [
      'routes/tags.ts',
      'routes/contacts.ts',
      'routes/contacts.test.ts',
      'zeta/routes/b.ts',
      'alpha/routes/z.ts',
      'alpha/routes/a.js',
      'alpha/routes/a.test.ts',
      'alpha/routes/types.d.ts',
      'alpha/service.ts',
      'alpha/inner/routes/deep.ts',
      'routes/nested/routes/deep.ts',
      'empty/routes/.hidden.ts',
      'index.ts',
    ]) {
      touch(file);
    }
    const files = routeFiles(server);
    expect(files).toEqual(['routes/contacts.ts', 'routes/tags.ts', 'alpha/routes/a.js', 'alpha/routes/z.ts', 'zeta/routes/b.ts']);
    // the bundle's registry, in whatever order it holds its keys, is put back in the same order
    expect([...files].reverse().sort(byRouteOrder)).toEqual(files);
  });

  it('finds none for a feature without a server folder', () => {
    expect(routeFiles(path.join(server, 'missing'))).toEqual([]);
  });
});
