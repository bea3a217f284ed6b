/**
 * The route-table contract: every route the app serves — the core's, every module's and plugin's in the
 * repository, and the fixture plugin's — declares its access and a schema for each part it uses, and a
 * plan-gated plugin's routes carry its plan flag. New features are walked without any change here.
 */
import { createTestApp, parsePrintedRoutes, routeContractProblems, routeName, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverPlugins } from '../../src/plugins/discover';
import { routeFiles } from '../../src/plugins/feature-files';
import { HELLO_FIXTURE } from './lib/fixture-paths';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ plugins: [HELLO_FIXTURE], seed: false });
});
afterAll(async () => {
  await t?.close();
});

describe('the route table', () => {
  it('holds every route of every loaded feature, the fixture plugin included', () => {
    const loaded = t.balcao.plugins.map((plugin) => plugin.discovered.manifest.id);
    for (const feature of discoverPlugins([])) expect(loaded).toContain(feature.manifest.id);
    expect(loaded).toContain('hello');

    const owners = new Set(t.balcao.routes.routes.map((route) => route.owner));
    expect(owners).toContain('core');
    // a feature with route files must own routes: autoload and owner stamping both worked
    for (const { discovered } of t.balcao.plugins) {
      if (routeFiles(discovered.serverDir).length > 0)
        expect(owners, `${discovered.manifest.id} has route files but owns no route`).toContain(discovered.manifest.id);
    }
  });

  it('misses no route Fastify serves (nothing escapes the walkers)', () => {
    const normalize = (url: string) => (url.length > 1 ? url.replace(/\/$/, '') : url);
    const registered = t.balcao.routes.routes.map((route) => `${route.method} ${normalize(route.url)}`);
    const served = parsePrintedRoutes(t.balcao.app.printRoutes({ commonPrefix: false }));
    expect(served.length).toBeGreaterThan(10);
    const missing = served.filter((entry) => {
      const [method, url = ''] = entry.split(' ');
      if (registered.includes(`${method} ${normalize(url)}`)) return false;
      // find-my-way prints a wildcard under its parent's parent: match it by prefix
      return !(url.endsWith('*') && registered.some((r) => r.startsWith(`${method} ${url.slice(0, -1)}`) && r.endsWith('*')));
    });
    expect(missing).toEqual([]);
  });

  it('declares access, schemas for every part and the plugin plan flag on every route', () => {
    const problems = routeContractProblems(t);
    expect(problems, `\n${problems.join('\n')}\n`).toEqual([]);
  });

  it('stamps the fixture plugin routes with its owner and plan flag', () => {
    const hello = t.balcao.routes.routes.filter((route) => route.url.startsWith(`${t.config.apiPrefix}/hello-notes`));
    expect(hello.map(routeName).sort()).toEqual([
      'GET /api/hello-notes (owner hello)',
      'GET /api/hello-notes/:id (owner hello)',
      'POST /api/hello-notes (owner hello)',
    ]);
    for (const route of hello) expect(route.config.planFlag).toBe('useHello');
  });
});
