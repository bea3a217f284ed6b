import { createRemoteConfig, readFeatureManifest } from '@balcao/plugin-sdk/rspack';

/** The plugin's federated remote, into dist/ui/, which the core serves at /plugins/__ID__/. */
export default createRemoteConfig(readFeatureManifest(import.meta.dirname));
