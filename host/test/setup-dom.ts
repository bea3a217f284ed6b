/**
 * The browser bits happy-dom lacks and antd needs: `matchMedia` (responsive hooks, the narrow-screen
 * drawer), `ResizeObserver` (menus, inputs), and a page address so relative API URLs resolve.
 */
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

const testWindow = globalThis as unknown as {
  happyDOM?: { setURL(url: string): void };
  matchMedia?: (query: string) => MediaQueryList;
  ResizeObserver?: unknown;
};

testWindow.happyDOM?.setURL('http://balcao.test/');

// Wide screen by default; a test that wants the narrow layout replaces matchMedia.
testWindow.matchMedia = (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }) as unknown as MediaQueryList;

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
