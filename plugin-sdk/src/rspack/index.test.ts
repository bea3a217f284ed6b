/** The remote preset: what the host, the server's plugin listing and every remote must agree on. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  createRemoteConfig,
  readFeatureManifest,
  remoteContainerName,
  SHARED_SINGLETONS,
  SKIPPED_TYPESCRIPT,
  sharedSingletons,
} from './index';

const here = path.dirname(fileURLToPath(import.meta.url));
const HELLO = path.resolve(here, '../../../server/test/fixtures/hello-plugin');

describe('the rspack remote preset', () => {
  it('names a remote with the shared container name the server lists to the host', () => {
    expect(remoteContainerName('internal-chat')).toBe('balcao_internal_chat');
    const config = createRemoteConfig(readFeatureManifest(HELLO), { mode: 'development' });
    expect(config.output?.uniqueName).toContain(remoteContainerName('hello'));
  });

  it("builds a plugin's remote into dist/ui with its manifest, exposing ./ui, served from wherever it is", () => {
    const feature = readFeatureManifest(HELLO);
    expect(feature).toMatchObject({ id: 'hello', kind: 'plugin', version: '1.2.3', ui: { entry: './ui/index.tsx' } });
    const config = createRemoteConfig(feature, { mode: 'development' });
    expect(config).toMatchObject({
      name: 'balcao_hello',
      mode: 'development',
      context: HELLO,
      output: { path: path.join(HELLO, 'dist', 'ui'), publicPath: 'auto', uniqueName: 'balcao_hello' },
    });
    expect(() => createRemoteConfig(null)).toThrow(/no "balcao" manifest/);
    expect(() => createRemoteConfig({ ...(feature as NonNullable<typeof feature>), ui: undefined })).toThrow(
      'hello: the manifest has no balcao.ui entry to build',
    );
  });

  it('compiles the TypeScript of an installed SDK, which ships its sources, and of no other package', () => {
    expect(SKIPPED_TYPESCRIPT.test('/p/node_modules/@balcao/plugin-sdk/src/ui/chat-text.tsx')).toBe(false);
    expect(SKIPPED_TYPESCRIPT.test('/p/node_modules/some-lib/index.ts')).toBe(true);
    expect(SKIPPED_TYPESCRIPT.test('/p/node_modules/@balcao/plugin-sdk-extra/index.ts')).toBe(true);
    expect(SKIPPED_TYPESCRIPT.test('/p/ui/index.tsx')).toBe(false);
  });

  it('shares every singleton, subpaths included; the host provides them and a remote ships none of its own', () => {
    const keys = SHARED_SINGLETONS.map((entry) => entry.key);
    expect(keys).toEqual(expect.arrayContaining(['react', 'react/', 'react-dom', 'react-dom/', 'antd', '@balcao/plugin-sdk/ui']));
    const host = sharedSingletons('host', HELLO);
    const remote = sharedSingletons('remote', HELLO);
    expect(Object.keys(host)).toEqual(keys);
    expect(Object.keys(remote)).toEqual(keys);
    for (const key of keys) {
      expect(host[key]).toMatchObject({ singleton: true, eager: false, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
      expect(host[key]?.requiredVersion).toBe(`^${host[key]?.version}`);
      expect(remote[key]).toMatchObject({ singleton: true, import: false, requiredVersion: host[key]?.requiredVersion });
      expect(remote[key]).not.toHaveProperty('version');
    }
  });
});
