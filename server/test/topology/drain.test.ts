import { ConfigError, loadConfig } from '@balcao/server';
import { describe, expect, it } from 'vitest';

/**
 * `SHUTDOWN_DRAIN_MS` (docs/operations.md "Processes"): how long a web process stopping stays up, unready.
 * The drain itself (`/readyz` 503 `draining` while the routes still serve, then a clean exit) is proven on
 * real processes by topology.test.ts's rolling restart.
 */
describe('SHUTDOWN_DRAIN_MS', () => {
  it('is 6 s by default, 0 closes at once, and a bad value is named', () => {
    const base = { NODE_ENV: 'test' };
    expect(loadConfig(base).shutdownDrainMs).toBe(6_000);
    expect(loadConfig({ ...base, SHUTDOWN_DRAIN_MS: '0' }).shutdownDrainMs).toBe(0);
    for (const bad of ['-1', '60001', 'soon']) {
      expect(() => loadConfig({ ...base, SHUTDOWN_DRAIN_MS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, SHUTDOWN_DRAIN_MS: bad })).toThrow(/SHUTDOWN_DRAIN_MS/);
    }
  });
});
