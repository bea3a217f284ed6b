import type { AdminArea } from '../index';
import { platformErrors } from './errors';
import { seedPlatformDemo, seedPlatformFixtures } from './seed';

/** The super user's platform: companies, plans, helps, announcements, whitelabel. */
export const platformArea: AdminArea = {
  errors: platformErrors,
  seed: { demo: seedPlatformDemo, fixtures: seedPlatformFixtures },
};
