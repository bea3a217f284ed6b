import { definePlugin } from '@balcao/plugin-sdk/server';
import { internalChatErrors } from './errors';
import { seedChatsDemo } from './seed/demo';
import { seedChatFixtures } from './seed/fixtures';
import { announceMemberChange } from './services/chats.service';

/**
 * Internal chat (docs/product/automation.md "Internal chat"): team chats between users of one company, with
 * members, per-member unread counts and read marks, text and file messages, and live updates on the
 * documented channels, sent to members only. A changed user makes their chats' members reload their lists.
 */
export default definePlugin({
  id: 'internal-chat',
  errors: internalChatErrors,
  on: {
    'user.updated': (payload, ctx) => announceMemberChange(ctx, payload.companyId, payload.userId),
  },
  seed: { demo: seedChatsDemo, fixtures: seedChatFixtures },
});
