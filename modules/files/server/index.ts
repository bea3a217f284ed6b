import { definePlugin } from '@balcao/plugin-sdk/server';
import { filesErrors } from './errors';
import { seedFilesDemo } from './seed/demo';
import { seedFilesFixtures } from './seed/fixtures';
import { fileListContent } from './service';

/**
 * File lists (docs/product/automation.md "File lists"): named sets of files with a message that the
 * chatbot sends (a menu option of type `file`, a queue's `fileListId`) through the `fileLists` service.
 * Every plan has them; admins manage them.
 */
export default definePlugin({
  id: 'files',
  errors: filesErrors,
  permissions: { 'files:manage': ['admin'] },
  seed: { demo: seedFilesDemo, fixtures: seedFilesFixtures },
  async register(_app, ctx) {
    ctx.services.provide('fileLists', { content: fileListContent });
  },
});
