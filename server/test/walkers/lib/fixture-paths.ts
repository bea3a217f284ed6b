import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The fixture plugin every walker loads besides the repository's features (plan-gated by its own flag, useHello). */
export const HELLO_FIXTURE = path.resolve(here, '../../fixtures/hello-plugin');

/** A fixture plugin with planted bugs, for the walkers' self-test only (its walk must fail). */
export const LEAKY_FIXTURE = path.resolve(here, '../../fixtures/leaky-plugin');
