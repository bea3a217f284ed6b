import type { AdminArea } from '../index';
import { teamErrors } from './errors';
import { seedTeamDemo } from './seed';

/** Users and settings (docs/product/administration.md#users, Settings). */
export const teamArea: AdminArea = {
  errors: teamErrors,
  // the session's avatar is the stored file's key: hand the browser a signed address of it instead
  async session(user, ctx) {
    return { profileImage: user.profileImage ? ctx.storage.signedUrl(user.companyId, user.profileImage) : null };
  },
  seed: { demo: seedTeamDemo },
};
