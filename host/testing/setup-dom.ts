/**
 * The browser bits happy-dom lacks and antd needs: `matchMedia` (responsive hooks, the narrow-screen
 * drawer), `ResizeObserver` (menus, inputs), and a page address so relative API URLs resolve.
 */
import { fixedMediaQuery } from '@balcao/plugin-sdk/testing/ui';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';

const testWindow = globalThis as unknown as {
  happyDOM?: { setURL(url: string): void };
  matchMedia?: (query: string) => MediaQueryList;
  ResizeObserver?: unknown;
};

testWindow.happyDOM?.setURL('http://balcao.test/');

// Wide screen by default; a test that wants the narrow layout calls the SDK's narrowScreen().
testWindow.matchMedia = (query: string) => fixedMediaQuery(query, false);

if (!testWindow.ResizeObserver) {
  testWindow.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}

afterEach(() => {
  cleanup();
  globalThis.localStorage?.clear();
});

// The theme loads antd's texts of the interface language with a dynamic import. On a busy machine a file
// can end before that import resolves, and vitest then fails the run for a load after teardown: let the
// imports finish (at once when already loaded) before the file's environment goes.
afterAll(async () => {
  await Promise.all([
    import('antd/es/locale/pt_BR'),
    import('antd/es/locale/en_US'),
    import('antd/es/locale/es_ES'),
    import('antd/es/locale/tr_TR'),
  ]);
});
