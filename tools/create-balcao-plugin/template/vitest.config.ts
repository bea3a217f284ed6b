import { defineConfig } from 'vitest/config';

/**
 * The plugin's tests run on the real core (a throwaway Postgres database per app, real Redis): the SDK's
 * test kit starts it. The SDK ships TypeScript; vitest compiles it like the plugin's own files.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['server/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
