import type { AdminArea } from '../index';
import { registerTeamErrors } from './errors';
import { seedTeamDemo } from './seed';

registerTeamErrors();

/** Users and settings (docs/product/administration.md#users, Settings). */
export const teamArea: AdminArea = {
  // the session's avatar is the stored file's key: hand the browser a signed address of it instead
  async session(user, ctx) {
    return { profileImage: user.profileImage ? ctx.storage.signedUrl(user.companyId, user.profileImage) : null };
  },
  seed: { demo: seedTeamDemo },
};
