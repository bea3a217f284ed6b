import { createTestApp } from '@balcao/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';

describe('every route schema of the core and of every plugin', () => {
  // schemas compile at their route's first request (http/validation.ts): here all at once, so that a broken
  // one fails in the tests and never at a user's request
  it('compiles', async () => {
    const t = await createTestApp({ seed: false });
    try {
      // 961 when written: validators of bodies, queries and parameters, and response serializers
      expect(t.balcao.compileSchemas()).toBeGreaterThan(500);
      expect(t.balcao.compileSchemas()).toBe(0);
    } finally {
      await t.close();
    }
  });
});
