import type { AdminArea } from '../index';
import './errors';
import { seedPlatformDemo, seedPlatformFixtures } from './seed';

/** The super user's platform: companies, plans, helps, announcements, whitelabel. */
export const platformArea: AdminArea = {
  seed: { demo: seedPlatformDemo, fixtures: seedPlatformFixtures },
};
