import { definePluginOfAreas, type FeatureArea } from '@balcao/plugin-sdk/server';
import { platformArea } from './platform';
import { queuesArea } from './queues';
import { teamArea } from './team';

/**
 * One part of the administration (team: users and settings; queues: queues, chatbots, service hours;
 * platform: the super user's companies, plans, helps, announcements, whitelabel), in its own folder.
 */
export type AdminArea = FeatureArea;

/** Administration (docs/product/administration.md, docs/product/roles-and-permissions.md#roles-in-administration). */
export default definePluginOfAreas('admin', [teamArea, queuesArea, platformArea]);
