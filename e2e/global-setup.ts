import { dropStaleDatabases } from '@balcao/plugin-sdk/testing';
import { buildForBrowserTests } from './build-once';

/** Builds the shell and the fixture remote when stale, and drops databases crashed runs left behind. */
export default async function setup(): Promise<void> {
  if (buildForBrowserTests()) console.log('browser tests: built the host and the fixture remote');
  await dropStaleDatabases(3_600);
}
