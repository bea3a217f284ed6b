import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The loopback channel's plugin folder, as `createTestApp({ plugins })` and `BALCAO_PLUGINS` name plugins. */
export const LOOPBACK_PLUGIN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'channel');
