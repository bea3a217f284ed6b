import type { ChannelsArea } from '../index';

/** The connections area (filled by its issue-5 work). */
export const connectionsArea: ChannelsArea = {};
