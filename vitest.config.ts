import { defineConfig } from 'vitest/config';

/**
 * Four projects: server-side tests (Node, real Postgres and Redis, one throwaway database per app), the
 * WhatsApp tier (the driver against the loopback protocol peer), UI component tests (happy-dom), and
 * browser tests (Debian's chromium against a real app serving the built shell; `npm run test:browser`, kept
 * out of `npm run test:unit`).
 */
/** The Node tiers: real Postgres and Redis (one throwaway database per app). */
const NODE_TIER = {
  environment: 'node' as const,
  globalSetup: ['server/test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // two cores, but a test file waits on Postgres, Redis and sockets much of its time (the cores sat 20–50 %
  // idle at two files at a time): three at a time keeps them busy without thrashing; CI runs two beside the
  // browser tier (`BALCAO_TEST_WORKERS`, .ci/run)
  maxWorkers: Number(process.env.BALCAO_TEST_WORKERS) || 3,
};

/** The WhatsApp tier's folder: its tests run in a project of their own. */
const WHATSAPP_TESTS = 'plugins/channels/server/whatsapp/**';

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          ...NODE_TIER,
          include: [
            'server/**/*.test.ts',
            'plugin-sdk/src/**/*.test.ts',
            'modules/*/server/**/*.test.ts',
            'plugins/*/server/**/*.test.ts',
          ],
          // the UI SDK's tests need a DOM: they run in the ui project; WhatsApp's have their own tier
          exclude: ['**/node_modules/**', '**/dist/**', 'plugin-sdk/src/ui/**', WHATSAPP_TESTS],
        },
      },
      {
        extends: true,
        test: {
          // the WhatsApp driver against the loopback protocol peer (real Baileys, Signal, TLS), and its
          // normaliser, content builder and session store: a tier of its own, run by `npm test`
          name: 'whatsapp',
          ...NODE_TIER,
          include: [`${WHATSAPP_TESTS}/*.test.ts`],
          exclude: ['**/node_modules/**', '**/dist/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          environment: 'happy-dom',
          include: [
            'host/src/**/*.test.{ts,tsx}',
            'plugin-sdk/src/ui/**/*.test.{ts,tsx}',
            'modules/*/ui/**/*.test.{ts,tsx}',
            'plugins/*/ui/**/*.test.{ts,tsx}',
            'plugins/*/widget/**/*.test.{ts,tsx}',
          ],
          setupFiles: ['host/testing/setup-dom.ts'],
          // in the Node tiers' pool (same worker count, same group): run as a group of their own after them,
          // the UI files went one at a time and left a core idle for the last ~10 minutes of CI; beside the
          // Node tiers a heavy form takes longer than alone, hence the Node tiers' timeout
          testTimeout: NODE_TIER.testTimeout,
          maxWorkers: NODE_TIER.maxWorkers,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll's default of one second is shorter than a click's round trip through chromium, the
          // server and Postgres on a loaded CI machine: a poll waits as long as a locator would (CI failed on it)
          expect: { poll: { timeout: 15_000, interval: 100 } },
          // one chromium and one app at a time: two cores
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
